//! `GET <site>/@es-search?SearchableText=…&portal_type=…`: full-text search through the
//! engine, relevance first, only over what the caller may see below the context.

use crate::Search;
use crate::engine::SearchRequest;
use crate::engine::{EngineError, Filters, SearchEngine};
use crate::facets::{FacetResult, apply_facet_filters, configured, with_titles};
use crate::patterns::text_query;
use crate::records::{AGGREGATIONS, SUGGEST};
use crate::scope::caller_filters;
use poem_openapi::Object;
use serde_json::Value;
use std::collections::HashMap;
use wcs_core::endpoint;
use wcs_core::http::{
    ApiError, ApiResult, B_SIZE, B_START, Batch, BatchLinksShape, Ctx, Json, OrderedMap, Shaped, batch_links,
};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::{SummaryShape, summary};
use wcs_core::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};

/// The service.
pub static ES_SEARCH: Service = Service {
    method: Method::GET,
    name: "@es-search",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        cacheable: true,
        query: &[
            QueryParam::new(
                "SearchableText",
                ParamKind::String,
                "The words searched for, analysed in the languages asked (every language without Language)",
            ),
            QueryParam::new("portal_type", ParamKind::StringList, "Facet filter: only these types"),
            QueryParam::new("review_state", ParamKind::StringList, "Facet filter: only these states"),
            QueryParam::new("Subject", ParamKind::StringList, "Facet filter: only these tags"),
            QueryParam::new(
                "Language",
                ParamKind::StringList,
                "Only content in these languages, whose words are analysed in them",
            ),
            QueryParam::new("metadata_fields", ParamKind::StringList, "Metadata columns each summary adds"),
            B_START,
            B_SIZE,
        ],
        ..Route::new("", "Full-text search, relevance first, with facets and suggestions", endpoint!(es_search))
    }],
};

/// `GET @es-search`: `@search`'s shape, plus what Elasticsearch adds.
#[derive(Object)]
struct EsSearchResults {
    /// The request's URL, query included.
    #[oai(rename = "@id")]
    url: String,
    /// The page's results, most relevant first.
    items: Vec<Shaped<SummaryShape>>,
    /// How many results there are in all.
    items_total: i64,
    /// Facets and suggestions.
    elasticsearch: EsSearchExtras,
    /// Links to the other pages, when there are any.
    #[oai(skip_serializing_if_is_none)]
    batching: Option<Shaped<BatchLinksShape>>,
}

/// The facets of `wcs.backend.search.aggregations` and the suggestions of
/// `wcs.backend.search.suggest`.
#[derive(Object)]
struct EsSearchExtras {
    /// The facets of the results, by aggregation name.
    aggregations: OrderedMap<FacetResult>,
    /// The facets without the facet filters: every option a client may offer.
    original_aggregations: OrderedMap<FacetResult>,
    /// Words to try instead, by suggester name: one entry per word typed.
    suggest: OrderedMap<Vec<SuggestedWord>>,
}

/// A word as typed, and what to try instead.
#[derive(Object)]
struct SuggestedWord {
    /// The word as typed.
    text: String,
    /// Indexed words, closest first.
    options: Vec<SuggestedOption>,
}

/// An indexed word to try.
#[derive(Object)]
struct SuggestedOption {
    /// The word.
    text: String,
    /// How close it is to what was typed: 1 for equal, less with each edit.
    score: f32,
}

async fn es_search(ctx: Ctx) -> ApiResult<Json<EsSearchResults>> {
    let search = ctx.app.extensions.get::<Search>().ok_or_else(|| ApiError::internal("search engine not started"))?;
    let batch = Batch::from_query(&ctx.request.query)?;
    // What was written before the search began is found; past the wait's limit (a backlog),
    // the index answers as it is.
    search.caught_up(&ctx.app.store).await?;
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
    let items = uids
        .iter()
        .filter_map(|uid| by_uid.get(uid.as_str()))
        .map(|o| Shaped::new(summary(&sctx, o, &options.metadata_fields)))
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
    Ok(Json(EsSearchResults {
        url: id,
        items,
        items_total: total,
        elasticsearch: EsSearchExtras {
            aggregations: titled(&found.aggregations),
            original_aggregations: original.map_or_else(OrderedMap::default, |o| titled(&o.aggregations)),
            suggest: suggestions,
        },
        batching: batch_links(&ctx.request.service_url, &ctx.request.query, batch, total),
    }))
}

/// Runs the configured suggesters: `{name: [{text, options: [{text, score}]}]}`.
fn suggest(
    engine: &dyn SearchEngine,
    suggesters: &Value,
    text: &str,
    filters: &Filters,
) -> Result<OrderedMap<Vec<SuggestedWord>>, EngineError> {
    let mut out = OrderedMap::default();
    for (name, config) in suggesters.as_object().into_iter().flatten() {
        if text.trim().is_empty() {
            break;
        }
        let bounded =
            |key: &str, default: u64, max: u64| config.get(key).and_then(Value::as_u64).unwrap_or(default).min(max);
        let size = usize::try_from(bounded("size", 5, 20)).unwrap_or(5);
        let max_edits = usize::try_from(bounded("max_edits", 2, 2)).unwrap_or(2);
        let words = engine
            .suggest(text, filters, max_edits, size)?
            .into_iter()
            .map(|s| SuggestedWord {
                options: s.options.iter().map(|o| SuggestedOption { text: o.text.clone(), score: o.score }).collect(),
                text: s.text,
            })
            .collect();
        out.0.push((name.clone(), words));
    }
    Ok(out)
}
