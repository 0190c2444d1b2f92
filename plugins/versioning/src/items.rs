//! The version item and version list shapes of the REST API.

use crate::tables::VersionInfo;
use serde_json::{Value, json};
use wcs_core::app::App;
use wcs_core::content::ContentObject;
use wcs_core::content::values::format_time;
use wcs_core::http::ApiResult;

/// One version as clients see it. `may_change` is whether the caller holds Create versions,
/// which both restoring and deleting need.
pub fn version_item(object_url: &str, info: &VersionInfo, may_change: bool) -> Value {
    json!({
        "@id": format!("{object_url}/@versions/{}", info.seq),
        "id": info.seq.to_string(),
        "title": info.title,
        "created": format_time(info.created),
        "creator": {"id": info.creator, "fullname": info.creator_fullname},
        "comment": info.comment,
        "can_restore": may_change,
        "can_delete": may_change,
    })
}

/// `GET @versions`: every kept version, newest first, not batched.
pub async fn version_list(app: &App, object: &ContentObject, object_url: &str, may_change: bool) -> ApiResult<Value> {
    let versions = crate::tables::versions(&app.store, &object.uid).await?;
    let items: Vec<Value> = versions.iter().map(|v| version_item(object_url, v, may_change)).collect();
    Ok(json!({
        "@id": format!("{object_url}/@versions"),
        "can_create": may_change,
        "items_total": items.len(),
        "items": items,
    }))
}

/// JSON Schema of a version item, for the OpenAPI document.
pub fn item_schema() -> Value {
    json!({
        "type": "object",
        "required": ["@id", "id", "title", "created", "creator", "comment", "can_restore", "can_delete"],
        "properties": {
            "@id": {"type": "string", "format": "uri"},
            "id": {"type": "string"},
            "title": {"type": "string"},
            "created": {"type": "string", "format": "date-time"},
            "creator": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "fullname": {"type": "string"}},
            },
            "comment": {"type": "string"},
            "can_restore": {"type": "boolean"},
            "can_delete": {"type": "boolean"},
        },
    })
}

/// JSON Schema of the version list.
pub fn list_schema() -> Value {
    json!({
        "type": "object",
        "required": ["@id", "can_create", "items", "items_total"],
        "properties": {
            "@id": {"type": "string", "format": "uri"},
            "can_create": {"type": "boolean"},
            "items": {"type": "array", "items": item_schema()},
            "items_total": {"type": "integer"},
        },
    })
}
