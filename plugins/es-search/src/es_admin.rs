//! `@es-admin` (Manage portal): the index's status (`GET`: engine, documents, feed position and
//! lag, whether a rebuild runs, the last indexing error) and a rebuild from storage (`POST
//! {"action": "rebuild"}`, 202). The rebuild stages a whole new index and commits it at once,
//! so searches answer from the old index until the new one is complete; the indexer waits
//! meanwhile and then applies what changed during the rebuild.

use crate::Search;
use crate::indexer::rebuild;
use poem_openapi::{Enum, Object};
use serde_json::Value;
use std::sync::Arc;
use wcs_core::app::App;
use wcs_core::endpoint;
use wcs_core::http::schema::Nullable;
use wcs_core::http::{Accepted, ApiError, ApiResult, Ctx, ErrorCode, Json, body_schema};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The status.
pub static ES_ADMIN_STATUS: Service = Service {
    method: Method::GET,
    name: "@es-admin",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Search index status: documents, change-feed lag, rebuild running, last error",
        endpoint!(status),
    )],
};

/// Starts a rebuild.
pub static ES_ADMIN_REBUILD: Service = Service {
    method: Method::POST,
    name: "@es-admin",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<EsAdminAction>),
        ..Route::new(
            "",
            "Rebuild the search index from storage; searches use the old one until it is done",
            endpoint!(start_rebuild),
        )
    }],
};

/// What `POST @es-admin` is asked to do.
#[derive(Object)]
struct EsAdminAction {
    /// The only action.
    action: EsAdminActionKind,
}

/// The actions `POST @es-admin` knows.
#[derive(Enum)]
#[oai(rename_all = "lowercase")]
enum EsAdminActionKind {
    /// Rebuild the index from storage.
    Rebuild,
}

/// The index's state, for a Manager watching it (and a rebuild).
#[derive(Object)]
struct SearchIndexStatus {
    /// The engine: `tantivy` or `elasticsearch`.
    engine: String,
    /// How many documents the index holds.
    documents: u64,
    /// The last change-feed position the index has applied.
    position: i64,
    /// The change-feed position up to which every entry can be read (on PostgreSQL, below the
    /// oldest transaction still running).
    feed_end: i64,
    /// How many changes the index is behind.
    lag: i64,
    /// Whether a rebuild runs.
    rebuilding: bool,
    /// The last indexing error, null when the last run went well.
    last_error: Nullable<String>,
}

fn search(ctx: &Ctx) -> ApiResult<Arc<Search>> {
    ctx.app.extensions.get::<Search>().ok_or_else(|| ApiError::internal("search engine not started"))
}

async fn report(app: &App, search: &Search) -> ApiResult<SearchIndexStatus> {
    let store = app.store.background();
    let end = store.feed_end().await?;
    let position = search.engine.position()?.unwrap_or(0);
    let lag = store.entries_after(position).await?;
    Ok(SearchIndexStatus {
        engine: search.engine.name().to_owned(),
        documents: search.engine.documents(),
        position,
        feed_end: end,
        lag,
        rebuilding: search.state.rebuilding(),
        last_error: Nullable(search.state.last_error()),
    })
}

async fn status(ctx: Ctx) -> ApiResult<Json<SearchIndexStatus>> {
    let search = search(&ctx)?;
    Ok(Json(report(&ctx.app, &search).await?))
}

/// Starts the rebuild in the background and answers at once with the status (`rebuilding`).
/// The body is read here rather than as [`EsAdminAction`], so that anything but
/// `{"action": "rebuild"}`, malformed JSON included, gets the one message naming the action.
async fn start_rebuild(ctx: Ctx) -> ApiResult<Accepted<SearchIndexStatus>> {
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
    Ok(Accepted::Accepted(Json(report(&ctx.app, &search).await?)))
}
