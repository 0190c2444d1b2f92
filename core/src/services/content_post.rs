//! `POST <container>`: create content.

use crate::endpoint;
use crate::http::{ApiResult, Ctx, DynCreated, shape_schema};
use crate::ops;
use crate::security::{Csrf, Permission};
use crate::serialize::{ContentShape, serialize_content};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::payload::Response;

/// Creates a child; 201 with `Location` and the new object's serialization.
pub static POST: Service = Service {
    method: Method::POST,
    name: "",
    kind: ContentKind::Folderish,
    guard: Guard::Has(Permission::ADD_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<ContentShape>),
        ..Route::new("", "Create a child object: `@type` and its fields; `Location` names it", endpoint!(post))
    }],
};

async fn post(ctx: Ctx) -> ApiResult<Response<DynCreated<ContentShape>>> {
    let body = ctx.json_body()?;
    let may_set_uid = ctx.allows(Permission::MANAGE_PORTAL);
    let visibility = ctx.visibility();
    let origin = ops::WriteOrigin { base_url: &ctx.request.base_url, visibility: &visibility };
    let object = ops::create(&ctx.app, &ctx.context, &body, ctx.principal.actor(), may_set_uid, &origin).await?;
    let options = ctx.serialize_options()?;
    let serialized = serialize_content(&ctx.serialize_ctx(&options, &visibility), &object, Some(&ctx.context)).await?;
    Ok(Response::new(DynCreated::serialized(&serialized)?).header("Location", ctx.url_of(&object)))
}
