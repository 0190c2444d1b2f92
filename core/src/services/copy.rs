//! `POST <folder>/@copy`.

use super::move_copy_sources::{requested_sources, source_target_pairs};
use crate::http::{ApiResult, Ctx};
use crate::ops;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// Copies objects (by URL, path or UID) into this folder: new uids; clashing ids become
/// `copy_of_…`.
pub static COPY: Service = Service {
    method: Method::POST,
    name: "@copy",
    kind: ContentKind::Folderish,
    permission: Permission::ADD_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Copy objects into this folder",
        crate::untyped!(|ctx| Box::pin(copy_here(ctx))),
    )],
};

async fn copy_here(ctx: Ctx) -> ApiResult<Response> {
    let sources = requested_sources(&ctx, Permission::VIEW).await?;
    let results = ops::copy_into(&ctx.app, &sources, &ctx.context, ctx.principal.actor()).await?;
    Ok(source_target_pairs(&ctx, &results))
}
