//! Plone's catalog metadata columns, computed from the object: what summaries carry by
//! default and what `metadata_fields` (or `_all`) adds, with Plone 6's names and types.

use super::SerializeCtx;
use crate::content::links::resolve_links;
use crate::content::named_vocabularies::METADATA_COLUMNS;
use crate::content::scales::{SCALES, scaled_size};
use crate::content::values::format_time;
use crate::content::{ContentObject, TypeProfile};
use serde_json::{Map, Value, json};

/// The metadata every summary carries (Plone 6's default summary), besides `@id`, `@type`,
/// `title`, `description`, `review_state` and `type_title`.
pub const DEFAULT_METADATA: [&str; 10] = [
    "effective",
    "end",
    "getObjSize",
    "getRemoteUrl",
    "head_title",
    "image_field",
    "image_scales",
    "mime_type",
    "nav_title",
    "start",
];

/// Every metadata column of a Plone 6 catalog, plus `getPath` and `getURL`: what `_all` asks.
pub fn all_metadata() -> impl Iterator<Item = &'static str> {
    METADATA_COLUMNS.iter().map(|(column, _)| *column).chain(["getPath", "getURL"])
}

/// Image fields Plone's `image_field` column names, in the order it prefers them.
const IMAGE_FIELDS: [&str; 2] = ["preview_image", "image"];

/// The value of the metadata column `name` for `object`, whose type is `profile` (looked up
/// once per summary by the caller).
pub fn metadata(ctx: &SerializeCtx<'_>, object: &ContentObject, profile: Option<&TypeProfile>, name: &str) -> Value {
    let folderish = profile.is_some_and(|p| p.folderish);
    let text_field = |key: &str| object.fields.get(key).filter(|v| v.is_string()).cloned().unwrap_or(Value::Null);
    let zope_date = |time: Option<chrono::DateTime<chrono::Utc>>| json!(time.map_or("None".into(), format_time));
    match name {
        "UID" => json!(object.uid),
        "Creator" => json!(object.creator),
        "listCreators" => json!([object.creator]),
        "created" => json!(format_time(object.created)),
        "modified" => json!(format_time(object.modified)),
        "effective" => json!(object.effective.map(format_time)),
        "expires" => json!(object.expires.map(format_time)),
        "CreationDate" => zope_date(Some(object.created)),
        "ModificationDate" => zope_date(Some(object.modified)),
        "EffectiveDate" => zope_date(object.effective),
        "ExpirationDate" => zope_date(object.expires),
        "Date" => zope_date(Some(object.effective.unwrap_or(object.modified))),
        "id" | "getId" => json!(object.id),
        "getPath" => json!(object.path),
        "getURL" => json!(object.url(ctx.base_url)),
        "is_folderish" => json!(folderish),
        "meta_type" => json!(if folderish { "Dexterity Container" } else { "Dexterity Item" }),
        "portal_type" => json!(object.portal_type),
        "Type" => json!(profile.map_or(object.portal_type.as_str(), |p| p.title.as_str())),
        "review_state" => json!(object.review_state),
        "Title" => json!(object.title),
        "Description" => json!(object.description),
        "Subject" => object.fields.get("subjects").cloned().unwrap_or_else(|| json!([])),
        "exclude_from_nav" => object.fields.get("exclude_from_nav").cloned().unwrap_or(json!(false)),
        "nav_title" | "head_title" | "start" | "end" => text_field(name),
        "getRemoteUrl" => match object.fields.get("remoteUrl").and_then(Value::as_str) {
            Some(url) => json!(resolve_links(url, &ctx.site_url(object), |_| None)),
            None => Value::Null,
        },
        "getObjSize" => json!(human_size(primary_blob(profile, object).and_then(|b| b.get("size")?.as_u64()))),
        "mime_type" => primary_blob(profile, object)
            .and_then(|b| b.get("content-type").cloned())
            .unwrap_or_else(|| json!("text/plain")),
        "getIcon" => json!(image_field(object).is_some()),
        "image_field" => json!(image_field(object).unwrap_or_default()),
        "image_scales" => image_scales(object),
        "location" => json!(""),
        "commentators" => json!([]),
        "total_comments" => json!(0),
        "author_name" | "cmf_uid" | "in_response_to" | "last_comment_date" | "sync_uid" => Value::Null,
        other => object
            .fields
            .get(other)
            .filter(|_| !profile.and_then(|p| p.field(other)).is_some_and(|f| f.kind.is_blob()))
            .cloned()
            .unwrap_or(Value::Null),
    }
}

fn primary_blob<'o>(profile: Option<&TypeProfile>, object: &'o ContentObject) -> Option<&'o Value> {
    object.fields.get(&profile?.primary_blob_field()?.name).filter(|v| v.is_object())
}

/// Plone's `getObjSize`: `0 KB`, `1 KB` below a kilobyte, else one decimal in the largest unit.
fn human_size(bytes: Option<u64>) -> String {
    let bytes = bytes.unwrap_or(0);
    if bytes == 0 {
        return "0 KB".into();
    }
    for (unit, size) in [("GB", 1u64 << 30), ("MB", 1 << 20), ("KB", 1 << 10)] {
        if bytes >= size {
            return format!("{:.1} {unit}", bytes as f64 / size as f64);
        }
    }
    "1 KB".into()
}

fn image_field(object: &ContentObject) -> Option<&'static str> {
    IMAGE_FIELDS.into_iter().find(|name| object.fields.get(*name).is_some_and(Value::is_object))
}

/// plone.namedfile's `image_scales`: per image field, the original and its scales, with
/// downloads relative to the object.
fn image_scales(object: &ContentObject) -> Value {
    let mut out = Map::new();
    for name in IMAGE_FIELDS {
        let Some(image) = object.fields.get(name).filter(|v| v.is_object()) else { continue };
        let size = |key: &str| image.get(key).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
        let (width, height) = (size("width").unwrap_or(0), size("height").unwrap_or(0));
        let version = object.modified.timestamp_millis();
        let scales: Map<String, Value> = SCALES
            .iter()
            .map(|(scale, max_width, max_height)| {
                let (w, h) = scaled_size(width, height, (*max_width, *max_height));
                let download = format!("@@images/{name}/{scale}?_t={version}");
                ((*scale).to_owned(), json!({"download": download, "width": w, "height": h}))
            })
            .collect();
        out.insert(
            name.to_owned(),
            json!([{
                "content-type": image.get("content-type").cloned().unwrap_or(Value::Null),
                "download": format!("@@images/{name}?_t={version}"),
                "filename": image.get("filename").cloned().unwrap_or(Value::Null),
                "size": image.get("size").cloned().unwrap_or(json!(0)),
                "width": width,
                "height": height,
                "scales": scales,
            }]),
        );
    }
    if out.is_empty() { Value::Null } else { Value::Object(out) }
}

#[cfg(test)]
mod tests {
    use super::human_size;

    #[test]
    fn sizes_read_as_plone_writes_them() {
        assert_eq!(human_size(None), "0 KB");
        assert_eq!(human_size(Some(10)), "1 KB");
        assert_eq!(human_size(Some(1536)), "1.5 KB");
        assert_eq!(human_size(Some(3 << 20)), "3.0 MB");
    }
}
