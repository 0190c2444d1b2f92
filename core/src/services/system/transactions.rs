//! `GET <site>/@transactions`: the latest changes, newest first, from the change feed (which
//! keeps what its consumers have not yet trimmed). Undo is not built: `PATCH` is refused.

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The most changes listed.
const LIMIT: i64 = 200;

/// The service.
pub static TRANSACTIONS: Service = Service {
    method: Method::GET,
    name: "@transactions",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The latest changes (at most 200), newest first, from the change feed",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// Undo, refused.
pub static TRANSACTIONS_UNDO: Service = Service {
    method: Method::PATCH,
    name: "@transactions",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Undo: not available on this server (400 bad_request)",
        crate::untyped!(|_| Box::pin(undo())),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let changes = ctx.app.store.latest_changes(LIMIT).await?;
    let listed: Vec<Value> = changes
        .iter()
        .map(|change| {
            let what = change.path.as_deref().unwrap_or(change.uid.as_str());
            json!({
                "id": change.seq.to_string(),
                "time": change.time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                "description": format!("{} {what}", change.kind),
                "username": "",
                "size": 0,
            })
        })
        .collect();
    Ok(json(&Value::Array(listed)))
}

async fn undo() -> ApiResult<Response> {
    Err(ApiError::new(
        ErrorCode::BadRequest,
        "Undo is not available: changes are kept in versions (@versions) and the trash (@trash) instead.",
    ))
}
