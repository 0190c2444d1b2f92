//! Full-text search for wcs-backend: an embedded tantivy index with German analysis
//! (`analysis`), or an Elasticsearch cluster (`elastic_engine`, `--search URL`), kept current
//! from core's change feed by a background task (`indexer`), behind one engine trait
//! (`engine`).
//! `GET <site>/@es-search` searches, relevance first, only over what the caller may see;
//! `GET <site>/@popular-searches` offers configured terms.

mod agg_answer;
mod agg_request;
pub mod analysis;
mod calendar;
mod caller_statistics;
mod date_formats;
pub mod declared;
pub mod document;
pub mod dsl;
mod dsl_fields;
mod dsl_match;
mod dsl_patterns;
mod dsl_query_string;
mod dsl_simple_query;
mod dsl_values;
mod elastic_client;
mod elastic_docs;
pub mod elastic_engine;
mod elastic_requests;
pub mod engine;
mod es_admin;
mod es_search;
pub mod eval;
pub mod eval_cluster;
mod facets;
mod fragments;
mod index_dir;
pub mod index_state;
pub mod indexer;
mod java_format;
mod panel;
mod patterns;
mod phrase_suggest;
mod popular_searches;
mod query_error;
mod query_syntax;
mod raw_es_search;
mod raw_highlight;
mod raw_sort;
mod raw_source;
mod raw_suggest;
mod record_checks;
pub mod records;
pub mod schema;
mod scope;
mod simple_query_flags;
mod sort_collector;
mod standard_analysis;
mod str_columns;
mod suggest;
mod tantivy_bucket_aggs;
mod tantivy_dates;
mod tantivy_document;
pub mod tantivy_engine;
mod tantivy_filter_aggs;
mod tantivy_highlight;
mod tantivy_raw;
pub mod text_languages;
mod text_search;

// `@raw-es-search`'s parsers of untrusted request bodies and its suggesters, public so the
// fuzz targets (`fuzz/` at the repository root) can run them on an engine without a server.
pub use raw_es_search::parse as parse_raw_search_body;
pub use raw_suggest::{TermSuggester, run as run_suggesters};

use elastic_engine::ElasticEngine;
use engine::SearchEngine;
use std::sync::Arc;
use tantivy_engine::TantivyEngine;
use wcs_core::app::App;
use wcs_core::plugin::Registrar;
use wcs_core::service::{StartHook, StopHook};

/// The plugin's id, as named in `--disable-plugins` and the manifest.
pub const PLUGIN_ID: &str = "es-search";

/// The option (`wcs serve --search-url`) naming an Elasticsearch cluster
/// (`http://host:9200`, credentials in the URL) to use instead of the embedded index.
pub const SEARCH_URL_OPTION: &str = "es-search.url";

/// The running engine of an application (kept in its extensions).
pub struct Search {
    /// The engine.
    pub engine: Arc<dyn SearchEngine>,
    /// Who writes, and how indexing went.
    pub state: Arc<index_state::IndexState>,
}

/// How long a search waits for the index to take in what was written before it began.
/// Indexing a write takes milliseconds once the indexer is woken; this bounds a backlog.
const READ_YOUR_WRITES_LIMIT: std::time::Duration = std::time::Duration::from_secs(2);

impl Search {
    /// Waits until the index holds every write committed before now (one read of the feed's
    /// newest entry), so a client finds what it has just written, as Plone's synchronous
    /// catalog lets it. `false` when the index did not catch up within the limit.
    pub async fn caught_up(&self, store: &wcs_core::store::Store) -> wcs_core::http::ApiResult<bool> {
        let written = store.feed_newest().await?;
        Ok(self.state.wait_for(written, READ_YOUR_WRITES_LIMIT).await)
    }
}

/// Opens the index (`<data dir>/index`, or in memory without a data directory), catches it up
/// with storage and starts the indexer.
static START: StartHook = StartHook { name: "es-search-index", run: |app| Box::pin(start(app)) };

