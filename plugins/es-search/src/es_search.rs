//! `GET <site>/@es-search?SearchableText=…&portal_type=…`: full-text search through the
//! engine, relevance first, only over what the caller may see below the context.

use crate::Search;
use crate::engine::SearchRequest;
use crate::engine::{EngineError, Filters, SearchEngine};
use crate::facets::{apply_facet_filters, configured, with_titles};
use crate::patterns::text_query;
use crate::records::{AGGREGATIONS, SUGGEST};
use crate::scope::caller_filters;
use serde_json::{Value, json};
use std::collections::HashMap;
use wcs_core::http::{ApiError, ApiResult, Batch, Ctx, batching_links, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::summary;
use wcs_core::service::{ContentKind, Service};

/// The service.
pub static ES_SEARCH: Service = Service {
    method: Method::GET,
    name: "@es-search",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "Full-text search with German analysis (SearchableText, portal_type, b_start, b_size)",
        wcs_core::untyped!(|ctx| Box::pin(es_search(ctx))),
    )],
};

async fn es_search(ctx: Ctx) -> ApiResult<Response> {
    let search = ctx.app.extensions.get::<Search>().ok_or_else(|| ApiError::internal("search engine not started"))?;
    let batch = Batch::from_query(&ctx.request.query)?;
    let text: Vec<&str> =
        ctx.request.query.iter().filter(|(k, _)| k == "SearchableText").map(|(_, v)| v.as_str()).collect();
    let [aggregations, suggesters]: [Value; 2] = ctx
        .app
        .record_values(&[&AGGREGATIONS, &SUGGEST])
        .await?
        .try_into()
        .map_err(|_| ApiError::internal("record values"))?;
    let aggregations = configured(&aggregations);
    let unfiltered = caller_filters(&ctx);
    let mut filters = unfiltered.clone();
    apply_facet_filters(&mut filters, &ctx.request.query);
    let typed = text_query(&ctx, &text.join(" ")).await?;
    let request = SearchRequest {
        query: typed.query,
        clauses: typed.clauses,
        custom: typed.custom,
        filters,
        start: usize::try_from(batch.start).unwrap_or(usize::MAX),
        size: usize::try_from(batch.size).unwrap_or(0),
        highlight: None,
        aggregations: aggregations.clone(),
    };
    // The same search without the facet filters: every option a client may offer.
    let original = SearchRequest { filters: unfiltered, start: 0, size: 0, ..request.clone() };
    let engine = search.engine.clone();
    let typed = text.join(" ");
    let (found, original, suggestions) = tokio::task::spawn_blocking(move || {
        let found = engine.search(&request)?;
        let original = if request.aggregations.is_some() { Some(engine.search(&original)?) } else { None };
        let suggestions = suggest(engine.as_ref(), &suggesters, &typed, &request.filters)?;
        Ok::<_, crate::engine::EngineError>((found, original, suggestions))
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::from)?;
    let visibility = ctx.visibility();
    let uids: Vec<String> = found.hits.iter().map(|h| h.uid.clone()).collect();
    let options = ctx.serialize_options()?;
    let objects = if options.metadata_fields.is_empty() {
        ctx.app.store.visible_briefs_by_uids(&uids, &visibility).await?
    } else {
        ctx.app.store.visible_content_by_uids(&uids, &visibility).await?
    };
    let by_uid: HashMap<&str, _> = objects.iter().map(|o| (o.uid.as_str(), o)).collect();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    let items: Vec<Value> = uids
        .iter()
        .filter_map(|uid| by_uid.get(uid.as_str()))
        .map(|o| Value::Object(summary(&sctx, o, &options.metadata_fields)))
        .collect();
    let total = i64::try_from(found.total).unwrap_or(i64::MAX);
    let id = if ctx.request.raw_query.is_empty() {
        ctx.request.service_url.clone()
    } else {
        format!("{}?{}", ctx.request.service_url, ctx.request.raw_query)
    };
    let translator = ctx.app.translator(ctx.request.header("accept-language")).await?;
    let config = aggregations.unwrap_or(Value::Null);
    let titled = |results: &Value| with_titles(&ctx.app, &translator, &config, results);
    let mut body = json!({
        "@id": id,
        "items": items,
        "items_total": total,
        "elasticsearch": {
            "aggregations": titled(&found.aggregations),
            "original_aggregations": original.map_or(json!({}), |o| titled(&o.aggregations)),
            "suggest": suggestions,
        },
    });
    if let Some(links) = batching_links(&ctx.request.service_url, &ctx.request.query, batch, total) {
        body["batching"] = links;
    }
    Ok(json(&body))
}

/// Runs the configured suggesters: `{name: [{text, options: [{text, score}]}]}`.
fn suggest(engine: &dyn SearchEngine, suggesters: &Value, text: &str, filters: &Filters) -> Result<Value, EngineError> {
    let mut out = serde_json::Map::new();
    for (name, config) in suggesters.as_object().into_iter().flatten() {
        if text.trim().is_empty() {
            break;
        }
        let bounded =
            |key: &str, default: u64, max: u64| config.get(key).and_then(Value::as_u64).unwrap_or(default).min(max);
        let size = usize::try_from(bounded("size", 5, 20)).unwrap_or(5);
        let max_edits = usize::try_from(bounded("max_edits", 2, 2)).unwrap_or(2);
        let entries: Vec<Value> = engine
            .suggest(text, filters, max_edits, size)?
            .into_iter()
            .map(|s| {
                let options: Vec<Value> = s.options.iter().map(|o| json!({"text": o.text, "score": o.score})).collect();
                json!({"text": s.text, "options": options})
            })
            .collect();
        out.insert(name.clone(), Value::Array(entries));
    }
    Ok(Value::Object(out))
}
