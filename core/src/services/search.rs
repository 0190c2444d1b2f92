//! `GET <context>/@search`: the standard catalog search, evaluated in SQL with the caller's
//! `allowed` tokens in the query, or, for `SearchableText`, by a plugin's search engine
//! (`service::TextSearch`). Results never leave the context's subtree.

use crate::catalog::{Scope, SearchQuery, SearchSql};
use crate::content::ContentObject;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Dyn, QUERY_COMPONENT, batching_links};
use crate::security::{Csrf, Permission};
use crate::serialize::{SearchResultsShape, SerializeCtx, briefs_suffice, serialize_content, summary};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::store::Kept;
use poem::http::Method;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// Searches the context and everything below it.
pub static SEARCH: Service = Service {
    method: Method::GET,
    name: "@search",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: SEARCH_QUERY,
        cacheable: true,
        ..Route::new(
            "",
            "Search the catalog below this object (batched; any catalog index as a parameter: `portal_type`, \
             `review_state`, `path.depth`, `sort_on`…)",
            endpoint!(search),
        )
    }],
};

/// The parameters every search takes; catalog indexes are parameters too.
const SEARCH_QUERY: &[QueryParam] = &[
    QueryParam::new("SearchableText", ParamKind::String, "Words to find"),
    QueryParam::new("portal_type", ParamKind::StringList, "Only these types"),
    QueryParam::new("review_state", ParamKind::StringList, "Only in these states"),
    QueryParam::new("sort_on", ParamKind::String, "The index to sort by"),
    QueryParam::new("sort_order", ParamKind::String, "`ascending` or `descending`"),
    QueryParam::new("metadata_fields", ParamKind::StringList, "Metadata columns for each item; `_all` for all"),
    QueryParam::new("fullobjects", ParamKind::Boolean, "Items serialized in full instead of summaries"),
    QueryParam::new("b_start", ParamKind::Integer, "The first item of the batch (0-based)"),
    QueryParam::new("b_size", ParamKind::Integer, "The batch size"),
];

async fn search(ctx: Ctx) -> ApiResult<Dyn<SearchResultsShape>> {
    Ok(Dyn::new(search_body(&ctx).await?))
}

/// The page of results the request's query asks for, as `@search` answers it.
pub(crate) async fn search_body(ctx: &Ctx) -> ApiResult<Value> {
    let site_path = format!("/{}", ctx.context.site_id());
    let query = SearchQuery::parse(&ctx.request.query, &site_path, ctx.app.catalog_indexes())?;
    let scope = ctx.search_scope(&ctx.context.path);
    let visibility = &scope.visibility;
    let options = ctx.serialize_options()?;
    let sctx = ctx.serialize_ctx(&options, visibility);
    let found = found(ctx, &sctx, &query, &scope).await?;
    let Found { results, total, fragments } = &*found;
    let total = *total;
    let mut items = if options.fullobjects {
        full_items(&sctx, results).await?
    } else {
        results.iter().map(|o| Value::Object(summary(&sctx, o, &options.metadata_fields))).collect()
    };
    for (item, object) in items.iter_mut().zip(results) {
        if let Some(fragment) = fragments.get(&object.uid) {
            item["description"] = json!(fragment);
        }
    }
    let mut body = json!({"@id": canonical_url(ctx), "items": items, "items_total": total});
    if let Some(links) = batching_links(&ctx.request.service_url, &ctx.request.query, query.batch, total) {
        body["batching"] = links;
    }
    Ok(body)
}

/// A page of results, their total and the highlighted fragments that replace descriptions.
struct Found {
    results: Vec<ContentObject>,
    total: i64,
    fragments: HashMap<String, String>,
}

/// Pages of results kept between requests ([`Kept`]): a search is a page of a listing, the
/// same for every caller who sees the same until something changes, and every commit, every
/// batch the search index takes in and the memory's maximum age end it.
static FOUND: Kept<Arc<Found>> = Kept::new(256);

/// Longer pages are searched for each time: kept pages must not fill the memory.
const MAX_KEPT_RESULTS: usize = 50;

