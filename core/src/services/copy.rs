//! `POST <folder>/@copy`.

use super::move_copy_sources::{MoveCopyRequest, MovedObject, requested_sources, source_target_pairs};
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json, shape_schema};
use crate::ops;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Copies objects (by URL, path or UID) into this folder: new uids; clashing ids become
/// `copy_of_…`; what inside them the caller may not see stays behind.
pub static COPY: Service = Service {
    method: Method::POST,
    name: "@copy",
    kind: ContentKind::Folderish,
    guard: Guard::Has(Permission::ADD_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<MoveCopyRequest>),
        ..Route::new("", "Copy objects into this folder", endpoint!(copy_here))
    }],
};

async fn copy_here(ctx: Ctx) -> ApiResult<Json<Vec<MovedObject>>> {
    let sources = requested_sources(&ctx, Permission::VIEW).await?;
    let visibility = ctx.visibility();
    let results = ops::copy_into(&ctx.app, &sources, &ctx.context, ctx.principal.actor(), &visibility).await?;
    Ok(source_target_pairs(&ctx, &results))
}
