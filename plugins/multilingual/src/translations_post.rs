//! `POST <obj>/@translations` `{"id": <url, path or uid>}`: links an existing object as a
//! translation of this one. Both must be the caller's to change.

use crate::store::link;
use crate::target::named_object;
use poem_openapi::Object;
use poem_openapi::payload::Response;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Created, Ctx, ErrorCode};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The service.
pub static POST: Service = Service {
    method: Method::POST,
    name: "@translations",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Link an object as a translation of this one: {id: URL, path or UID}; 201, Location names this object",
        endpoint!(post),
    )],
};

/// The answer: an empty object, as plone.restapi gives.
#[derive(Object)]
struct Linked {}

async fn post(ctx: Ctx) -> ApiResult<Response<Created<Linked>>> {
    let body = ctx.json_body()?;
    let reference =
        body.get("id").ok_or_else(|| ApiError::new(ErrorCode::MissingProperty, "Property 'id' is required."))?;
    let site_path = format!("/{}", ctx.context.site_id());
    let translation = named_object(&ctx.app, &site_path, &ctx.visibility(), "id", reference).await?;
    ctx.check_on(&translation, Permission::MODIFY_PORTAL_CONTENT).await?;
    let mut tx = ctx.app.store.begin().await?;
    link(&mut tx, &ctx.context, &translation).await?;
    tx.commit().await?;
    Ok(Response::new(Created::new(Linked {})).header("Location", ctx.url_of(&ctx.context)))
}
