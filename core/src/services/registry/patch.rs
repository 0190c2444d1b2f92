//! `PATCH <site>/@registry`.

use crate::endpoint;
use crate::http::schema::{any, object};
use crate::http::{ApiError, ApiResult, Ctx, FieldError, NoContent, Shape, shape_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::registry::{MetaSchema, Registry};

/// Changes records: `{"<name>": <value>, …}`; all or nothing.
pub static REGISTRY_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@registry",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<RegistryChangesShape>),
        ..Route::new("", "Change registry records; every value is checked before any is written", endpoint!(patch))
    }],
};

/// The body of a change.
struct RegistryChangesShape;

impl Shape for RegistryChangesShape {
    const NAME: &'static str = "RegistryChanges";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema {
            additional_properties: Some(Box::new(any())),
            ..object(
                "New values by record name, each of the record's declared type; an unknown name or a value that \
                 does not fit refuses the whole change",
                vec![],
                &[],
            )
        }
    }
}

async fn patch(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let mut writes = Vec::with_capacity(body.len());
    for (name, value) in &body {
        match ctx.app.registry.record(name) {
            None => errors.push(FieldError::new(name, format!("'{name}' is not a registry record."))),
            Some(record) => match record.validate(value) {
                Ok(()) if record.keeps_stored(value) => {}
                Ok(()) => writes.push((record.name, value.to_string())),
                Err(message) => errors.push(FieldError::new(name, message)),
            },
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    crate::services::records_save::save_records(&ctx.app, ctx.principal.actor(), &writes).await?;
    Ok(NoContent::NoContent)
}
