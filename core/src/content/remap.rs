//! Rewriting the uids an object's fields point at. Copying a page gives its blocks new uids,
//! and checking a working copy in gives them back their baseline's; references between the
//! objects that moved together (layout cells, relations, `resolveuid` links) must follow, or
//! the copy would point into the original.

use super::layout::PageLayout;
use super::{FieldKind, TypeProfile};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Replaces every uid in `renamed` wherever `profile`'s fields of `fields` refer to it.
pub fn remap_uids(profile: &TypeProfile, fields: &mut Map<String, Value>, renamed: &HashMap<String, String>) {
    if renamed.is_empty() {
        return;
    }
    for field in &profile.fields {
        let Some(value) = fields.get_mut(&field.name) else { continue };
        match field.kind {
            FieldKind::PageLayout => {
                let mut layout = PageLayout::from_stored(Some(value));
                layout.rename(renamed);
                *value = layout.to_value();
            }
            FieldKind::RelationChoice => {
                if let Some(new) = value.as_str().and_then(|uid| renamed.get(uid)) {
                    *value = Value::String(new.clone());
                }
            }
            FieldKind::RelationList => {
                for item in value.as_array_mut().into_iter().flatten() {
                    if let Some(new) = item.as_str().and_then(|uid| renamed.get(uid)) {
                        *item = Value::String(new.clone());
                    }
                }
            }
            FieldKind::RichText => {
                if let Some(Value::String(data)) = value.get_mut("data") {
                    *data = rewrite_links(data, renamed);
                }
            }
            FieldKind::TextLine | FieldKind::URI => {
                if let Value::String(text) = value {
                    *text = rewrite_links(text, renamed);
                }
            }
            _ => {}
        }
    }
}

/// `resolveuid/<old>` becomes `resolveuid/<new>`; uids are fixed-length hex, so one never
/// matches inside another.
fn rewrite_links(text: &str, renamed: &HashMap<String, String>) -> String {
    if !text.contains("resolveuid/") {
        return text.to_owned();
    }
    let mut out = text.to_owned();
    for (old, new) in renamed {
        let from = format!("resolveuid/{old}");
        if out.contains(&from) {
            out = out.replace(&from, &format!("resolveuid/{new}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::TypeRegistry;
    use serde_json::json;

    #[test]
    fn follows_layout_relations_and_links() {
        let mut types = TypeRegistry::default();
        let profile = r#"
            id = "Page"
            title = "Page"
            [[fields]]
            name = "simplelayout"
            kind = "PageLayout"
            [[fields]]
            name = "text"
            kind = "RichText"
            [[fields]]
            name = "related"
            kind = "RelationList"
        "#;
        assert!(types.add_toml("test", profile).is_ok());
        let Some(profile) = types.get("Page") else { return };
        let (old, new, other) = ("a".repeat(32), "b".repeat(32), "c".repeat(32));
        let mut fields = json!({
            "simplelayout": {"default": [{"cols": [{"blocks": [{"uid": old}, {"uid": other}]}]}]},
            "text": {"data": format!("<a href=\"resolveuid/{old}#x\">x</a> <a href=\"resolveuid/{other}\">y</a>")},
            "related": [old, other],
        });
        let renamed = HashMap::from([(old.clone(), new.clone())]);
        if let Value::Object(map) = &mut fields {
            remap_uids(profile, map, &renamed);
        }
        assert_eq!(fields["simplelayout"]["default"][0]["cols"][0]["blocks"][0]["uid"], json!(new));
        assert_eq!(fields["simplelayout"]["default"][0]["cols"][0]["blocks"][1]["uid"], json!(other));
        assert_eq!(fields["related"], json!([new, other]));
        let text = fields["text"]["data"].as_str().unwrap_or_default();
        assert!(text.contains(&format!("resolveuid/{new}#x")) && text.contains(&format!("resolveuid/{other}")));
    }
}
