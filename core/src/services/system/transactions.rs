//! `GET <site>/@transactions`: the latest changes, newest first, from the change feed (which
//! keeps what its consumers have not yet trimmed). Undo is not built: `PATCH` is refused.

use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, Refused};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// The most changes listed.
const LIMIT: i64 = 200;

/// The service.
pub static TRANSACTIONS: Service = Service {
    method: Method::GET,
    name: "@transactions",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "The latest changes (at most 200), newest first, from the change feed", endpoint!(get))],
};

/// Undo, refused.
pub static TRANSACTIONS_UNDO: Service = Service {
    method: Method::PATCH,
    name: "@transactions",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Undo: not available on this server, always refused with 400 bad_request",
        endpoint!(undo),
    )],
};

/// One change, in the keys of plone.restapi's transaction list.
#[derive(Object)]
struct TransactionEntry {
    /// The change's position in the feed.
    id: String,
    /// When it happened (ISO 8601, seconds, UTC).
    time: String,
    /// What happened to which object: `added /Plone/page`.
    description: String,
    /// Always empty: the feed does not keep who.
    username: String,
    /// Always 0.
    size: i64,
}

async fn get(ctx: Ctx) -> ApiResult<Json<Vec<TransactionEntry>>> {
    let changes = ctx.app.store.latest_changes(LIMIT).await?;
    let listed = changes
        .iter()
        .map(|change| {
            let what = change.path.as_deref().unwrap_or(change.uid.as_str());
            TransactionEntry {
                id: change.seq.to_string(),
                time: change.time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                description: format!("{} {what}", change.kind),
                username: String::new(),
                size: 0,
            }
        })
        .collect();
    Ok(Json(listed))
}

async fn undo(_: Ctx) -> ApiResult<Refused> {
    Err(ApiError::new(
        ErrorCode::BadRequest,
        "Undo is not available: changes are kept in versions (@versions) and the trash (@trash) instead.",
    ))
}
