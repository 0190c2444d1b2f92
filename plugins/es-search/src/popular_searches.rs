//! `GET <site>/@popular-searches`: the terms of `wcs.backend.search.popular_searches`, each
//! with the `@es-search` request that runs it.

use crate::records::POPULAR_SEARCHES;
use serde_json::{Value, json};
use wcs_core::http::{ApiResult, Ctx, QUERY_COMPONENT, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Service};

/// The service.
pub static POPULAR: Service = Service {
    method: Method::GET,
    name: "@popular-searches",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "Popular search terms, each with its @es-search URL",
        wcs_core::untyped!(|ctx| Box::pin(popular(ctx))),
    )],
};

async fn popular(ctx: Ctx) -> ApiResult<Response> {
    let terms = ctx.app.record_value(&POPULAR_SEARCHES).await?;
    let url = ctx.url_of(&ctx.context);
    let items: Vec<Value> = terms
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|term| {
            let encoded = percent_encoding::utf8_percent_encode(term, QUERY_COMPONENT);
            json!({"title": term, "@id": format!("{url}/@es-search?SearchableText={encoded}")})
        })
        .collect();
    Ok(json(&json!({"@id": ctx.request.service_url, "items": items})))
}
