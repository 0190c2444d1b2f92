//! `PATCH <obj>/@lock`: keeps the caller's lock alive for another timeout.

use super::{LockInfo, current_lock, lock_info};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// The service.
pub static LOCK_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@lock",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Refresh the caller's editing lock", endpoint!(patch))],
};

async fn patch(ctx: Ctx) -> ApiResult<Json<LockInfo>> {
    let Some(mut lock) = current_lock(&ctx.app, &ctx.context.uid).await? else {
        return Err(ApiError::new(ErrorCode::BadRequest, "The object is not locked."));
    };
    if ctx.principal.user_id() != Some(lock.creator.as_str()) {
        return Err(ApiError::new(ErrorCode::Locked, format!("This object is locked by {}.", lock.creator)));
    }
    lock.created = chrono::Utc::now().timestamp();
    ctx.app.store.put_lock(&lock).await?;
    Ok(Json(lock_info(&ctx, &lock)))
}
