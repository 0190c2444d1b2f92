//! `POST <obj>/@querystring-search` (the query in the body) and `GET
//! <obj>/@querystring-search?query=<the body as JSON>`: a listing block's query, answered as
//! `@search` answers (batched summaries, `metadata_fields`, `fullobjects`). As in Plone the
//! query covers the whole site unless a path criterion narrows it, and a context other than
//! the site is not among its own results.

use super::{QueryPlace, invalid, to_search_pairs};
use crate::endpoint;
use crate::http::{ApiResult, Batch, BatchLinksShape, Ctx, Json, Shaped, batch_links, body_schema};
use crate::security::{Csrf, Permission};
use crate::serialize::SummaryShape;
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::{Map, Value};

/// The query in the body.
pub static QUERYSTRING_SEARCH_POST: Service = Service {
    method: Method::POST,
    name: "@querystring-search",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<QuerystringQuery>),
        ..Route::new("", "Run a querystring query (listing blocks); answered as @search answers", endpoint!(post))
    }],
};

/// The query as the `query` parameter.
pub static QUERYSTRING_SEARCH_GET: Service = Service {
    method: Method::GET,
    name: "@querystring-search",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: &[QueryParam::new("query", ParamKind::String, "The POST body as JSON (URL-encoded once or twice)")],
        ..Route::new("", "Run a querystring query given as ?query=<JSON body>", endpoint!(get))
    }],
};

/// A listing block's query, as Volto sends it. The handler reads it itself, so a refusal
/// says what plone.app.querystring would ("Invalid query: …").
#[derive(Object)]
struct QuerystringQuery {
    /// The criteria, all of which must hold; at most 50.
    query: Vec<QuerystringCriterion>,
    /// The sort key (see `@querystring`'s `sortable_indexes`).
    sort_on: Option<String>,
    /// `descending` sorts backwards; anything else ascending.
    sort_order: Option<String>,
    /// The first result of the page.
    b_start: Option<i64>,
    /// Results per page.
    b_size: Option<i64>,
    /// The most results counted at all.
    limit: Option<i64>,
    /// Whole objects instead of summaries (`true` or 1).
    fullobjects: Option<Value>,
    /// Metadata columns each summary adds.
    metadata_fields: Option<Vec<String>>,
}

/// One criterion: index, operation, value.
#[derive(Object)]
struct QuerystringCriterion {
    /// The index (see `@querystring`'s `indexes`).
    i: String,
    /// The operation, with or without the `plone.app.querystring.operation.` prefix.
    o: String,
    /// The value: one or a list, as the operation takes it.
    v: Option<Value>,
}

/// The results: `@search`'s shape, paged on this endpoint's URL.
#[derive(Object)]
struct QuerystringResults {
    /// This endpoint's URL (the query itself is in the request).
    #[oai(rename = "@id")]
    url: String,
    /// The page's results: summaries, or whole objects with `fullobjects`.
    items: Vec<Shaped<SummaryShape>>,
    /// How many results there are in all.
    items_total: i64,
    /// Links to the other pages, when there are any.
    #[oai(skip_serializing_if_is_none)]
    batching: Option<Shaped<BatchLinksShape>>,
}

async fn post(ctx: Ctx) -> ApiResult<Json<QuerystringResults>> {
    let body = Value::Object(ctx.json_body()?);
    run(ctx, &body).await
}

async fn get(ctx: Ctx) -> ApiResult<Json<QuerystringResults>> {
    let text = ctx.request.query_value("query").ok_or_else(|| invalid("No query supplied"))?.to_owned();
    // Volto encodes the JSON once more than the query string needs.
    let body: Value = serde_json::from_str(&text)
        .or_else(|_| serde_json::from_str(&percent_encoding::percent_decode_str(&text).decode_utf8_lossy()))
        .map_err(|_| invalid("the query parameter is not JSON"))?;
    run(ctx, &body).await
}

async fn run(mut ctx: Ctx, body: &Value) -> ApiResult<Json<QuerystringResults>> {
    let site_path = format!("/{}", ctx.context.site_id());
    let place = QueryPlace {
        context_path: &ctx.context.path,
        site_path: &site_path,
        registered: ctx.app.catalog_indexes(),
        user: ctx.principal.user_id(),
    };
    let mut pairs = to_search_pairs(body, &place)?;
    if !ctx.context.is_site_root() {
        pairs.push(("UID.not".into(), ctx.context.uid.clone()));
    }
    // The whole site is searched (what the caller may see of it); path criteria narrow it.
    if let Some(site) = ctx.access.chain().first().cloned() {
        ctx.context = site;
    }
    let batch = Batch::from_query(&pairs)?;
    let service_url = ctx.request.service_url.clone();
    // Plone names the results by the URL requested (a GET's query included).
    let requested_url = ctx.request.request_url();
    ctx.request.query = pairs;
    let mut found = match crate::services::search::search_body(&ctx).await? {
        Value::Object(found) => found,
        _ => Map::new(),
    };
    let items = match found.remove("items") {
        Some(Value::Array(items)) => items.into_iter().map(Shaped::new).collect(),
        _ => Vec::new(),
    };
    let total = found.get("items_total").and_then(Value::as_i64).unwrap_or(0);
    // Pages of the service's own URL: the query itself stays in the request body.
    let paging: Vec<(String, String)> = vec![("b_size".into(), batch.size.to_string())];
    let batching = batch_links(&service_url, &paging, batch, total);
    Ok(Json(QuerystringResults { url: requested_url, items, items_total: total, batching }))
}