/// The page of results `query` asks for, by the search engine when it answers texts, else by
/// SQL.
async fn found(ctx: &Ctx, sctx: &SerializeCtx<'_>, query: &SearchQuery, scope: &Scope) -> ApiResult<Arc<Found>> {
    let options = sctx.options;
    // Plain summaries need few field values, and the others can be large (blocks, text).
    let briefs = !options.fullobjects && briefs_suffice(sctx, &options.metadata_fields);
    let key = format!("{} {briefs} {} {:?}", scope.context_path, scope.visibility.memory_key(), ctx.request.query);
    let generation = match FOUND.recall(&ctx.app.store, &key) {
        Ok(found) => return Ok(found),
        Err(generation) => generation,
    };
    let text_hits = match ctx.app.registry.text_search() {
        Some(engine) if !query.text.is_empty() => (engine.run)(ctx, scope, query).await?,
        _ => None,
    };
    let visibility = &scope.visibility;
    let found = match text_hits {
        Some(hits) => {
            let found = if briefs {
                ctx.app.store.visible_briefs_by_uids(&hits.uids, visibility).await?
            } else {
                ctx.app.store.visible_content_by_uids(&hits.uids, visibility).await?
            };
            let mut by_uid: HashMap<String, ContentObject> = found.into_iter().map(|o| (o.uid.clone(), o)).collect();
            let results: Vec<ContentObject> = hits.uids.iter().filter_map(|uid| by_uid.remove(uid)).collect();
            Found { results, total: hits.total, fragments: hits.fragments }
        }
        None => {
            let (results, total) = sql_search(ctx, query, scope).await?;
            Found { results, total, fragments: HashMap::new() }
        }
    };
    let found = Arc::new(found);
    if briefs && found.results.len() <= MAX_KEPT_RESULTS {
        FOUND.keep(&ctx.app.store, generation, &key, found.clone());
    }
    Ok(found)
}

/// A page of `query`'s results by SQL, within `scope`, and their total.
pub(super) async fn sql_search(ctx: &Ctx, query: &SearchQuery, scope: &Scope) -> ApiResult<(Vec<ContentObject>, i64)> {
    let sql = SearchSql::build(query, scope);
    let mut total = ctx.app.store.count_search(&sql).await?;
    let mut limit = query.batch.size;
    if let Some(cap) = query.sort_limit {
        total = total.min(cap);
        limit = limit.min((cap - query.batch.start).max(0));
    }
    let results = if limit > 0 { ctx.app.store.search(&sql, query.batch.start, limit).await? } else { Vec::new() };
    Ok((results, total))
}

/// Full serializations; the parents of all results are loaded in one query.
pub(crate) async fn full_items(sctx: &SerializeCtx<'_>, results: &[ContentObject]) -> ApiResult<Vec<Value>> {
    let parent_uids: Vec<String> = results.iter().filter_map(|o| o.parent_uid.clone()).collect();
    let parents: HashMap<String, ContentObject> =
        sctx.site.store.content_by_uids(&parent_uids).await?.into_iter().map(|p| (p.uid.clone(), p)).collect();
    let nested_options = sctx.options.for_nested_item();
    let nested = SerializeCtx { options: &nested_options, ..*sctx };
    let mut items = Vec::with_capacity(results.len());
    for object in results {
        let parent = object.parent_uid.as_ref().and_then(|uid| parents.get(uid));
        items.push(Value::Object(serialize_content(&nested, object, parent).await?.into_map()));
    }
    Ok(items)
}

/// The search URL without batching and sorting parameters, as upstream names the result set
/// (its catalog query parser takes the sort options out of the request).
fn canonical_url(ctx: &Ctx) -> String {
    let query: Vec<String> = ctx
        .request
        .query
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "b_start" | "b_size" | "sort_on" | "sort_order" | "sort_limit"))
        .map(|(k, v)| {
            format!(
                "{}={}",
                percent_encoding::utf8_percent_encode(k, QUERY_COMPONENT),
                percent_encoding::utf8_percent_encode(v, QUERY_COMPONENT)
            )
        })
        .collect();
    if query.is_empty() {
        ctx.request.service_url.clone()
    } else {
        format!("{}?{}", ctx.request.service_url, query.join("&"))
    }
}
