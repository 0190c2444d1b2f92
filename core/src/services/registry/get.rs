//! `GET <site>/@registry[/<name>]`.

use crate::http::{ApiError, ApiResult, Batch, Ctx, batching_links, json};
use crate::records::RecordDef;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::json;

/// Lists records (`?q=<prefix>`, batched) or, with a name segment, answers one bare value.
pub static REGISTRY_GET: Service = Service {
    method: Method::GET,
    name: "@registry",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "List registry records (q: name prefix; batched) or GET @registry/<name> for one value",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
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
