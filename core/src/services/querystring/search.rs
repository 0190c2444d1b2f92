//! `POST <obj>/@querystring-search` (the query in the body) and `GET
//! <obj>/@querystring-search?query=<the body as JSON>`: a listing block's query, answered as
//! `@search` answers (batched summaries, `metadata_fields`, `fullobjects`). As in Plone the
//! query covers the whole site unless a path criterion narrows it, and a context other than
//! the site is not among its own results.

use super::{invalid, to_search_pairs};
use crate::http::{ApiError, ApiResult, Batch, Ctx, batching_links, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The query in the body.
pub static QUERYSTRING_SEARCH_POST: Service = Service {
    method: Method::POST,
    name: "@querystring-search",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Run a querystring query (listing blocks): {query: [{i, o, v}], sort_on, sort_order, b_size, limit, …}",
        crate::untyped!(|ctx| Box::pin(post(ctx))),
    )],
};

/// The query as the `query` parameter.
pub static QUERYSTRING_SEARCH_GET: Service = Service {
    method: Method::GET,
    name: "@querystring-search",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Run a querystring query given as ?query=<JSON body>",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn post(ctx: Ctx) -> ApiResult<Response> {
    let body = Value::Object(ctx.json_body()?);
    run(ctx, &body).await
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let text = ctx.request.query_value("query").ok_or_else(|| invalid("No query supplied"))?.to_owned();
    // Volto encodes the JSON once more than the query string needs.
    let body: Value = serde_json::from_str(&text)
        .or_else(|_| serde_json::from_str(&percent_encoding::percent_decode_str(&text).decode_utf8_lossy()))
        .map_err(|_| invalid("the query parameter is not JSON"))?;
    run(ctx, &body).await
}

async fn run(mut ctx: Ctx, body: &Value) -> ApiResult<Response> {
    let site_path = format!("/{}", ctx.context.site_id());
    let mut pairs = to_search_pairs(body, &ctx.context.path, &site_path)?;
    if !ctx.context.is_site_root() {
        pairs.push(("UID.not".into(), ctx.context.uid.clone()));
    }
    // The whole site is searched (what the caller may see of it); path criteria narrow it.
    if let Some(site) = ctx.access.chain().first().cloned() {
        ctx.context = site;
    }
    let batch = Batch::from_query(&pairs)?;
    let service_url = ctx.request.service_url.clone();
    ctx.request.query = pairs;
    let mut body = crate::services::search::search_body(&ctx).await?;
    // The service's own URL, and pages of it: the query itself stays in the request body.
    body["@id"] = json!(service_url);
    let total = body["items_total"].as_i64().unwrap_or(0);
    let paging: Vec<(String, String)> = vec![("b_size".into(), batch.size.to_string())];
    match batching_links(&service_url, &paging, batch, total) {
        Some(links) => body["batching"] = links,
        None => {
            if let Some(body) = body.as_object_mut() {
                body.remove("batching");
            }
        }
    }
    Ok(json(&body))
}
