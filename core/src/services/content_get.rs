//! `GET <obj>`: the full serialization.

use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::serialize::serialize_content;
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::Value;

/// Serializes the object, with `items` for containers.
pub static GET: Service = Service {
    method: Method::GET,
    name: "",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Serialize the object (folders list their items, batched)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let body = serialize_content(&ctx.serialize_ctx(&options, &visibility), &ctx.context, ctx.visible_parent()).await?;
    Ok(json(&Value::Object(body)))
}
