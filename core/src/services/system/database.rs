//! `GET <site>/@database`.

use super::backend_name;
use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::json;

/// The service.
pub static DATABASE: Service = Service {
    method: Method::GET,
    name: "@database",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The storage backend: its name, size in bytes and number of objects",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site_url = ctx.site_url();
    let (bytes, objects) = ctx.app.store.database_size().await?;
    Ok(json(&json!({
        "@id": format!("{site_url}/@database"),
        "db_name": backend_name(&ctx.app),
        "db_size": bytes,
        "database_size": objects,
        "cache_length": 0,
        "cache_length_bytes": 0,
        "cache_size": 0,
        "cache_detail_length": [],
    })))
}
