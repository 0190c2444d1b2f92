//! Volto's page content: `blocks` maps block ids to block data, each with an `@type` (`slate`,
//! `image`, `listing`, `teaser`…), and `blocks_layout.items` orders the ids.
//!
//! The server never runs or renders block data; it checks the shape (so every client can rely
//! on it), bounds it, and keeps internal links inside it as `resolveuid/<uid>` like rich text:
//! the values of `url`, `href`, `preview_image` and `@id` keys at any depth (slate link nodes,
//! image blocks, teaser targets), as plone.restapi's block (de)serializers do.

use serde_json::Value;

/// The most blocks a page (or a nested container block) may hold.
pub const MAX_BLOCKS: usize = 1_000;
const MAX_ID_LEN: usize = 128;
const MAX_TYPE_LEN: usize = 100;
/// The keys whose string values are links.
const LINK_KEYS: [&str; 4] = ["url", "href", "preview_image", "@id"];

/// `blocks`: an object of block id → object with a non-empty `@type`.
pub fn parse_blocks(value: &Value) -> Result<Value, String> {
    let blocks = value.as_object().ok_or("Expected an object of block id → block data.")?;
    if blocks.len() > MAX_BLOCKS {
        return Err(format!("A page holds at most {MAX_BLOCKS} blocks."));
    }
    for (id, block) in blocks {
        check_id(id)?;
        let data = block.as_object().ok_or_else(|| format!("Block '{id}' must be an object."))?;
        match data.get("@type").and_then(Value::as_str) {
            Some(kind) if !kind.is_empty() && kind.len() <= MAX_TYPE_LEN => {}
            _ => return Err(format!("Block '{id}' needs an '@type' (a short text such as \"slate\").")),
        }
    }
    Ok(value.clone())
}

/// `blocks_layout`: an object whose `items` lists block ids.
pub fn parse_layout(value: &Value) -> Result<Value, String> {
    let layout = value.as_object().ok_or("Expected an object like {\"items\": [block ids]}.")?;
    let items = layout.get("items").and_then(Value::as_array).ok_or("'items' must be a list of block ids.")?;
    if items.len() > MAX_BLOCKS {
        return Err(format!("A layout orders at most {MAX_BLOCKS} blocks."));
    }
    for item in items {
        check_id(item.as_str().ok_or("'items' must be a list of block ids.")?)?;
    }
    Ok(value.clone())
}

fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty() || id.len() > MAX_ID_LEN || id.chars().any(char::is_control) {
        return Err(format!("Block ids are 1 to {MAX_ID_LEN} printable characters."));
    }
    Ok(())
}

/// The link values inside block data, for looking their targets up.
pub fn link_values(blocks: &Value) -> Vec<&str> {
    let mut found = Vec::new();
    let mut stack = vec![blocks];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    match inner {
                        Value::String(text) if LINK_KEYS.contains(&key.as_str()) => found.push(text.as_str()),
                        _ => stack.push(inner),
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    found
}

/// Applies `rewrite` to every link value inside block data (bounded depth: parsed values nest
/// at most as deep as the JSON limit allows).
pub fn rewrite_link_values(blocks: &mut Value, rewrite: &mut impl FnMut(&str) -> Option<String>) {
    match blocks {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                match inner {
                    Value::String(text) if LINK_KEYS.contains(&key.as_str()) => {
                        if let Some(new) = rewrite(text) {
                            *text = new;
                        }
                    }
                    _ => rewrite_link_values(inner, rewrite),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rewrite_link_values(item, rewrite)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_need_an_object_of_typed_objects() {
        assert!(parse_blocks(&json!({"a": {"@type": "slate", "value": []}})).is_ok());
        assert!(parse_blocks(&json!({})).is_ok());
        assert!(parse_blocks(&json!([])).is_err());
        assert!(parse_blocks(&json!({"a": "text"})).is_err());
        assert!(parse_blocks(&json!({"a": {"text": "x"}})).is_err());
        assert!(parse_blocks(&json!({"a": {"@type": ""}})).is_err());
        assert!(parse_blocks(&json!({"": {"@type": "slate"}})).is_err());
    }

    #[test]
    fn layouts_list_block_ids() {
        assert!(parse_layout(&json!({"items": ["a", "b"]})).is_ok());
        assert!(parse_layout(&json!({"items": [1]})).is_err());
        assert!(parse_layout(&json!({"order": []})).is_err());
        assert!(parse_layout(&json!(["a"])).is_err());
    }

    #[test]
    fn link_values_are_found_and_rewritten_at_any_depth() {
        let mut blocks = json!({
            "i": {"@type": "image", "url": "/Plone/pic"},
            "t": {"@type": "teaser", "href": [{"@id": "/Plone/page", "title": "x"}]},
            "s": {"@type": "slate", "value": [{"children": [{"type": "link", "data": {"url": "/Plone/a"}}]}]}
        });
        let mut found = link_values(&blocks);
        found.sort_unstable();
        assert_eq!(found, ["/Plone/a", "/Plone/page", "/Plone/pic"]);
        rewrite_link_values(&mut blocks, &mut |text| Some(format!("{text}!")));
        assert_eq!(blocks["t"]["href"][0]["@id"], "/Plone/page!");
        assert_eq!(blocks["s"]["value"][0]["children"][0]["data"]["url"], "/Plone/a!");
        assert_eq!(blocks["t"]["href"][0]["title"], "x");
    }
}
