//! Core's field serializers: rich text, files and images.

use super::{FieldSerializer, SerializeCtx, sanitize_html};
use crate::content::{ContentObject, FieldDef, FieldKind};
use crate::http::PATH_SEGMENT;
use serde_json::{Value, json};

/// Rich text is sanitised again before it is sent, whatever wrote it.
pub static RICH_TEXT_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::RichText,
    widget: None,
    serialize: |_, _, _, value| {
        let data = value.get("data").and_then(Value::as_str).unwrap_or_default();
        json!({"data": sanitize_html(data), "content-type": "text/html", "encoding": "utf-8"})
    },
};

/// A file: `{@type, content-type, download, filename, size}`.
pub static FILE_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::File,
    widget: None,
    serialize: |ctx, object, field, value| {
        let mut out = blob_value(ctx, object, field, value);
        out["@type"] = json!("File");
        out
    },
};

/// An image: the file keys plus `width`, `height` and (empty) `scales`.
pub static IMAGE_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::Image,
    widget: None,
    serialize: |ctx, object, field, value| {
        let mut out = blob_value(ctx, object, field, value);
        out["width"] = value.get("width").cloned().unwrap_or(Value::Null);
        out["height"] = value.get("height").cloned().unwrap_or(Value::Null);
        out["scales"] = json!({});
        out
    },
};

fn blob_value(ctx: &SerializeCtx<'_>, object: &ContentObject, field: &FieldDef, value: &Value) -> Value {
    let filename = value.get("filename").and_then(Value::as_str).unwrap_or_default();
    json!({
        "content-type": value.get("content-type").cloned().unwrap_or(Value::Null),
        "download": download_url(&object.url(ctx.base_url), object, &field.name, filename),
        "filename": filename,
        "size": value.get("size").cloned().unwrap_or(json!(0)),
    })
}

/// `<object_url>/@@download/<field>/<url-encoded filename>?_t=<modified, ms>`.
pub fn download_url(object_url: &str, object: &ContentObject, field: &str, filename: &str) -> String {
    let encoded = percent_encoding::utf8_percent_encode(filename, PATH_SEGMENT);
    format!("{object_url}/@@download/{field}/{encoded}?_t={}", object.modified.timestamp_millis())
}
