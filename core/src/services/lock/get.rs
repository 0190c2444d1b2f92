//! `GET <obj>/@lock`: the object's lock, or that it has none.

use super::{current_lock, lock_info, unlocked};
use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// The service.
pub static LOCK_GET: Service = Service {
    method: Method::GET,
    name: "@lock",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The object's editing lock: holder, since when, timeout, whether others may release it",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let lock = current_lock(&ctx.app, &ctx.context.uid).await?;
    Ok(json(&lock.map_or_else(unlocked, |lock| lock_info(&ctx, &lock))))
}
