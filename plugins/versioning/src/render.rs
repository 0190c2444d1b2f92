//! Markup of frozen (or current) page parts, for `display_version` and comparison rows. All
//! stored HTML passes through ammonia; everything else is escaped.

use crate::snapshot::{FrozenObject, Snapshot};
use crate::volto_markup::render_blocks;
use serde_json::Value;
use wcs_core::app::App;
use wcs_core::content::layout::{LAYOUT_FIELD, PageLayout};
use wcs_core::content::links::resolve_links;
use wcs_core::content::markup::stored_for_output;
use wcs_core::content::{FieldKind, TypeProfile};
use wcs_core::i18n::Translator;

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

/// Escapes text onto `out`: what every writer of markup in this plugin goes through, so no
/// text or attribute value can become markup.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            _ => out.push(c),
        }
    }
}

/// Whether the page shows a block's title (`show_title`, on unless switched off).
pub fn shows_title(block: &FrozenObject) -> bool {
    block.fields.get("show_title").and_then(Value::as_bool).unwrap_or(true)
}

/// The page's blocks in reading order: as the layout places them, then any it misses.
pub fn blocks_in_order<'a>(app: &App, snapshot: &'a Snapshot) -> Vec<&'a FrozenObject> {
    let Ok(page) = snapshot.page() else { return Vec::new() };
    let mut blocks: Vec<&FrozenObject> = snapshot
        .parts()
        .iter()
        .filter(|o| o.parent_uid.as_deref() == Some(page.uid.as_str()) && app.types.is_block_type(&o.portal_type))
        .collect();
    blocks.sort_by_key(|b| b.position);
    let layout = PageLayout::from_stored(page.fields.get(LAYOUT_FIELD)).uids();
    let rank = |uid: &str| layout.iter().position(|u| u == uid).unwrap_or(usize::MAX);
    blocks.sort_by_key(|b| rank(&b.uid));
    blocks
}

/// How rich text goes into the markup.
#[derive(Clone, Copy)]
pub enum RichText<'a> {
    /// Sanitised now: the markup is shown as it is.
    Sanitized,
    /// As stored, with internal links pointing at the site's `resolveuid` view: for the
    /// comparison, which must see custom elements and frames and sanitises what it writes.
    Raw {
        /// The site's URL.
        site_url: &'a str,
    },
}

/// A block (or a page without blocks) as markup: its title when shown, its text, media and
/// contained files or images.
pub fn render_part(
    app: &App,
    snapshot: &Snapshot,
    part: &FrozenObject,
    with_title: bool,
    text: RichText<'_>,
) -> String {
    let mut html = String::new();
    if with_title && !part.title.is_empty() {
        html.push_str(&format!("<h2>{}</h2>", escape(&part.title)));
    }
    let Some(profile) = app.types.get(&part.portal_type) else { return html };
    html.push_str(&render_fields(&profile, part, text));
    let children: Vec<&FrozenObject> =
        snapshot.parts().iter().filter(|o| o.parent_uid.as_deref() == Some(part.uid.as_str())).collect();
    if !children.is_empty() {
        html.push_str("<ul class=\"block-items\">");
        for child in children {
            html.push_str(&format!("<li>{}</li>", child_markup(child)));
        }
        html.push_str("</ul>");
    }
    html
}

fn render_fields(profile: &TypeProfile, part: &FrozenObject, text: RichText<'_>) -> String {
    let mut html = String::new();
    for field in &profile.fields {
        let Some(value) = part.fields.get(&field.name) else { continue };
        match field.kind {
            FieldKind::RichText => {
                if let Some(data) = value.get("data").and_then(Value::as_str) {
                    match text {
                        RichText::Sanitized => html.push_str(&stored_for_output(data)),
                        RichText::Raw { site_url } => html.push_str(&resolve_links(data, site_url, |_| None)),
                    }
                }
            }
            FieldKind::Image => {
                if let Some(name) = value.get("filename").and_then(Value::as_str) {
                    let alt = part.fields.get("image_alt_text").and_then(Value::as_str).unwrap_or(name);
                    html.push_str(&figure(value, alt));
                }
            }
            FieldKind::File => {
                if let Some(name) = value.get("filename").and_then(Value::as_str) {
                    html.push_str(&format!("<p class=\"file\">{}</p>", escape(name)));
                }
            }
            FieldKind::Blocks => {
                let site_url = match text {
                    RichText::Raw { site_url } => site_url,
                    RichText::Sanitized => "",
                };
                html.push_str(&render_blocks(value, part.fields.get("blocks_layout"), site_url));
            }
            FieldKind::URI if field.name == "video_url" => {
                if let Some(url) = value.as_str().filter(|u| !u.is_empty()) {
                    html.push_str(&format!("<iframe src=\"{}\" title=\"video\"></iframe>", escape(url)));
                }
            }
            _ => {}
        }
    }
    html
}

/// A file or image inside a block: compared by title (files) or file name and size (images).
fn child_markup(child: &FrozenObject) -> String {
    match child.fields.get("image") {
        Some(image) => figure(image, &child.title),
        None => format!("<span class=\"file\">{}</span>", escape(&child.title)),
    }
}

/// An image as a figure naming its file and size (what the comparison treats as its identity).
fn figure(image: &Value, caption: &str) -> String {
    format!(
        "<figure class=\"image\" data-filename=\"{}\" data-size=\"{}\"><figcaption>{}</figcaption></figure>",
        escape(image.get("filename").and_then(Value::as_str).unwrap_or_default()),
        image.get("size").and_then(Value::as_i64).unwrap_or(0),
        escape(caption)
    )
}

/// The whole body of a frozen page: title, description, then the blocks (or, for a page
/// without blocks, its own text).
pub fn render_body(app: &App, snapshot: &Snapshot, translator: &Translator) -> String {
    let Ok(page) = snapshot.page() else { return String::new() };
    let mut html = String::new();
    if !page.description.is_empty() {
        html.push_str(&format!("<p class=\"description\">{}</p>", escape(&page.description)));
    }
    let has_blocks = app.types.get(&page.portal_type).is_some_and(|p| p.has_blocks());
    if !has_blocks {
        html.push_str(&render_part(app, snapshot, page, false, RichText::Sanitized));
        return html;
    }
    for block in blocks_in_order(app, snapshot) {
        let type_title =
            app.types.get(&block.portal_type).map_or(block.portal_type.clone(), |p| translator.type_title(&p));
        html.push_str(&format!(
            "<section class=\"block\" id=\"{}\" data-type=\"{}\">{}</section>",
            escape(&block.uid),
            escape(&type_title),
            render_part(app, snapshot, block, shows_title(block), RichText::Sanitized)
        ));
    }
    html
}
