//! What the index holds of an object: its catalog fields, who may see it, and its searchable
//! text, which for a block page includes the titles and texts of its blocks (blocks are parts
//! of their page, never found on their own).

use crate::dsl::{CustomFields, CustomKind};
use crate::engine::{IndexDoc, TypedValue};
use serde_json::Value;
use std::collections::HashMap;
use wcs_core::app::App;
use wcs_core::catalog::is_searchable;
use wcs_core::content::{ContentObject, FieldKind};

/// The index document of `object`; `parts` are its blocks and their contents (for a block
/// page), `allowed` who may see it.
pub fn index_doc(
    app: &App,
    object: &ContentObject,
    parts: &[&ContentObject],
    allowed: Vec<String>,
    custom: &CustomFields,
) -> IndexDoc {
    let mut text = String::new();
    for source in std::iter::once(object).chain(parts.iter().copied()) {
        append_text(app, source, &mut text);
    }
    let mut paths = Vec::new();
    let mut path = object.path.as_str();
    while !path.is_empty() {
        paths.push(path.to_owned());
        path = &path[..path.rfind('/').unwrap_or(0)];
    }
    IndexDoc {
        uid: object.uid.clone(),
        paths,
        portal_type: object.portal_type.clone(),
        review_state: object.review_state.clone().unwrap_or_default(),
        title: object.title.clone(),
        description: object.description.clone(),
        searchable_text: text,
        subjects: object
            .fields
            .get("subjects")
            .and_then(Value::as_array)
            .map(|s| s.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default(),
        allowed,
        created: object.created.timestamp(),
        modified: object.modified.timestamp(),
        effective: object.effective.map_or(i64::MIN, |t| t.timestamp()),
        expires: object.expires.map_or(i64::MAX, |t| t.timestamp()),
        custom_text: custom_values(object, custom, CustomKind::Text),
        custom_keyword: custom_values(object, custom, CustomKind::Keyword),
        custom_typed: typed_values(object, custom),
        language: object.language().unwrap_or_default().to_owned(),
    }
}

/// The values of the number, boolean and date custom fields that `object` has; a value that
/// does not fit its field's type is left out (as Elasticsearch's `ignore_malformed` would).
fn typed_values(object: &ContentObject, custom: &CustomFields) -> Vec<(String, TypedValue)> {
    let mut out = Vec::new();
    for (name, kind) in custom {
        let Some(value) = object.fields.get(name) else { continue };
        let items: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            single => vec![single],
        };
        for item in items {
            let text = item.as_str().map(str::trim);
            let typed = match kind {
                CustomKind::Integer => item.as_i64().or_else(|| text?.parse().ok()).map(TypedValue::Integer),
                CustomKind::Float => item.as_f64().or_else(|| text?.parse().ok()).map(TypedValue::Float),
                CustomKind::Boolean => item.as_bool().or_else(|| text?.parse().ok()).map(TypedValue::Boolean),
                CustomKind::Date => text
                    .and_then(|t| wcs_core::content::values::parse_datetime(t).ok())
                    .map(|t| TypedValue::Date(t.timestamp())),
                CustomKind::Text | CustomKind::Keyword => None,
            };
            if let Some(typed) = typed {
                out.push((name.clone(), typed));
            }
        }
    }
    out
}

/// The values of the custom fields of one kind that `object` has: strings, lists of strings,
/// numbers and booleans as text, rich text without markup.
fn custom_values(object: &ContentObject, custom: &CustomFields, kind: CustomKind) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, _) in custom.iter().filter(|(_, k)| **k == kind) {
        let Some(value) = object.fields.get(name) else { continue };
        let items: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            single => vec![single],
        };
        for item in items {
            let text = match item {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Object(map) => match map.get("data").and_then(Value::as_str) {
                    Some(html) => markup_text(html),
                    None => continue,
                },
                Value::Null | Value::Array(_) => continue,
            };
            out.push((name.clone(), text));
        }
    }
    out
}

