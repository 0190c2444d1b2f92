//! `PATCH <site>/@registry`.

use crate::http::{ApiError, ApiResult, Ctx, FieldError};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::json;

/// Changes records: `{"<name>": <value>, …}`; all or nothing.
pub static REGISTRY_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@registry",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Change registry records: {\"<name>\": value}; every value is checked before any is written (204)",
        crate::untyped!(|ctx| Box::pin(patch(ctx))),
    )],
};

async fn patch(ctx: Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let mut writes = Vec::with_capacity(body.len());
    for (name, value) in &body {
        match ctx.app.registry.record(name) {
            None => errors.push(FieldError::new(name, format!("'{name}' is not a registry record."))),
            Some(record) => match record.kind.validate(value) {
                Ok(()) => writes.push((record.name, value.to_string())),
                Err(message) => errors.push(FieldError::new(name, message)),
            },
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let mut tx = ctx.app.store.begin().await?;
    for (name, value) in &writes {
        tx.set_record(name, value).await?;
    }
    tx.commit().await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
