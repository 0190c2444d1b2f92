//! `DELETE <obj>/@lock` `{force?}`: releases the lock. The holder may always; others only a
//! stealable lock, or any with `{"force": true}` when they manage the site.

use super::{LockInfo, current_lock, unlocked};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::Value;

/// The service.
pub static LOCK_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@lock",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<Unlock>),
        body_required: false,
        ..Route::new("", "Release the object's editing lock; the body is optional", endpoint!(delete))
    }],
};

/// How to release a lock; the body may be left out.
#[derive(Object)]
pub struct Unlock {
    /// Release someone else's lock that may not be taken over (Manage portal).
    pub force: Option<bool>,
}

async fn delete(ctx: Ctx) -> ApiResult<Json<LockInfo>> {
    let body = if ctx.body.is_empty() { Default::default() } else { ctx.json_body()? };
    if let Some(lock) = current_lock(&ctx.app, &ctx.context.uid).await? {
        let holder = ctx.principal.user_id() == Some(lock.creator.as_str());
        let forced = body.get("force") == Some(&Value::Bool(true)) && ctx.allows(Permission::MANAGE_PORTAL);
        if !holder && !lock.stealable && !forced {
            return Err(ApiError::new(
                ErrorCode::Locked,
                format!("This object is locked by {} and the lock may not be taken over.", lock.creator),
            ));
        }
    }
    ctx.app.store.remove_lock(&ctx.context.uid).await?;
    Ok(Json(unlocked()))
}
