//! `GET <obj>/@content-rules`: content rules cannot be configured on this server; the answer
//! says there are none, in plone.restapi's shape.

use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::json;

/// The service.
pub static CONTENT_RULES: Service = Service {
    method: Method::GET,
    name: "@content-rules",
    kind: ContentKind::Any,
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The content rules of the object: none (rules are not configurable here)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    Ok(json(&json!({
        "@id": format!("{}/@content-rules", ctx.url_of(&ctx.context)),
        "content-rules": {"acquired_rules": [], "assigned_rules": [], "assignable_rules": []},
    })))
}
