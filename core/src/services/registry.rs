//! `@registry`: the declared registry records (Manage portal). Server secrets share the
//! storage table but are never declared, so they can be neither read nor written here.

use crate::http::{ApiError, ApiResult, Batch, Ctx, FieldError, batching_links, json};
use crate::records::RecordDef;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::json;

/// Lists records (`?q=<prefix>`, batched) or, with a name segment, answers one bare value.
pub static REGISTRY_GET: Service = Service {
    method: Method::GET,
    name: "@registry",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    summary: "List registry records (q: name prefix; batched) or GET @registry/<name> for one value",
    request_schema: None,
    response_schema: Some(super::schemas::registry),
    handler: |ctx| Box::pin(get(ctx)),
};

/// Changes records: `{"<name>": <value>, …}`; all or nothing.
pub static REGISTRY_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@registry",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    summary: "Change registry records: {\"<name>\": value}; every value is checked before any is written (204)",
    request_schema: Some(|| json!({"type": "object", "additionalProperties": true})),
    response_schema: None,
    handler: |ctx| Box::pin(patch(ctx)),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    if let Some(name) = ctx.subpath.first() {
        let record = ctx.app.registry.record(name).ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
        return Ok(json(&ctx.app.record_value(record).await?));
    }
    let prefix = ctx.request.query_value("q").unwrap_or_default();
    let matching: Vec<&RecordDef> = ctx.app.registry.records().filter(|r| r.name.starts_with(prefix)).collect();
    let batch = Batch::from_query(&ctx.request.query)?;
    let total = matching.len() as i64;
    let mut items = Vec::new();
    for record in matching.iter().skip(batch.start as usize).take(batch.size as usize) {
        let value = ctx.app.record_value(record).await?;
        items.push(json!({"name": record.name, "value": value, "schema": record.schema()}));
    }
    let mut body = json!({"@id": ctx.request.service_url, "items": items, "items_total": total});
    if let Some(links) = batching_links(&ctx.request.service_url, &ctx.request.query, batch, total) {
        body["batching"] = links;
    }
    Ok(json(&body))
}

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
