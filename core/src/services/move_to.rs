//! `POST <folder>/@move`.

use super::move_copy_sources::{MoveCopyRequest, MovedObject, requested_sources, source_target_pairs};
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json, shape_schema};
use crate::ops;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Moves objects (by URL, path or UID) into this folder; old paths redirect.
pub static MOVE: Service = Service {
    method: Method::POST,
    name: "@move",
    kind: ContentKind::Folderish,
    guard: Guard::Has(Permission::ADD_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<MoveCopyRequest>),
        ..Route::new("", "Move objects into this folder; old paths redirect", endpoint!(move_here))
    }],
};

async fn move_here(ctx: Ctx) -> ApiResult<Json<Vec<MovedObject>>> {
    let sources = requested_sources(&ctx, Permission::DELETE_OBJECTS).await?;
    let results = ops::move_into(&ctx.app, &sources, &ctx.context).await?;
    Ok(source_target_pairs(&ctx, &results))
}
