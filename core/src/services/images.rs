//! `GET <obj>/@@images/<field>[/<scale>]`: an image field, or one of its named scales
//! (`thumb`, `preview`, `large`…). A scale is rendered on first request and cached in the
//! database, tied to the original's hash, so every instance shares it and a replaced image
//! never serves a stale scale.

use crate::content::FieldKind;
use crate::content::scales::{render_scale, scale_box};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, Raw, RawMeta, media_response};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::store::{BlobRange, StoredScale};
use poem::http::{Method, StatusCode};
use poem::{Body, Response};
use poem_openapi::registry::{MetaResponses, MetaSchema};

/// Sends an image or one of its scales.
pub static IMAGES: Service = Service {
    method: Method::GET,
    name: "@@images",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("{field}", "An image field as stored", endpoint!(images)),
        Route::new(
            "{field}/{scale}",
            "A named scale of an image field (listing, icon, tile, thumb, mini, preview, teaser, large, larger, \
             great, huge), rendered on first request",
            endpoint!(images),
        ),
    ],
};

/// An image's bytes, as stored or scaled.
pub struct ImageMeta;

impl RawMeta for ImageMeta {
    fn meta() -> MetaResponses {
        let image = Some(("image/*", MetaSchema::new_with_format("string", "binary")));
        MetaResponses { responses: vec![media_response(200, "The image, with its own Content-Type", image)] }
    }
}

async fn images(ctx: Ctx) -> ApiResult<Raw<ImageMeta>> {
    image(&ctx).await.map(Raw::new)
}

async fn image(ctx: &Ctx) -> ApiResult<Response> {
    let not_found = || ApiError::not_found(&ctx.request.service_url);
    let field = ctx.profile.field(ctx.param("field")).filter(|f| f.kind == FieldKind::Image).ok_or_else(not_found)?;
    let meta = ctx.app.store.blob_meta(&ctx.context.uid, &field.name).await?.ok_or_else(not_found)?;
    let scale = match ctx.param("scale") {
        "" => None,
        name => Some((name, scale_box(name).ok_or_else(not_found)?)),
    };
    let Some((scale_name, bounds)) = scale.filter(|_| meta.content_type != "image/svg+xml") else {
        let whole = BlobRange { offset: 0, length: meta.size };
        let data = ctx.app.store.blob_bytes(&ctx.context.uid, &field.name, whole).await?;
        return Ok(image_response(meta.content_type, &meta.sha256, data));
    };
    if let Some(cached) = ctx.app.store.image_scale(&ctx.context.uid, &field.name, scale_name).await?
        && cached.source_sha256 == meta.sha256
    {
        return Ok(image_response(cached.content_type, &meta.sha256, cached.data));
    }
    let whole = BlobRange { offset: 0, length: meta.size };
    let original = ctx.app.store.blob_bytes(&ctx.context.uid, &field.name, whole).await?;
    let rendered = tokio::task::spawn_blocking(move || render_scale(&original, bounds))
        .await
        .map_err(ApiError::internal)?
        .map_err(|reason| {
            tracing::warn!(uid = %ctx.context.uid, field = %field.name, %reason, "image scale failed");
            not_found()
        })?;
    let stored = StoredScale {
        source_sha256: meta.sha256.clone(),
        content_type: rendered.content_type.into(),
        data: rendered.data,
    };
    let mut tx = ctx.app.store.begin().await?;
    tx.put_image_scale(&ctx.context.uid, &field.name, scale_name, &stored, (rendered.width, rendered.height)).await?;
    tx.commit().await?;
    Ok(image_response(stored.content_type, &meta.sha256, stored.data))
}

/// An image answer: its bytes, type and hash as ETag, never sniffed as anything else.
pub(crate) fn image_response(content_type: String, sha256: &str, data: Vec<u8>) -> Response {
    let mut builder = Response::builder()
        .status(StatusCode::OK)
        .content_type(content_type.as_str())
        .header("Content-Length", data.len().to_string())
        .header("ETag", format!("\"{sha256}\""))
        .header("X-Content-Type-Options", "nosniff");
    if content_type == "image/svg+xml" {
        builder = builder.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    }
    builder.body(Body::from_vec(data))
}
