//! `POST <folder>/@move`.

use super::move_copy_sources::{requested_sources, source_target_pairs};
use crate::http::{ApiResult, Ctx};
use crate::ops;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// Moves objects (by URL, path or UID) into this folder; old paths redirect.
pub static MOVE: Service = Service {
    method: Method::POST,
    name: "@move",
    kind: ContentKind::Folderish,
    permission: Permission::ADD_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Move objects into this folder",
        crate::untyped!(|ctx| Box::pin(move_here(ctx))),
    )],
};

async fn move_here(ctx: Ctx) -> ApiResult<Response> {
    let sources = requested_sources(&ctx, Permission::DELETE_OBJECTS).await?;
    let results = ops::move_into(&ctx.app, &sources, &ctx.context).await?;
    Ok(source_target_pairs(&ctx, &results))
}
