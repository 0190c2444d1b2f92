//! `GET <site>/@system`.

use super::{VERSION, backend_name, search_engine};
use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::json;

/// The plone.restapi release whose wire shapes this server speaks (Volto enables features,
/// such as the group-membership panel, from it).
const PLONE_RESTAPI_COMPATIBLE: &str = "9.15.0";

/// The service.
pub static SYSTEM: Service = Service {
    method: Method::GET,
    name: "@system",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "System information: server version, storage backend, search engine, plugins",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site_url = ctx.site_url();
    let server = format!("wcs-backend {VERSION}");
    // Plone's keys, which Volto's page shows, carry this server's own answers.
    Ok(json(&json!({
        "@id": format!("{site_url}/@system"),
        "wcs_backend_version": VERSION,
        "plone_version": server,
        // The plone.restapi version whose shapes this server answers; Volto compares it.
        "plone_restapi_version": PLONE_RESTAPI_COMPATIBLE,
        "plone_gs_metadata_version_installed": VERSION,
        "plone_gs_metadata_version_file_system": VERSION,
        "zope_version": "none (Rust)",
        "cmf_version": "none",
        "python_version": "none (Rust)",
        "pil_version": "image crate",
        "debug_mode": if cfg!(debug_assertions) { "Yes" } else { "No" },
        "upgrade": false,
        "storage": backend_name(&ctx.app),
        "search_engine": search_engine(&ctx.app),
        "plugins": ctx.app.registry.plugin_ids(),
    })))
}
