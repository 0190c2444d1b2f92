//! `GET <site>/@popular-searches`: the terms of `wcs.backend.search.popular_searches`, each
//! with the `@es-search` request that runs it.

use crate::records::POPULAR_SEARCHES;
use poem_openapi::Object;
use serde_json::Value;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Json, QUERY_COMPONENT};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The service.
pub static POPULAR: Service = Service {
    method: Method::GET,
    name: "@popular-searches",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Popular search terms, each with its @es-search URL", endpoint!(popular))],
};

/// `GET @popular-searches`.
#[derive(Object)]
struct PopularSearches {
    /// The request's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The terms, in the record's order.
    items: Vec<PopularSearch>,
}

/// A popular term.
#[derive(Object)]
struct PopularSearch {
    /// The term.
    title: String,
    /// The `@es-search` request for it, below the object asked.
    #[oai(rename = "@id")]
    url: String,
}

async fn popular(ctx: Ctx) -> ApiResult<Json<PopularSearches>> {
    let terms = ctx.app.record_value(&POPULAR_SEARCHES).await?;
    let url = ctx.url_of(&ctx.context);
    let items = terms
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|term| {
            let encoded = percent_encoding::utf8_percent_encode(term, QUERY_COMPONENT);
            PopularSearch { title: term.to_owned(), url: format!("{url}/@es-search?SearchableText={encoded}") }
        })
        .collect();
    Ok(Json(PopularSearches { url: ctx.request.service_url.clone(), items }))
}
