//! `@es-admin` (Manage portal): the index's status (`GET`: engine, documents, feed position and
//! lag, whether a rebuild runs, the last indexing error) and a rebuild from storage (`POST
//! {"action": "rebuild"}`, 202). The rebuild stages a whole new index and commits it at once,
//! so searches answer from the old index until the new one is complete; the indexer waits
//! meanwhile and then applies what changed during the rebuild.

use crate::Search;
use crate::indexer::rebuild;
use serde_json::{Value, json};
use std::sync::Arc;
use wcs_core::app::App;
use wcs_core::http::{ApiError, ApiResult, Ctx, ErrorCode, json, json_with_status};
use wcs_core::poem_reexports::{Method, Response, StatusCode};
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Service};

/// The status.
pub static ES_ADMIN_STATUS: Service = Service {
    method: Method::GET,
    name: "@es-admin",
    kind: ContentKind::Any,
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "Search index status: documents, change-feed lag, rebuild running, last error",
        wcs_core::untyped!(|ctx| Box::pin(status(ctx))),
    )],
};

/// Starts a rebuild.
pub static ES_ADMIN_REBUILD: Service = Service {
    method: Method::POST,
    name: "@es-admin",
    kind: ContentKind::Any,
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "{\"action\": \"rebuild\"}: rebuild the search index from storage; searches use the old one until it is done",
        wcs_core::untyped!(|ctx| Box::pin(start_rebuild(ctx))),
    )],
};

fn search(ctx: &Ctx) -> ApiResult<Arc<Search>> {
    ctx.app.extensions.get::<Search>().ok_or_else(|| ApiError::internal("search engine not started"))
}

async fn report(app: &App, search: &Search) -> ApiResult<Value> {
    let end = app.store.background().feed_end().await?;
    let position = search.engine.position()?.unwrap_or(0);
    Ok(json!({
        "engine": search.engine.name(),
        "documents": search.engine.documents(),
        "position": position,
        "feed_end": end,
        "lag": (end - position).max(0),
        "rebuilding": search.state.rebuilding(),
        "last_error": search.state.last_error(),
    }))
}

async fn status(ctx: Ctx) -> ApiResult<Response> {
    let search = search(&ctx)?;
    Ok(json(&report(&ctx.app, &search).await?))
}

async fn start_rebuild(ctx: Ctx) -> ApiResult<Response> {
    let body: Value = serde_json::from_slice(&ctx.body).unwrap_or(Value::Null);
    if body.get("action").and_then(Value::as_str) != Some("rebuild") {
        return Err(ApiError::invalid_parameter("action", "The only action is \"rebuild\"."));
    }
    let search = search(&ctx)?;
    if !search.state.start_rebuild() {
        return Err(ApiError::new(ErrorCode::Conflict, "A rebuild is already running."));
    }
    let app = ctx.app.clone();
    let running = search.clone();
    tokio::spawn(async move {
        let outcome = {
            let _writing = running.state.writing.lock().await;
            rebuild(&app, &app.store.background(), running.engine.as_ref(), |_, _| {}).await
        };
        if let Err(err) = &outcome {
            tracing::error!(%err, "search index rebuild failed");
        }
        running.state.record(outcome.map(|_| ()).map_err(|e| e.to_string()));
        running.state.end_rebuild();
    });
    Ok(json_with_status(StatusCode::ACCEPTED, &report(&ctx.app, &search).await?))
}
