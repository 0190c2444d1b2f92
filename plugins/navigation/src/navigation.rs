//! `@navigation`: Home plus the navigation root's tree, `expand.navigation.depth` levels deep.

use crate::tree::{MAX_DEPTH, NavItem, navigation_items};
use poem_openapi::Object;
use serde::Serialize;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, Direct, JsonText};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::{Component, Expanded, SerializeCtx, Subject};
use wcs_core::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};

/// The navigation tree seen from the object.
pub static NAVIGATION: Service = Service {
    method: Method::GET,
    name: "@navigation",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        cacheable: true,
        query: &[QueryParam::new(
            "expand.navigation.depth",
            ParamKind::Integer,
            "Levels of the tree, 1 to 10 (default 1)",
        )],
        ..Route::new("", "Navigation tree; subtopics appear under every main topic", endpoint!(get))
    }],
};

/// `@components.navigation`; `expand=navigation` inlines the same body.
pub static NAVIGATION_COMPONENT: Component = Component {
    name: "navigation",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| Box::pin(async move { Expanded::text(&navigation(ctx, subject).await?) }),
};

// Written by serde, the items as the kept text of the shared tree: the names here are the
// document's (`oai`) and the wire's (`serde`) and must agree.
/// `GET @navigation`.
#[derive(Object, Serialize)]
struct Navigation {
    /// The endpoint's URL on the object.
    #[oai(rename = "@id")]
    #[serde(rename = "@id")]
    url: String,
    /// Home, then the navigation root's children with their subtrees.
    items: JsonText<Vec<NavItem>>,
}

async fn get(ctx: Ctx) -> ApiResult<Direct<Navigation>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.listing_visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Direct::new(&navigation(&sctx, ctx.subject()).await?)
}

async fn navigation(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Navigation> {
    let depth = requested_depth(ctx.query)?;
    let items = navigation_items(ctx, depth).await?;
    Ok(Navigation { url: format!("{}/@navigation", subject.object.url(ctx.base_url)), items })
}

fn requested_depth(query: &[(String, String)]) -> ApiResult<usize> {
    let Some((_, text)) = query.iter().find(|(k, _)| k == "expand.navigation.depth") else {
        return Ok(1);
    };
    text.parse::<usize>().ok().filter(|d| (1..=MAX_DEPTH).contains(d)).ok_or_else(|| {
        ApiError::invalid_parameter(
            "expand.navigation.depth",
            format!("'expand.navigation.depth' must be a number from 1 to {MAX_DEPTH}."),
        )
    })
}
