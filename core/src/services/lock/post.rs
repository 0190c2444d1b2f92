//! `POST <obj>/@lock` `{stealable?, timeout?}`: takes the lock for the caller (or renews the
//! caller's own); someone else's lock that still holds answers 409.

use super::{DEFAULT_TIMEOUT, LockInfo, MAX_TIMEOUT, current_lock, lock_info};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::store::ContentLock;
use poem::http::Method;
use poem_openapi::Object;
use serde_json::Value;

/// The service.
pub static LOCK_POST: Service = Service {
    method: Method::POST,
    name: "@lock",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<NewLock>),
        body_required: false,
        ..Route::new("", "Lock the object for editing by the caller; the body is optional", endpoint!(post))
    }],
};

/// The lock to take; the body may be left out.
#[derive(Object)]
pub struct NewLock {
    /// Whether others may release it; true unless given.
    pub stealable: Option<bool>,
    /// For how many seconds it holds, 1 to 86,400; 600 unless given.
    pub timeout: Option<i64>,
}

async fn post(ctx: Ctx) -> ApiResult<Json<LockInfo>> {
    let body = if ctx.body.is_empty() { Default::default() } else { ctx.json_body()? };
    let user = ctx.principal.user_id().ok_or_else(|| ApiError::new(ErrorCode::Unauthorized, "Log in to lock."))?;
    let stealable = match body.get("stealable") {
        None => true,
        Some(Value::Bool(stealable)) => *stealable,
        Some(_) => return Err(ApiError::invalid_parameter("stealable", "stealable is true or false.")),
    };
    let timeout = match body.get("timeout") {
        None => DEFAULT_TIMEOUT,
        Some(value) => value.as_i64().filter(|t| (1..=MAX_TIMEOUT).contains(t)).ok_or_else(|| {
            ApiError::invalid_parameter("timeout", format!("timeout is a number of seconds from 1 to {MAX_TIMEOUT}."))
        })?,
    };
    let existing = current_lock(&ctx.app, &ctx.context.uid).await?;
    let token = match &existing {
        Some(lock) if lock.creator != user => {
            return Err(ApiError::new(
                ErrorCode::Locked,
                format!("This object is already locked by {}.", lock.creator),
            ));
        }
        Some(own) => own.token.clone(),
        None => uuid::Uuid::new_v4().simple().to_string(),
    };
    let lock = ContentLock {
        uid: ctx.context.uid.clone(),
        token,
        creator: user.to_owned(),
        created: chrono::Utc::now().timestamp(),
        timeout,
        stealable,
    };
    ctx.app.store.put_lock(&lock).await?;
    Ok(Json(lock_info(&ctx, &lock)))
}
