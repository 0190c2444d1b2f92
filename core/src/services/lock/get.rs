//! `GET <obj>/@lock`: the object's lock, or that it has none.

use super::LockInfo;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::ops::working_copy::pair_of;
use crate::security::{Csrf, Permission};
use crate::serialize::shown_lock;
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
    let pair = pair_of(&ctx.app, &ctx.context).await?;
    Ok(Json(shown_lock(&ctx.app, &ctx.context, pair.as_ref(), &ctx.site_url(), ctx.principal.user_id()).await?))
}
