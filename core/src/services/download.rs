//! `GET <obj>/@@download[/<field>[/<filename>]]`: a file field's bytes.

use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, FileMeta, Raw, file_response};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Sends a file or image field.
pub static DOWNLOAD: Service = Service {
    method: Method::GET,
    name: "@@download",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "Download the object's primary file (Range requests and conditional GET)", endpoint!(primary)),
        Route::new("{field}", "Download a file or image field", endpoint!(named)),
        Route::new(
            "{field}/{filename}",
            "Download a file or image field (the file name is for browsers)",
            endpoint!(named),
        ),
    ],
};

async fn primary(ctx: Ctx) -> ApiResult<Raw<FileMeta>> {
    let field = ctx.profile.primary_blob_field().ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    file_response(&ctx, &field.name).await
}

async fn named(ctx: Ctx) -> ApiResult<Raw<FileMeta>> {
    let field = ctx
        .profile
        .field(ctx.param("field"))
        .filter(|f| f.kind.is_blob())
        .ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    file_response(&ctx, &field.name).await
}
