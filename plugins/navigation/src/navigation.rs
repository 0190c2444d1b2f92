//! `@navigation`: Home plus the navigation root's tree, `expand.navigation.depth` levels deep.

use crate::tree::{MAX_DEPTH, navigation_items};
use serde_json::{Value, json};
use wcs_core::http::{ApiError, ApiResult, Ctx, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::{Component, SerializeCtx, Subject};
use wcs_core::service::{ContentKind, Service};

/// The navigation tree seen from the object.
pub static NAVIGATION: Service = Service {
    method: Method::GET,
    name: "@navigation",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "Navigation tree (expand.navigation.depth levels, default 1); subtopics appear under every \
              main topic",
        wcs_core::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// `@components.navigation`; `expand=navigation` inlines the same body.
pub static NAVIGATION_COMPONENT: Component =
    Component { name: "navigation", kind: ContentKind::Any, expand: |ctx, subject| Box::pin(navigation(ctx, subject)) };

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(json(&navigation(&sctx, ctx.subject()).await?))
}

async fn navigation(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    let depth = requested_depth(ctx.query)?;
    let items = navigation_items(ctx, depth).await?;
    Ok(json!({"@id": format!("{}/@navigation", subject.object.url(ctx.base_url)), "items": *items}))
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

fn schema() -> Value {
    let item = json!({
        "type": "object",
        "properties": {
            "@id": {"type": "string"}, "title": {"type": "string"}, "description": {"type": "string"},
            "review_state": {"type": ["string", "null"]}, "portal_type": {"type": "string"},
            "icon": {"type": "string"}, "is_current": {"type": "boolean"}, "is_in_path": {"type": "boolean"},
            "items": {"type": "array"},
        },
    });
    json!({"type": "object", "properties": {"@id": {"type": "string"}, "items": {"type": "array", "items": item}}})
}
