//! `GET <obj>/@@download/<field>[/<filename>]`: a file or image field's bytes
//! ([`crate::http::file_response`]: streamed, Range, conditional GET).

use crate::http::{ApiError, ApiResult, Ctx, file_response};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// Sends a file or image field.
pub static DOWNLOAD: Service = Service {
    method: Method::GET,
    name: "@@download",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Download a file or image field (supports Range requests and conditional GET)",
        crate::untyped!(|ctx| Box::pin(download(ctx))),
    )],
};

async fn download(ctx: Ctx) -> ApiResult<Response> {
    let field = match ctx.subpath.first() {
        Some(name) => ctx.profile.field(name).filter(|f| f.kind.is_blob()),
        None => ctx.profile.primary_blob_field(),
    }
    .ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    file_response(&ctx, &field.name).await
}
