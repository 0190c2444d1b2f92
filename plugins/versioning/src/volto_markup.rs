//! Volto blocks as markup, so versions of Volto pages can be shown and compared like rich
//! text: slate blocks become their paragraphs, headings, lists and links; text, image and
//! teaser blocks what a reader sees of them. Everything is escaped and only known tags are
//! written; the title and description blocks show the page's own metadata, which the
//! comparison reports separately.

use crate::render::{escape, escape_into};
use serde_json::Value;
use wcs_core::content::links::resolve_links;

/// Slate element types written as the HTML element of the same name.
const SLATE_TAGS: [&str; 17] =
    ["p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "strong", "em", "u", "del", "sub", "sup"];
/// How deep slate nodes are followed (stored blocks are bounded far below this anyway).
const MAX_DEPTH: usize = 64;

/// The blocks in `blocks_layout` order (then any the layout misses), as markup.
pub fn render_blocks(blocks: &Value, layout: Option<&Value>, site_url: &str) -> String {
    let Some(blocks) = blocks.as_object() else { return String::new() };
    let mut order: Vec<&str> = layout
        .and_then(|l| l.get("items"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|id| blocks.contains_key(*id))
        .collect();
    let unplaced: Vec<&str> = blocks.keys().map(String::as_str).filter(|id| !order.contains(id)).collect();
    order.extend(unplaced);
    let mut html = String::new();
    for id in order {
        if let Some(block) = blocks.get(id) {
            render_block(block, site_url, &mut html);
        }
    }
    html
}

fn render_block(block: &Value, site_url: &str, html: &mut String) {
    let text = |key: &str| block.get(key).and_then(Value::as_str).filter(|t| !t.is_empty());
    match block.get("@type").and_then(Value::as_str).unwrap_or_default() {
        "title" | "description" => {}
        "slate" => {
            for node in block.get("value").and_then(Value::as_array).into_iter().flatten() {
                slate_node(node, site_url, html, 0);
            }
        }
        "text" => {
            let paragraphs = block.pointer("/text/blocks").and_then(Value::as_array);
            for paragraph in paragraphs.into_iter().flatten().filter_map(|b| b.get("text")?.as_str()) {
                html.push_str(&format!("<p>{}</p>", escape(paragraph)));
            }
        }
        "image" => {
            let url = text("url").map(|u| resolve_links(u, site_url, |_| None)).unwrap_or_default();
            let alt = text("alt").unwrap_or_default();
            html.push_str(&format!("<p class=\"image\">{} {}</p>", escape(alt), escape(&url)));
        }
        "teaser" => {
            let target = block.pointer("/href/0/@id").and_then(Value::as_str).unwrap_or_default();
            let target = resolve_links(target, site_url, |_| None);
            let title = text("title").unwrap_or_default();
            let description = text("description").unwrap_or_default();
            html.push_str(&format!(
                "<p class=\"teaser\"><a href=\"{}\">{}</a> {}</p>",
                escape(&target),
                escape(title),
                escape(description)
            ));
        }
        other => {
            let headline = text("headline").or_else(|| text("title")).unwrap_or_default();
            html.push_str(&format!("<p class=\"block\">{} {}</p>", escape(other), escape(headline)));
        }
    }
}

fn slate_node(node: &Value, site_url: &str, html: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(text) = node.get("text").and_then(Value::as_str) {
        escape_into(html, text);
        return;
    }
    let kind = node.get("type").and_then(Value::as_str).unwrap_or_default();
    let (open, close) = match kind {
        "link" => {
            let url = node.pointer("/data/url").and_then(Value::as_str).unwrap_or_default();
            (format!("<a href=\"{}\">", escape(&resolve_links(url, site_url, |_| None))), "</a>".to_owned())
        }
        tag if SLATE_TAGS.contains(&tag) => (format!("<{tag}>"), format!("</{tag}>")),
        _ => (String::new(), String::new()),
    };
    html.push_str(&open);
    for child in node.get("children").and_then(Value::as_array).into_iter().flatten() {
        slate_node(child, site_url, html, depth + 1);
    }
    html.push_str(&close);
}

#[cfg(test)]
mod tests {
    use super::render_blocks;
    use serde_json::json;

    #[test]
    fn slate_text_and_links_become_escaped_markup_in_layout_order() {
        let blocks = json!({
            "b": {"@type": "slate", "value": [{"type": "p", "children": [
                {"text": "Siehe <hier> "},
                {"type": "link", "data": {"url": "resolveuid/0123456789abcdef0123456789abcdef"}, "children": [{"text": "dort"}]},
                {"type": "script", "children": [{"text": "x"}]}
            ]}]},
            "a": {"@type": "title"},
            "c": {"@type": "listing", "headline": "News"}
        });
        let html = render_blocks(&blocks, Some(&json!({"items": ["a", "b"]})), "http://h/Plone");
        assert_eq!(
            html,
            "<p>Siehe &lt;hier&gt; <a href=\"http://h/Plone/resolveuid/0123456789abcdef0123456789abcdef\">dort</a>x</p>\
             <p class=\"block\">listing News</p>"
        );
    }
}
