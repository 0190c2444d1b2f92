//! `HEAD <context>/@tus-upload/<id>` (also GET): how far an upload got, to resume it after a
//! broken connection: `Upload-Offset` of `Upload-Length`.

use super::headers::{check_version, documented, documented_response};
use super::start::started_on;
use super::uploads::{Mode, Upload, Uploads};
use crate::endpoint;
use crate::error::{ApiError, ApiResult};
use crate::http::tus::TUS_VERSION;
use crate::http::{Ctx, Raw, RawMeta};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use poem_openapi::registry::MetaResponses;

/// Where an upload stands.
pub static TUS_STATUS: Service = Service {
    method: Method::GET,
    name: "@tus-upload",
    kind: ContentKind::Any,
    guard: Guard::AnyOf(&[Permission::ADD_PORTAL_CONTENT, Permission::MODIFY_PORTAL_CONTENT]),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "{upload_id}",
        "How far an upload got (HEAD): Upload-Offset of Upload-Length",
        endpoint!(status),
    )],
};

/// 200 with the offset.
pub struct UploadStatus;

impl RawMeta for UploadStatus {
    fn meta() -> MetaResponses {
        let headers = vec![
            documented("Upload-Offset", "The bytes received"),
            documented("Upload-Length", "The bytes announced"),
            documented("Tus-Resumable", "1.0.0"),
        ];
        MetaResponses { responses: vec![documented_response(200, "Where the upload stands", headers)] }
    }
}

async fn status(ctx: Ctx) -> ApiResult<Raw<UploadStatus>> {
    check_version(&ctx)?;
    let uploads = Uploads::new(ctx.app.settings.data_dir.as_deref());
    let (upload, offset) = own_upload(&ctx, &uploads).await?;
    Ok(Raw::new(
        Response::builder()
            .status(StatusCode::OK)
            .header("Upload-Length", upload.length.to_string())
            .header("Upload-Offset", offset.to_string())
            .header("Tus-Resumable", TUS_VERSION)
            .header("Cache-Control", "no-store")
            .finish(),
    ))
}

/// The upload the route's `{upload_id}` names, if the caller started it here and may still
/// do what it does; else 404 (another user's upload is not theirs to know of).
pub async fn own_upload(ctx: &Ctx, uploads: &Uploads) -> ApiResult<(Upload, u64)> {
    let not_found = || ApiError::not_found(&ctx.request.service_url);
    let (upload, offset) = uploads.find(ctx.param("upload_id")).await?.ok_or_else(not_found)?;
    if upload.owner != ctx.principal.actor() || !started_on(&upload, &ctx.context) {
        return Err(not_found());
    }
    ctx.check(match upload.mode {
        Mode::Create => Permission::ADD_PORTAL_CONTENT,
        Mode::Replace => Permission::MODIFY_PORTAL_CONTENT,
    })?;
    Ok((upload, offset))
}
