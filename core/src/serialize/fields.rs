//! Core's field serializers: rich text, links, relations, files and images.

use super::{FieldSerializer, SerializeCtx, serialize_content};
use crate::api::PATH_SEGMENT;
use crate::content::ContentKind;
use crate::content::language::{self, LANGUAGE_WIDGET};
use crate::content::links::resolve_links;
use crate::content::markup::stored_for_output;
use crate::content::scales::{SCALES, scaled_size};
use crate::content::volto_blocks;
use crate::content::{ContentObject, FieldDef, FieldKind};
use crate::error::ApiResult;
use crate::ops::{LINK_WIDGET, stored_targets};
use serde_json::{Value, json};

/// Rich text was sanitised when it was stored; what readers get drops custom element tags
/// (only where there are any), and internal `resolveuid` links become absolute URLs.
pub static RICH_TEXT_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::RichText,
    kind: ContentKind::Any,
    widget: None,
    serialize: |ctx, object, _, value| {
        Box::pin(async move {
            let data = value.get("data").and_then(Value::as_str).unwrap_or_default();
            let resolved = resolve_internal_links(ctx, object, &stored_for_output(data));
            Ok(json!({"data": resolved, "content-type": "text/html", "encoding": "utf-8"}))
        })
    },
};

/// A text line with the link widget: internal links become absolute URLs.
pub static LINK_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::TextLine,
    kind: ContentKind::Any,
    widget: Some(LINK_WIDGET),
    serialize: |ctx, object, _, value| Box::pin(async move { Ok(link_value(ctx, object, value)) }),
};

/// A URL field with the link widget (the Link type's `remoteUrl`): as [`LINK_FIELD`].
pub static URI_LINK_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::URI,
    kind: ContentKind::Any,
    widget: Some(LINK_WIDGET),
    serialize: |ctx, object, _, value| Box::pin(async move { Ok(link_value(ctx, object, value)) }),
};

/// The language field: its code as the vocabulary's term, `{title, token}`.
pub static LANGUAGE_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::TextLine,
    kind: ContentKind::Any,
    widget: Some(LANGUAGE_WIDGET),
    serialize: |_, _, _, value| Box::pin(async move { Ok(language::term(value.as_str().unwrap_or_default())) }),
};

/// Volto blocks: the internal links inside them become absolute URLs, as in rich text.
pub static BLOCKS_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::Blocks,
    kind: ContentKind::Any,
    widget: None,
    serialize: |ctx, object, _, value| {
        Box::pin(async move {
            let mut blocks = value.clone();
            volto_blocks::rewrite_link_values(&mut blocks, &mut |link| {
                link.contains("resolveuid/").then(|| resolve_internal_links(ctx, object, link))
            });
            Ok(blocks)
        })
    },
};

fn link_value(ctx: &SerializeCtx<'_>, object: &ContentObject, value: &Value) -> Value {
    match value.as_str() {
        Some(text) => json!(resolve_internal_links(ctx, object, text)),
        None => value.clone(),
    }
}

fn resolve_internal_links(ctx: &SerializeCtx<'_>, object: &ContentObject, text: &str) -> String {
    resolve_links(text, &ctx.site_url(object), |uid| ctx.references.get(uid).map(|o| o.url(ctx.base_url)))
}

/// One related object: its summary (with `UID`), the full object with `fullobjects`, or `null`
/// when it is gone, in the trash or hidden from the caller.
pub static RELATION_CHOICE_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::RelationChoice,
    kind: ContentKind::Any,
    widget: None,
    serialize: |ctx, _, _, value| {
        Box::pin(async move {
            match stored_targets(value).first() {
                Some(uid) => related(ctx, uid).await,
                None => Ok(Value::Null),
            }
        })
    },
};

/// Related objects, in order, without the ones that would serialize to `null`.
pub static RELATION_LIST_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::RelationList,
    kind: ContentKind::Any,
    widget: None,
    serialize: |ctx, _, _, value| {
        Box::pin(async move {
            let mut items = Vec::new();
            for uid in stored_targets(value) {
                let item = related(ctx, &uid).await?;
                if !item.is_null() {
                    items.push(item);
                }
            }
            Ok(Value::Array(items))
        })
    },
};

async fn related(ctx: &SerializeCtx<'_>, uid: &str) -> ApiResult<Value> {
    let Some(target) = ctx.references.get(uid) else {
        return Ok(Value::Null);
    };
    if ctx.options.fullobjects {
        let nested_options = ctx.options.for_nested_item();
        let nested = SerializeCtx { options: &nested_options, ..*ctx };
        return Ok(Value::Object(Box::pin(serialize_content(&nested, target, None)).await?.into_map()));
    }
    Ok(Value::Object(super::relation_summary(ctx, target)))
}

/// A file: `{content-type, download, filename, size}`, as plone.restapi serializes it.
pub static FILE_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::File,
    kind: ContentKind::Any,
    widget: None,
    serialize: |ctx, object, field, value| Box::pin(async move { Ok(blob_value(ctx, object, field, value)) }),
};

/// An image: the file keys plus `width`, `height` and `scales` (each with `download`,
/// `width`, `height`), computed from the original's size; scales render on first request.
pub static IMAGE_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::Image,
    kind: ContentKind::Any,
    widget: None,
    serialize: |ctx, object, field, value| {
        Box::pin(async move {
            let mut out = blob_value(ctx, object, field, value);
            let size = |key: &str| value.get(key).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
            out["width"] = value.get("width").cloned().unwrap_or(Value::Null);
            out["height"] = value.get("height").cloned().unwrap_or(Value::Null);
            let mut scales = serde_json::Map::new();
            if let (Some(width), Some(height)) = (size("width"), size("height")) {
                let base = image_url(&object.url(ctx.base_url), object, &field.name);
                for (name, max_width, max_height) in SCALES {
                    let (w, h) = scaled_size(width, height, (max_width, max_height));
                    let download = base.replacen("?_t=", &format!("/{name}?_t="), 1);
                    scales.insert(name.into(), json!({"download": download, "width": w, "height": h}));
                }
            }
            out["scales"] = Value::Object(scales);
            Ok(out)
        })
    },
};

/// `<object_url>/@@images/<field>?_t=<modified, ms>`; a scale name goes before the `?`.
pub fn image_url(object_url: &str, object: &ContentObject, field: &str) -> String {
    format!("{object_url}/@@images/{field}?_t={}", object.modified.timestamp_millis())
}

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
