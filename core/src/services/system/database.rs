//! `GET <site>/@database`.

use super::backend_name;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// The service.
pub static DATABASE: Service = Service {
    method: Method::GET,
    name: "@database",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "The storage backend: its name, size in bytes and number of objects", endpoint!(get))],
};

/// `GET @database` in plone.restapi's keys (which Volto's database page shows), filled with
/// this server's storage figures; the ZODB cache keys have nothing to report and stay zero.
#[derive(Object)]
struct DatabaseInfo {
    /// The endpoint's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The storage backend: `SQLite` or `PostgreSQL`.
    db_name: String,
    /// The storage's size in bytes.
    db_size: i64,
    /// How many objects are stored.
    database_size: i64,
    /// Always 0: there is no object cache.
    cache_length: i64,
    /// Always 0.
    cache_length_bytes: i64,
    /// Always 0.
    cache_size: i64,
    /// Always empty.
    cache_detail_length: Vec<String>,
}

async fn get(ctx: Ctx) -> ApiResult<Json<DatabaseInfo>> {
    let (bytes, objects) = ctx.app.store.database_size().await?;
    Ok(Json(DatabaseInfo {
        url: format!("{}/@database", ctx.site_url()),
        db_name: backend_name(&ctx.app).to_owned(),
        db_size: bytes,
        database_size: objects,
        cache_length: 0,
        cache_length_bytes: 0,
        cache_size: 0,
        cache_detail_length: Vec::new(),
    }))
}
