//! `GET <site>/@openapi`: the OpenAPI document of what this server serves now, as at
//! `/openapi.json` (plugins switched off are absent from both).

use crate::content::type_openapi::with_type_schemas;
use crate::endpoint;
use crate::http::schema::{any_object, object, string};
use crate::http::{ApiError, ApiResult, Ctx, Dyn, Shape};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::registry::{MetaSchema, Registry};

/// The service.
pub static OPENAPI: Service = Service {
    method: Method::GET,
    name: "@openapi",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "The OpenAPI 3.0 document of this server, as at /openapi.json", endpoint!(get))],
};

/// The document: its paths and schemas are whatever the services now on declare.
struct OpenApiDocumentShape;

impl Shape for OpenApiDocumentShape {
    const NAME: &'static str = "OpenApiDocument";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "An OpenAPI 3.0 document of the services this server answers now",
            vec![("openapi", string()), ("info", any_object()), ("paths", any_object()), ("components", any_object())],
            &["openapi", "info", "paths"],
        )
    }
}

async fn get(ctx: Ctx) -> ApiResult<Dyn<OpenApiDocumentShape>> {
    let document = ctx.app.settings.openapi.ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    Ok(Dyn::new(with_type_schemas(document(&ctx.app.registry), &ctx.app.types)))
}
