//! `@search` with `SearchableText` answered by the engine: relevance first, the other
//! criteria as filters, descriptions replaced by highlighted fragments when the highlight
//! records say so. Queries the engine cannot answer exactly (by uid or id, by date, sorted,
//! with a path depth, with excluded values) stay with SQL, as do queries the index cannot
//! answer with every write acknowledged before them (it lags behind a burst of writes for
//! longer than a search waits).

use crate::Search;
use crate::engine::SearchRequest;
use crate::patterns::text_query;
use crate::scope::filters_within;
use wcs_core::catalog::{Criterion, Scope, SearchQuery, SqlCriteria};
use wcs_core::http::{ApiError, ApiResult, Ctx};
use wcs_core::service::{TextHits, TextSearch};

/// The plugin's full-text search for `@search`.
pub static TEXT_SEARCH: TextSearch = TextSearch {
    name: "es-search",
    engine: |app| match app.settings.plugin_option(crate::SEARCH_URL_OPTION) {
        Some(_) => "Elasticsearch".to_owned(),
        None => "es-search".to_owned(),
    },
    run: |ctx, scope, query| Box::pin(run(ctx, scope, query)),
};

/// Whether the engine answers `query` exactly as SQL would.
fn answerable(query: &SearchQuery) -> bool {
    let plain = |c: &Criterion| c.none_of.is_empty() && !c.all;
    query.uid == Criterion::default()
        && query.id == Criterion::default()
        && query.dates.is_empty()
        && query.sort.is_empty()
        && query.sort_limit.is_none()
        && query.path.depth.is_none()
        && query.path.paths.len() <= 1
        && plain(&query.portal_type)
        && plain(&query.review_state)
        && plain(&query.subject)
        && plain(&query.more.language)
        && SqlCriteria { language: Criterion::default(), ..query.more.clone() }.is_empty()
}

async fn run(ctx: &Ctx, scope: &Scope, query: &SearchQuery) -> ApiResult<Option<TextHits>> {
    let Some(search) = ctx.app.extensions.get::<Search>() else { return Ok(None) };
    // Storage answers what the index has not taken in yet: it is never behind.
    if !answerable(query) || !search.caught_up(&ctx.app.store).await? {
        return Ok(None);
    }
    let mut filters = filters_within(scope);
    filters.portal_types = query.portal_type.any_of.clone();
    filters.review_states = query.review_state.any_of.clone();
    filters.subjects = query.subject.any_of.clone();
    filters.languages = query.more.language.any_of.clone();
    filters.subtrees.extend(query.path.paths.iter().cloned());
    let typed: Vec<&str> =
        ctx.request.query.iter().filter(|(k, _)| k == "SearchableText").map(|(_, v)| v.as_str()).collect();
    let typed = text_query(ctx, &typed.join(" ")).await?;
    let request = SearchRequest {
        query: typed.query,
        clauses: typed.clauses,
        custom: typed.custom,
        filters,
        start: usize::try_from(query.batch.start).unwrap_or(usize::MAX),
        size: usize::try_from(query.batch.size).unwrap_or(0),
        highlight: typed.highlight,
        aggregations: None,
    };
    let engine = search.engine.clone();
    let found = tokio::task::spawn_blocking(move || engine.search(&request))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::from)?;
    let mut hits = TextHits { total: i64::try_from(found.total).unwrap_or(i64::MAX), ..TextHits::default() };
    for hit in found.hits {
        if let Some(fragment) = hit.fragment {
            hits.fragments.insert(hit.uid.clone(), fragment);
        }
        hits.uids.push(hit.uid);
    }
    Ok(Some(hits))
}
