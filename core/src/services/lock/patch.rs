//! `PATCH <obj>/@lock`: keeps the caller's lock alive for another timeout.

use super::{current_lock, lock_info};
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// The service.
pub static LOCK_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@lock",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Refresh the caller's editing lock",
        crate::untyped!(|ctx| Box::pin(patch(ctx))),
    )],
};

async fn patch(ctx: Ctx) -> ApiResult<Response> {
    let Some(mut lock) = current_lock(&ctx.app, &ctx.context.uid).await? else {
        return Err(ApiError::new(ErrorCode::BadRequest, "The object is not locked."));
    };
    if ctx.principal.user_id() != Some(lock.creator.as_str()) {
        return Err(ApiError::new(ErrorCode::Locked, format!("This object is locked by {}.", lock.creator)));
    }
    lock.created = chrono::Utc::now().timestamp();
    ctx.app.store.put_lock(&lock).await?;
    Ok(json(&lock_info(&ctx, &lock)))
}
