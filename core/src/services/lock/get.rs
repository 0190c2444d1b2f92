//! `GET <obj>/@lock`: the object's lock, or that it has none.

use super::{LockInfo, current_lock, lock_info, unlocked};
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// The service.
pub static LOCK_GET: Service = Service {
    method: Method::GET,
    name: "@lock",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "The object's editing lock: holder, since when, timeout, whether others may release it",
        endpoint!(get),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Json<LockInfo>> {
    let lock = current_lock(&ctx.app, &ctx.context.uid).await?;
    Ok(Json(lock.map_or_else(unlocked, |lock| lock_info(&ctx, &lock))))
}
