//! `GET <site>/@system`.

use super::{VERSION, backend_name, search_engine};
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// The plone.restapi release whose wire shapes this server speaks (Volto enables features,
/// such as the group-membership panel, from it).
const PLONE_RESTAPI_COMPATIBLE: &str = "9.15.0";

/// The service.
pub static SYSTEM: Service = Service {
    method: Method::GET,
    name: "@system",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "System information: server version, storage backend, search engine, plugins",
        endpoint!(get),
    )],
};

/// `GET @system`: Plone's keys, which Volto's system page shows, carry this server's own
/// answers; the last keys are this server's.
#[derive(Object)]
struct SystemInfo {
    /// The endpoint's URL.
    #[oai(rename = "@id")]
    url: String,
    /// This server's version.
    wcs_backend_version: String,
    /// `wcs-backend <version>`, where Plone names its own version.
    plone_version: String,
    /// The plone.restapi version whose shapes this server answers; Volto compares it.
    plone_restapi_version: String,
    /// This server's version.
    plone_gs_metadata_version_installed: String,
    /// This server's version.
    plone_gs_metadata_version_file_system: String,
    /// `none (Rust)`.
    zope_version: String,
    /// `none`.
    cmf_version: String,
    /// `none (Rust)`.
    python_version: String,
    /// What scales images: `image crate`.
    pil_version: String,
    /// `Yes` in a debug build, else `No`.
    debug_mode: String,
    /// Whether an upgrade is pending: never, migrations run at start.
    upgrade: bool,
    /// The storage backend: `SQLite` or `PostgreSQL`.
    storage: String,
    /// What answers full-text queries.
    search_engine: String,
    /// The plugins built at start.
    plugins: Vec<String>,
}

async fn get(ctx: Ctx) -> ApiResult<Json<SystemInfo>> {
    let none_rust = || "none (Rust)".to_owned();
    Ok(Json(SystemInfo {
        url: format!("{}/@system", ctx.site_url()),
        wcs_backend_version: VERSION.to_owned(),
        plone_version: format!("wcs-backend {VERSION}"),
        plone_restapi_version: PLONE_RESTAPI_COMPATIBLE.to_owned(),
        plone_gs_metadata_version_installed: VERSION.to_owned(),
        plone_gs_metadata_version_file_system: VERSION.to_owned(),
        zope_version: none_rust(),
        cmf_version: "none".to_owned(),
        python_version: none_rust(),
        pil_version: "image crate".to_owned(),
        debug_mode: if cfg!(debug_assertions) { "Yes" } else { "No" }.to_owned(),
        upgrade: false,
        storage: backend_name(&ctx.app).to_owned(),
        search_engine: search_engine(&ctx.app),
        plugins: ctx.app.registry.plugin_ids().iter().map(|id| (*id).to_owned()).collect(),
    }))
}
