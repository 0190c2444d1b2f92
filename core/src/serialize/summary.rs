//! Item summaries: the short form used in folder `items`, `parent` and search results.

use super::SerializeCtx;
use crate::content::ContentObject;
use crate::content::values::format_time;
use serde_json::{Map, Value, json};

/// Every metadata column `_all` expands to.
const ALL_METADATA: [&str; 16] = [
    "UID",
    "Creator",
    "created",
    "modified",
    "effective",
    "expires",
    "getId",
    "getPath",
    "getURL",
    "id",
    "is_folderish",
    "portal_type",
    "review_state",
    "Subject",
    "exclude_from_nav",
    "Title",
];

/// The summary of `object`: `@id`, `@type`, `title`, `description`, `review_state`,
/// `type_title`, plus any requested `metadata_fields`.
pub fn summary(ctx: &SerializeCtx<'_>, object: &ContentObject, metadata_fields: &[String]) -> Map<String, Value> {
    let profile = ctx.app.types.get(&object.portal_type);
    let mut out = Map::new();
    out.insert("@id".into(), json!(object.url(ctx.base_url)));
    out.insert("@type".into(), json!(object.portal_type));
    out.insert("type_title".into(), json!(profile.map(|p| p.title.as_str()).unwrap_or(&object.portal_type)));
    out.insert("title".into(), json!(object.title));
    out.insert("description".into(), json!(object.description));
    if object.is_site_root() {
        return out;
    }
    out.insert("review_state".into(), json!(object.review_state));
    let wants_all = metadata_fields.iter().any(|f| f == "_all");
    let names: Vec<&str> =
        if wants_all { ALL_METADATA.to_vec() } else { metadata_fields.iter().map(String::as_str).collect() };
    for name in names {
        if name.starts_with('_') || matches!(name, "getObject" | "getDataOrigin" | "getUserData") {
            continue;
        }
        let value = metadata(ctx, object, name);
        out.insert(name.to_owned(), value);
    }
    out
}

/// The summary of a relation end: always with `UID`, whatever `metadata_fields` asks, so
/// clients can tell objects with equal titles apart.
pub fn relation_summary(ctx: &SerializeCtx<'_>, object: &ContentObject) -> Map<String, Value> {
    let mut out = summary(ctx, object, &ctx.options.metadata_fields);
    out.insert("UID".into(), json!(object.uid));
    out
}

fn metadata(ctx: &SerializeCtx<'_>, object: &ContentObject, name: &str) -> Value {
    let is_folderish = || ctx.app.types.get(&object.portal_type).is_some_and(|p| p.folderish);
    match name {
        "UID" => json!(object.uid),
        "Creator" => json!(object.creator),
        "created" => json!(format_time(object.created)),
        "modified" => json!(format_time(object.modified)),
        "effective" => json!(object.effective.map(format_time)),
        "expires" => json!(object.expires.map(format_time)),
        "id" | "getId" => json!(object.id),
        "getPath" => json!(object.path),
        "getURL" => json!(object.url(ctx.base_url)),
        "is_folderish" => json!(is_folderish()),
        "portal_type" => json!(object.portal_type),
        "review_state" => json!(object.review_state),
        "Title" => json!(object.title),
        "Description" => json!(object.description),
        "Subject" => object.fields.get("subjects").cloned().unwrap_or_else(|| json!([])),
        "exclude_from_nav" => object.fields.get("exclude_from_nav").cloned().unwrap_or(json!(false)),
        other => {
            object.fields.get(other).filter(|_| !is_blob_field(ctx, object, other)).cloned().unwrap_or(Value::Null)
        }
    }
}

/// Blob metadata carries a hash; summaries never expose it raw.
fn is_blob_field(ctx: &SerializeCtx<'_>, object: &ContentObject, name: &str) -> bool {
    ctx.app.types.get(&object.portal_type).and_then(|p| p.field(name)).is_some_and(|f| f.kind.is_blob())
}