async fn start(app: Arc<App>) -> Result<(), String> {
    let engine: Arc<dyn SearchEngine> = match app.settings.plugin_option(SEARCH_URL_OPTION) {
        Some(url) => {
            let index = format!("wcs-{}", app.settings.site_id.to_lowercase());
            let (url, index) = (url.to_owned(), index.clone());
            let engine = tokio::task::spawn_blocking(move || ElasticEngine::connect(&url, &index))
                .await
                .map_err(|e| e.to_string())?;
            Arc::new(engine.map_err(|e| e.to_string())?)
        }
        None => {
            let dir = app.settings.data_dir.as_ref().map(|d| d.join("index"));
            Arc::new(TantivyEngine::open(dir.as_deref()).map_err(|e| e.to_string())?)
        }
    };
    let store = app.store.background();
    match indexer::catch_up(&app, &store, engine.as_ref()).await {
        // A cluster that is down now is caught up by the indexer once it is back.
        Err(indexer::IndexError::Engine(err)) if err.unavailable => {
            tracing::warn!(%err, "the search cluster cannot be reached; indexing resumes when it is back");
        }
        other => other.map_err(|e| e.to_string())?,
    }
    let state = Arc::new(index_state::IndexState::default());
    state.indexed_up_to(engine.position().ok().flatten().unwrap_or(0));
    app.extensions.insert(Arc::new(Search { engine: engine.clone(), state: state.clone() }));
    indexer::spawn(&app, engine, state);
    Ok(())
}

/// Indexes what the feed still holds when the server stops. The indexer pauses between rounds
/// while writes come in, so up to half a second of changes may be waiting; the next start
/// would index them before serving its first request.
static STOP: StopHook = StopHook { name: "es-search-flush", run: |app| Box::pin(stop(app)) };

/// How often the stop hook looks again for a committed write the feed does not yet show.
const STOP_RECHECK: std::time::Duration = std::time::Duration::from_millis(20);

async fn stop(app: Arc<App>) -> Result<(), String> {
    let Some(search) = app.extensions.get::<Search>() else { return Ok(()) };
    let store = app.store.background();
    let _writing = search.state.writing.lock().await;
    // On PostgreSQL the feed is read only below the oldest transaction still running anywhere
    // in the cluster, so a write acknowledged before the stop stays out of reach while another
    // runs; the hook waits for it (within the server's grace period), not only for what the
    // feed shows now.
    let written = store.feed_newest().await.map_err(|e| e.to_string())?;
    loop {
        let applied = indexer::apply_next(&app, &store, search.engine.as_ref()).await.map_err(|e| e.to_string())?;
        if applied.changes == 0 {
            if applied.indexed >= written {
                return Ok(());
            }
            tokio::time::sleep(STOP_RECHECK).await;
        }
    }
}

/// Rebuilds the index of a started application from storage; `progress(done, total)`
/// follows it. Returns how many objects were indexed.
pub async fn reindex(app: &Arc<App>, progress: impl FnMut(usize, usize)) -> Result<usize, String> {
    let search = app.extensions.get::<Search>().ok_or("the es-search plugin is not running")?;
    let store = app.store.background();
    let _writing = search.state.writing.lock().await;
    indexer::rebuild(app, &store, search.engine.as_ref(), progress).await.map_err(|e| e.to_string())
}

fn build(r: &mut Registrar) {
    r.on_start(&START);
    r.on_stop(&STOP);
    r.service(&es_search::ES_SEARCH);
    r.service(&popular_searches::POPULAR);
    r.service(&raw_es_search::RAW_ES_SEARCH);
    r.service(&es_admin::ES_ADMIN_STATUS);
    r.service(&es_admin::ES_ADMIN_REBUILD);
    r.text_search(&text_search::TEXT_SEARCH);
    for record in [
        &records::POPULAR_SEARCHES,
        &records::AGGREGATIONS,
        &records::REGULAR,
        &records::QUOTED,
        &records::FILTER,
        &records::API_DOMAINS,
        &records::API_FILTER,
        &records::SUGGEST,
        &records::CUSTOM_FIELDS,
        &records::HIGHLIGHT,
        &records::HIGHLIGHT_PRE_TAGS,
        &records::HIGHLIGHT_POST_TAGS,
        &records::HIGHLIGHT_THRESHOLD,
    ] {
        r.record(record);
    }
    r.control_panel(&panel::SEARCH_PANEL);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
