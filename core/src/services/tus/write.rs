//! `PATCH <context>/@tus-upload/<id>`: the next chunk of an upload, at `Upload-Offset` (where
//! the bytes so far end). 204 with the new offset; with the last chunk the object is created
//! (or its file replaced) through the ordinary write path, and `Location` names it.

use super::headers::{check_version, documented, documented_response, number};
use super::start::create_body;
use super::status::own_upload;
use super::uploads::{Mode, Upload, Uploads};
use crate::content::ContentObject;
use crate::content::values::file_change;
use crate::endpoint;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::http::tus::TUS_VERSION;
use crate::http::{Ctx, Raw, RawMeta};
use crate::ops::{self, OnConflict, SideFile, WriteOrigin};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use poem_openapi::registry::MetaResponses;

/// The media type of a chunk.
const CHUNK: &str = "application/offset+octet-stream";

/// Receives chunks.
pub static TUS_WRITE: Service = Service {
    method: Method::PATCH,
    name: "@tus-upload",
    kind: ContentKind::Any,
    guard: Guard::AnyOf(&[Permission::ADD_PORTAL_CONTENT, Permission::MODIFY_PORTAL_CONTENT]),
    csrf: Csrf::Cookie,
    routes: &[Route {
        body_required: false,
        other_media: &[CHUNK],
        ..Route::new(
            "{upload_id}",
            "The next chunk of an upload (Upload-Offset; the body is the bytes)",
            endpoint!(write),
        )
    }],
};

/// 204 with the new offset.
pub struct ChunkWritten;

impl RawMeta for ChunkWritten {
    fn meta() -> MetaResponses {
        let headers =
            vec![documented("Upload-Offset", "The bytes received so far"), documented("Tus-Resumable", "1.0.0")];
        let mut response =
            documented_response(204, "Stored; after the last chunk `Location` names the object", headers);
        response.headers.push(poem_openapi::registry::MetaHeader {
            required: false,
            ..documented("Location", "After the last chunk: the object created or changed")
        });
        MetaResponses { responses: vec![response] }
    }
}

async fn write(mut ctx: Ctx) -> ApiResult<Raw<ChunkWritten>> {
    check_version(&ctx)?;
    let uploads = Uploads::new(ctx.app.settings.data_dir.as_deref());
    let id = ctx.param("upload_id").to_owned();
    let (upload, _) = own_upload(&ctx, &uploads).await?;
    let media = ctx.request.header("content-type").map(|t| t.split(';').next().unwrap_or_default().trim());
    if media != Some(CHUNK) {
        return Err(ApiError::new(ErrorCode::UnsupportedMediaType, format!("A chunk is sent as {CHUNK}.")));
    }
    let offset = number(&ctx, "Upload-Offset")?;
    let end = uploads.append(&id, offset, std::mem::take(&mut ctx.body), upload.length).await?;
    let mut response = Response::builder()
        .status(StatusCode::NO_CONTENT)
        .header("Tus-Resumable", TUS_VERSION)
        .header("Upload-Offset", end.to_string());
    if end < upload.length {
        response = response.header("Upload-Expires", uploads.expires(&id));
        return Ok(Raw::new(response.finish()));
    }
    let data = uploads.bytes(&id).await?;
    let made = finish(&ctx, &upload, data).await;
    // Whether it worked or was refused (the file is no image, the type no longer fits), the
    // bytes cannot become anything else: the upload is done.
    uploads.remove(&id).await;
    let object = made?;
    Ok(Raw::new(response.header("Location", ctx.url_of(&object)).finish()))
}

/// Makes what the upload is for, as the caller.
async fn finish(ctx: &Ctx, upload: &Upload, data: Vec<u8>) -> ApiResult<ContentObject> {
    let visibility = ctx.visibility();
    let origin = WriteOrigin { base_url: &ctx.request.base_url, visibility: &visibility };
    match upload.mode {
        Mode::Create => {
            let file = SideFile {
                field: upload.field.clone(),
                filename: upload.filename.clone(),
                content_type: upload.content_type.clone(),
                data,
            };
            let body = create_body(upload);
            ops::create_with_file(&ctx.app, &ctx.context, &body, Some(file), ctx.principal.actor(), false, &origin)
                .await
        }
        Mode::Replace => {
            crate::services::lock::check_edit_lock(ctx).await?;
            let changes = file_change(
                &ctx.profile,
                upload.field.as_deref(),
                data,
                upload.filename.clone(),
                upload.content_type.as_deref(),
            )?;
            let updated = ops::update(&ctx.app, &ctx.context, &changes, None, OnConflict::Reapply).await?;
            Ok((*updated).clone())
        }
    }
}
