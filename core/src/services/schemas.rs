//! JSON Schemas of request and response bodies, for the OpenAPI document.

use serde_json::{Value, json};

/// A content object as GET returns it (open: fields vary by type).
pub fn content() -> Value {
    json!({
        "type": "object",
        "required": ["@id", "@type", "UID", "id", "title"],
        "properties": {
            "@id": {"type": "string", "format": "uri"},
            "@type": {"type": "string"},
            "@components": {"type": "object"},
            "UID": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
            "id": {"type": "string"},
            "title": {"type": "string"},
            "description": {"type": "string"},
            "review_state": {"type": ["string", "null"]},
            "is_folderish": {"type": "boolean"},
            "items": {"type": "array", "items": summary()},
            "items_total": {"type": "integer"},
            "batching": batching(),
        },
        "additionalProperties": true,
    })
}

/// An item summary.
pub fn summary() -> Value {
    json!({
        "type": "object",
        "required": ["@id", "@type", "title"],
        "properties": {
            "@id": {"type": "string", "format": "uri"},
            "@type": {"type": "string"},
            "title": {"type": "string"},
            "description": {"type": "string"},
            "review_state": {"type": ["string", "null"]},
            "type_title": {"type": "string"},
        },
        "additionalProperties": true,
    })
}

fn batching() -> Value {
    json!({
        "type": "object",
        "properties": {
            "@id": {"type": "string"}, "first": {"type": "string"}, "last": {"type": "string"},
            "next": {"type": "string"}, "prev": {"type": "string"},
        },
    })
}

/// A create, update or replace body: `@type` plus field values.
pub fn content_write() -> Value {
    json!({
        "type": "object",
        "properties": {
            "@type": {"type": "string"},
            "id": {"type": "string", "maxLength": crate::content::ids::MAX_ID_LENGTH},
            "title": {"type": "string"},
            "ordering": {
                "type": "object",
                "properties": {
                    "obj_id": {"type": "string"},
                    "delta": {"oneOf": [{"type": "integer"}, {"enum": ["top", "bottom"]}]},
                    "subset_ids": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["obj_id", "delta"],
            },
        },
        "additionalProperties": true,
    })
}

/// The body of `@move` and `@copy`.
pub fn move_copy_request() -> Value {
    let source = json!({"type": "string", "description": "URL, path or UID"});
    json!({
        "type": "object",
        "required": ["source"],
        "properties": {"source": {"oneOf": [source, {"type": "array", "items": source}]}},
    })
}

/// The answer of `@move` and `@copy`.
pub fn move_copy_response() -> Value {
    json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"source": {"type": "string"}, "target": {"type": "string"}},
        },
    })
}

/// The `@types` list.
pub fn types_list() -> Value {
    json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "@id": {"type": "string"}, "id": {"type": "string"}, "title": {"type": "string"},
                "addable": {"type": "boolean"}, "immediately_addable": {"type": "boolean"},
            },
        },
    })
}
