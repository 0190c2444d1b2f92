//! The one error schema: every error body of every operation, from the error catalogue.

use serde_json::{Value, json};
use wcs_core::http::ErrorCode;

/// `type` and `code` are enums of the catalogue, so clients can switch on them.
pub fn schema() -> Value {
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.code()).collect();
    let mut types: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.type_name()).collect();
    types.sort_unstable();
    types.dedup();
    json!({
        "type": "object",
        "required": ["type", "message", "code"],
        "properties": {
            "type": {"type": "string", "enum": types, "description": "The plone.restapi exception class"},
            "message": {"type": "string"},
            "code": {"type": "string", "enum": codes, "description": "The stable catalogue entry"},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"field": {"type": "string"}, "message": {"type": "string"}, "error": {"type": "string"}},
                },
            },
            "context": {"type": "string", "description": "The nearest URL the caller may go to instead"},
            "error": {
                "type": "object",
                "description": "plone.restapi's own envelope, sent by the services whose clients read it",
                "properties": {"type": {"type": "string"}, "message": {"type": "string"}},
            },
        },
    })
}