/// The words of an object: title, description, its text fields (rich text without markup).
fn append_text(app: &App, object: &ContentObject, out: &mut String) {
    for part in [object.title.as_str(), object.description.as_str()] {
        out.push_str(part);
        out.push('\n');
    }
    let Some(profile) = app.types.get(&object.portal_type) else { return };
    for field in &profile.fields {
        let Some(value) = object.fields.get(&field.name) else { continue };
        match field.kind {
            FieldKind::TextLine | FieldKind::Text => {
                if let Some(text) = value.as_str() {
                    out.push_str(text);
                }
            }
            FieldKind::RichText => {
                if let Some(html) = value.get("data").and_then(Value::as_str) {
                    out.push_str(&markup_text(html));
                }
            }
            FieldKind::Blocks => volto_text(value, out),
            FieldKind::List => {
                for item in value.as_array().into_iter().flatten().filter_map(Value::as_str) {
                    out.push_str(item);
                    out.push(' ');
                }
            }
            _ => continue,
        }
        out.push('\n');
    }
}

/// The words of Volto blocks: every `plaintext` (slate) and string `text` (draft.js, captions)
/// in them, walked without recursion.
fn volto_text(blocks: &Value, out: &mut String) {
    let mut stack = vec![blocks];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    match (key.as_str(), inner) {
                        ("plaintext" | "text", Value::String(text)) => {
                            out.push_str(text);
                            out.push('\n');
                        }
                        _ => stack.push(inner),
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
}

/// The text of (sanitised, stored) markup: tags become spaces, the common entities their
/// characters.
pub fn markup_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    for (entity, character) in
        [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")]
    {
        if out.contains(entity) {
            out = out.replace(entity, character);
        }
    }
    out
}

/// The index documents of the searchable objects in `objects` (a subtree, parents first):
/// each with the words of its blocks and their contents, and with who may see it. `only`
/// restricts the documents to those paths (the parts are still gathered from everything).
pub fn index_docs(
    app: &App,
    objects: &[ContentObject],
    allowed: &mut HashMap<String, Vec<String>>,
    only: Option<&[String]>,
    custom: &CustomFields,
) -> Vec<IndexDoc> {
    let parts = parts_by_owner(app, objects);
    objects
        .iter()
        .filter(|o| is_searchable(&app.types, o))
        .filter(|o| only.is_none_or(|paths| paths.contains(&o.path)))
        .map(|o| {
            let own_parts = parts.get(o.path.as_str()).map(Vec::as_slice).unwrap_or_default();
            index_doc(app, o, own_parts, allowed.remove(&o.uid).unwrap_or_default(), custom)
        })
        .collect()
}

/// The blocks (and their contents) among `objects`, by the path of the page they belong to.
pub fn parts_by_owner<'a>(app: &App, objects: &'a [ContentObject]) -> HashMap<&'a str, Vec<&'a ContentObject>> {
    let by_path: HashMap<&str, &ContentObject> = objects.iter().map(|o| (o.path.as_str(), o)).collect();
    let mut parts: HashMap<&str, Vec<&ContentObject>> = HashMap::new();
    for object in objects {
        if let Some(owner) = block_owner(app, object, &by_path) {
            parts.entry(owner).or_default().push(object);
        }
    }
    parts
}

/// The path of the page a block (or something inside a block) belongs to; `None` for
/// anything else.
pub fn block_owner<'a>(
    app: &App,
    object: &'a ContentObject,
    by_path: &HashMap<&str, &'a ContentObject>,
) -> Option<&'a str> {
    let mut current = object;
    let mut inside_block = false;
    loop {
        let is_block = app.types.is_block_type(&current.portal_type);
        if !is_block && inside_block {
            return Some(current.path.as_str());
        }
        inside_block |= is_block;
        let parent_path = current.path.get(..current.path.rfind('/').unwrap_or(0)).unwrap_or_default();
        current = by_path.get(parent_path)?;
        if !inside_block && !app.types.is_block_type(&current.portal_type) {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::markup_text;

    #[test]
    fn markup_becomes_words() {
        assert_eq!(
            markup_text("<p>Alte <b>Häuser</b> &amp; Straßen</p>").split_whitespace().collect::<Vec<_>>(),
            ["Alte", "Häuser", "&", "Straßen"]
        );
    }
}
