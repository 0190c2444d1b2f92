//! `POST <obj>/@trash`.

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};

/// Moves the object and its subtree to the trash.
pub static TRASH: Service = Service {
    method: Method::POST,
    name: "@trash",
    kind: ContentKind::Any,
    permission: Permission::DELETE_OBJECTS,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Move this object and its subtree to the trash",
        crate::untyped!(|ctx| Box::pin(trash(ctx))),
    )],
};

async fn trash(ctx: Ctx) -> ApiResult<Response> {
    if ctx.context.is_site_root() {
        return Err(ApiError::new(ErrorCode::BadRequest, "The site root cannot be put in the trash."));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.trash(&ctx.context, chrono::Utc::now()).await?;
    tx.commit().await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
