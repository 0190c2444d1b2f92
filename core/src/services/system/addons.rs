//! `GET <site>/@addons`: the plugins linked into this build, installed when enabled. Plugins
//! are chosen when the server starts (cargo features, `--disable-plugins`), so installing or
//! uninstalling one through `POST @addons/<id>/install|uninstall` is refused with how to do it.

use super::VERSION;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::plugin::PluginDescriptor;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The list.
pub static ADDONS: Service = Service {
    method: Method::GET,
    name: "@addons",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    summary: "The plugins linked into this build; installed ones are enabled",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(get(ctx)),
};

/// Install or uninstall: refused, plugins are switched at start.
pub static ADDONS_POST: Service = Service {
    method: Method::POST,
    name: "@addons",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    summary: "Install or uninstall a plugin: refused (400); restart with or without --disable-plugins",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(post(ctx)),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site_url = format!("{}/{}", ctx.request.base_url, ctx.context.site_id());
    let enabled = ctx.app.registry.plugin_ids();
    let mut linked: Vec<&'static str> = inventory::iter::<PluginDescriptor>.into_iter().map(|d| d.id).collect();
    linked.sort_unstable();
    let items: Vec<Value> = linked
        .into_iter()
        .map(|id| {
            json!({
                "@id": format!("{site_url}/@addons/{id}"),
                "id": id,
                "title": id,
                "description": format!("The {id} plugin of wcs-backend."),
                "is_installed": enabled.contains(&id),
                "install_profile_id": format!("{id}:default"),
                "uninstall_profile_id": format!("{id}:uninstall"),
                "profile_type": "default",
                "upgrade_info": {},
                "version": VERSION,
            })
        })
        .collect();
    Ok(json(&json!({"@id": format!("{site_url}/@addons"), "items": items})))
}

async fn post(ctx: Ctx) -> ApiResult<Response> {
    let id = ctx.subpath.first().map(String::as_str).unwrap_or_default();
    Err(ApiError::new(
        ErrorCode::BadRequest,
        format!(
            "Plugins are switched when the server starts: restart it with '--disable-plugins {id}' to uninstall \
             '{id}', or without it to install it."
        ),
    ))
}
