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

/// `{"@id": url}`: where a created resource lives.
pub fn at_id() -> Value {
    json!({"type": "object", "required": ["@id"], "properties": {"@id": {"type": "string", "format": "uri"}}})
}

/// The working copy / baseline pair of `@workingcopy` and content serializations.
pub fn working_copy() -> Value {
    json!({
        "type": "object",
        "required": ["working_copy", "working_copy_of"],
        "properties": {
            "working_copy": {
                "type": ["object", "null"],
                "properties": {
                    "@id": {"type": "string", "format": "uri"},
                    "title": {"type": "string"},
                    "created": {"type": "string", "format": "date-time"},
                    "creator_name": {"type": "string"},
                    "creator_url": {"type": "string", "format": "uri"},
                },
            },
            "working_copy_of": {
                "type": ["object", "null"],
                "properties": {"@id": {"type": "string", "format": "uri"}, "title": {"type": "string"}},
            },
        },
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

/// A workflow history entry.
pub fn history_entry() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": {"type": ["string", "null"]}, "actor": {"type": "string"},
            "comment": {"type": "string"}, "comments": {"type": "string"},
            "review_state": {"type": "string"}, "time": {"type": "string", "format": "date-time"},
            "title": {"type": "string"},
        },
    })
}

/// `GET @workflow`.
pub fn workflow() -> Value {
    json!({
        "type": "object",
        "properties": {
            "@id": {"type": "string"},
            "state": {"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}}},
            "transitions": {"type": "array", "items": {"type": "object", "properties": {"@id": {"type": "string"}, "title": {"type": "string"}}}},
            "history": {"type": "array", "items": history_entry()},
        },
    })
}

/// The optional body of a transition.
pub fn transition_request() -> Value {
    json!({
        "type": "object",
        "properties": {
            "comment": {"type": "string"},
            "effective": {"type": "string", "format": "date-time"},
            "expires": {"type": "string", "format": "date-time"},
            "include_children": {"type": "boolean"},
        },
    })
}

/// A body with an optional comment.
pub fn comment_request() -> Value {
    json!({"type": "object", "properties": {"comment": {"type": ["string", "null"]}}})
}

/// `POST @login`.
pub fn login_request() -> Value {
    json!({"type": "object", "required": ["login", "password"], "properties": {"login": {"type": "string"}, "password": {"type": "string"}}})
}

/// `{token}`.
pub fn token() -> Value {
    json!({"type": "object", "properties": {"token": {"type": "string"}}})
}

/// A batched result list.
pub fn search_results() -> Value {
    json!({
        "type": "object",
        "properties": {
            "@id": {"type": "string"},
            "items": {"type": "array", "items": summary()},
            "items_total": {"type": "integer"},
            "batching": batching(),
        },
    })
}

/// `@relations`: entries from and back to the sources.
pub fn relations() -> Value {
    let end = json!({"oneOf": [summary(), {"type": "null"}]});
    let entry = json!({
        "type": "object",
        "required": ["source", "target"],
        "properties": {"relationship": {"type": "string"}, "source": summary(), "target": end},
    });
    json!({
        "type": "object",
        "properties": {
            "@id": {"type": "string"},
            "relatedItems": {"type": "array", "items": entry},
            "backRelatedItems": {"type": "array", "items": entry},
        },
    })
}
