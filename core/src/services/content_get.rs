//! `GET <obj>`: the full serialization.

use super::content_query::CONTENT_QUERY;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Dyn};
use crate::security::{Csrf, Permission};
use crate::serialize::{ContentShape, serialize_content};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Serializes the object, with `items` for containers.
pub static GET: Service = Service {
    method: Method::GET,
    name: "",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: CONTENT_QUERY,
        cacheable: true,
        ..Route::new("", "Serialize the object (folders list their items, batched)", endpoint!(get))
    }],
};

async fn get(ctx: Ctx) -> ApiResult<Dyn<ContentShape>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let body = serialize_content(&ctx.serialize_ctx(&options, &visibility), &ctx.context, ctx.visible_parent()).await?;
    Dyn::serialized(&body)
}
