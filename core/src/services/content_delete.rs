//! `DELETE <obj>`: remove an object and its subtree.

use crate::http::{ApiResult, Ctx};
use crate::ops;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};

/// Deletes permanently; 204.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "",
    kind: ContentKind::Any,
    permission: Permission::DELETE_OBJECTS,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Delete the object and everything inside it",
        crate::untyped!(|ctx| Box::pin(delete(ctx))),
    )],
};

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    super::lock::check_edit_lock(&ctx).await?;
    ops::delete(&ctx.app, &ctx.context).await?;
    // A lock of an object that is gone would only wait for its timeout.
    ctx.app.store.remove_lock(&ctx.context.uid).await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
