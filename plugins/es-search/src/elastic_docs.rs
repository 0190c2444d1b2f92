//! The Elasticsearch index of a site: the mapping (the embedded index's fields under the same
//! names, text with the analyzer of its language: `german` for `Title`, `Description` and
//! `SearchableText`, `french`, `italian` and `english` for their `_fr`, `_it` and `_en`
//! copies; dates in epoch seconds) and the documents, one per searchable object, `_id` its uid.

use crate::dsl::{CustomFields, CustomKind};
use crate::engine::{IndexDoc, TypedValue};
use crate::text_languages::{LOCALIZED_FIELDS, TextLanguage};
use serde_json::{Map, Value, json};

/// The settings and mapping the index is created with.
pub fn index_body(custom: &CustomFields) -> Value {
    let keyword = json!({"type": "keyword"});
    let date = json!({"type": "date", "format": "epoch_second||strict_date_optional_time"});
    let mut properties = Map::new();
    for name in ["UID", "path", "getPath", "portal_type", "review_state", "Subject", "allowedRolesAndUsers"] {
        properties.insert(name.into(), keyword.clone());
    }
    for language in TextLanguage::ALL {
        for name in LOCALIZED_FIELDS {
            let analysed = json!({"type": "text", "analyzer": language.elasticsearch_analyzer()});
            properties.insert(language.field_name(name), analysed);
        }
    }
    properties.insert("Language".into(), keyword.clone());
    for name in ["created", "modified", "effective", "expires"] {
        properties.insert(name.into(), date.clone());
    }
    // The lower-case names the embedded engine also answers to.
    properties.insert("title".into(), json!({"type": "alias", "path": "Title"}));
    properties.insert("description".into(), json!({"type": "alias", "path": "Description"}));
    properties.extend(custom_properties(custom));
    json!({
        "settings": {"index": {"max_result_window": 10_000}},
        "mappings": {"dynamic": false, "properties": properties},
    })
}

/// The mapping of the custom fields (`wcs.backend.search.custom_fields`).
pub fn custom_properties(custom: &CustomFields) -> Map<String, Value> {
    custom
        .iter()
        .map(|(name, kind)| {
            let mapping = match kind {
                CustomKind::Text => json!({"type": "text", "analyzer": "german"}),
                CustomKind::Keyword => json!({"type": "keyword"}),
                CustomKind::Integer => json!({"type": "long"}),
                CustomKind::Float => json!({"type": "double"}),
                CustomKind::Boolean => json!({"type": "boolean"}),
                CustomKind::Date => json!({"type": "date", "format": "epoch_second||strict_date_optional_time"}),
            };
            (name.clone(), mapping)
        })
        .collect()
}

/// An object's document. Objects without an effective or expiry date leave the field out (the
/// embedded index keeps the earliest and latest times instead).
pub fn document(doc: &IndexDoc) -> Value {
    let mut body = json!({
        "UID": doc.uid,
        "path": doc.paths,
        "getPath": doc.paths.first(),
        "portal_type": doc.portal_type,
        "review_state": doc.review_state,
        "Language": doc.language,
        "Subject": doc.subjects,
        "allowedRolesAndUsers": doc.allowed,
        "created": doc.created,
        "modified": doc.modified,
    });
    let language = TextLanguage::of(&doc.language);
    for (field, value) in LOCALIZED_FIELDS.iter().zip([&doc.title, &doc.description, &doc.searchable_text]) {
        body[language.field_name(field)] = json!(value);
    }
    if doc.effective != i64::MIN {
        body["effective"] = json!(doc.effective);
    }
    if doc.expires != i64::MAX {
        body["expires"] = json!(doc.expires);
    }
    let mut custom: Map<String, Value> = Map::new();
    let mut add = |name: &str, value: Value| match custom.get_mut(name) {
        Some(Value::Array(values)) => values.push(value),
        Some(one) => *one = json!([one.take(), value]),
        None => {
            custom.insert(name.to_owned(), value);
        }
    };
    for (name, text) in doc.custom_text.iter().chain(&doc.custom_keyword) {
        add(name, json!(text));
    }
    for (name, value) in &doc.custom_typed {
        add(
            name,
            match value {
                TypedValue::Integer(n) => json!(n),
                TypedValue::Float(x) => json!(x),
                TypedValue::Boolean(b) => json!(b),
                TypedValue::Date(seconds) => json!(seconds),
            },
        );
    }
    if let Some(object) = body.as_object_mut() {
        object.extend(custom);
    }
    body
}

/// A hit's `_source` in the shape the embedded engine gives raw queries: the object's own
/// path, title, description, text, uid, type, state and custom fields; the filter fields stay
/// inside.
pub fn raw_source(stored: &Value, custom: &CustomFields) -> Map<String, Value> {
    let text = |name: &str| stored.get(name).cloned().unwrap_or_else(|| json!(""));
    let mut source = Map::new();
    source.insert("path".into(), text("getPath"));
    source.insert("title".into(), text("Title"));
    source.insert("Description".into(), text("Description"));
    source.insert("SearchableText".into(), text("SearchableText"));
    for name in custom.keys() {
        if let Some(value) = stored.get(name) {
            source.insert(name.clone(), value.clone());
        }
    }
    for name in ["UID", "portal_type", "review_state"] {
        source.insert(name.into(), text(name));
    }
    source
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_leave_out_missing_dates_and_group_custom_values() {
        let doc = IndexDoc {
            uid: "u".into(),
            paths: vec!["/P/a".into(), "/P".into()],
            effective: i64::MIN,
            expires: 99,
            custom_keyword: vec![("tag".into(), "x".into()), ("tag".into(), "y".into())],
            custom_typed: vec![("price".into(), TypedValue::Float(2.5))],
            ..IndexDoc::default()
        };
        let body = document(&doc);
        assert_eq!(body["getPath"], "/P/a");
        assert!(body.get("effective").is_none());
        assert_eq!(body["expires"], 99);
        assert_eq!(body["tag"], json!(["x", "y"]));
        assert_eq!(body["price"], 2.5);
        let custom: CustomFields = [("price".to_owned(), CustomKind::Float)].into_iter().collect();
        assert_eq!(index_body(&custom)["mappings"]["properties"]["price"]["type"], "double");
        assert_eq!(raw_source(&body, &custom)["path"], "/P/a");
    }
}
