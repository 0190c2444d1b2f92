//! `DELETE <obj>`: remove an object and its subtree.

use crate::endpoint;
use crate::http::{ApiResult, Ctx, NoContent};
use crate::ops;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Deletes permanently; 204.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::DELETE_OBJECTS),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Delete the object and everything inside it", endpoint!(delete))],
};

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    super::lock::check_edit_lock(&ctx).await?;
    ops::delete(&ctx.app, &ctx.context).await?;
    // A lock of an object that is gone would only wait for its timeout.
    ctx.app.store.remove_lock(&ctx.context.uid).await?;
    Ok(NoContent::NoContent)
}
