//! `POST <container>`: create content.

use crate::http::{ApiResult, Ctx, json_with_status};
use crate::ops;
use crate::security::{Csrf, Permission};
use crate::serialize::serialize_content;
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::Value;

/// Creates a child; 201 with `Location` and the new object's serialization.
pub static POST: Service = Service {
    method: Method::POST,
    name: "",
    kind: ContentKind::Folderish,
    permission: Permission::ADD_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any("Create a child object", crate::untyped!(|ctx| Box::pin(post(ctx))))],
};

async fn post(ctx: Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let may_set_uid = ctx.allows(Permission::MANAGE_PORTAL);
    let visibility = ctx.visibility();
    let origin = ops::WriteOrigin { base_url: &ctx.request.base_url, visibility: &visibility };
    let object = ops::create(&ctx.app, &ctx.context, &body, ctx.principal.actor(), may_set_uid, &origin).await?;
    let options = ctx.serialize_options()?;
    let serialized = serialize_content(&ctx.serialize_ctx(&options, &visibility), &object, Some(&ctx.context)).await?;
    let mut response = json_with_status(StatusCode::CREATED, &Value::Object(serialized));
    if let Ok(location) = ctx.url_of(&object).parse() {
        response.headers_mut().insert("location", location);
    }
    Ok(response)
}
