//! `GET <site>/@openapi`: the OpenAPI document of what this server serves now, as at
//! `/openapi.json` (plugins switched off are absent from both).

use crate::http::{ApiError, ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// The service.
pub static OPENAPI: Service = Service {
    method: Method::GET,
    name: "@openapi",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The OpenAPI 3.1 document of this server, as at /openapi.json",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let document = ctx.app.settings.openapi.ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    Ok(json(&document(&ctx.app.registry)))
}
