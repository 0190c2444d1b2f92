//! `@addons`: the plugins linked into this build. Those built at start (cargo features,
//! `--disable-plugins`) can be switched off and on again while running:
//! `POST @addons/<id>/uninstall` takes away their endpoints, serializer keys, components,
//! panels, request hooks and full-text search, and new objects of their types; their data and
//! background work stay, so nothing is lost and `install` brings everything back. The choice
//! is kept in the record `wcs.backend.plugins.switched_off`, which applies at every start.

use super::VERSION;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, NoContent};
use crate::plugin::PluginDescriptor;
use crate::plugin::SWITCHED_OFF_PLUGINS;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::json;

/// The list.
pub static ADDONS: Service = Service {
    method: Method::GET,
    name: "@addons",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "The plugins linked into this build; installed ones are on", endpoint!(get))],
};

/// Install (switch on) or uninstall (switch off) a plugin.
pub static ADDONS_POST: Service = Service {
    method: Method::POST,
    name: "@addons",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new(
            "{id}/install",
            "Switch a plugin built at start on again, with what it depends on",
            endpoint!(install),
        ),
        Route::new(
            "{id}/uninstall",
            "Switch a plugin off: its endpoints, components, panels and hooks go, its data stays",
            endpoint!(uninstall),
        ),
    ],
};

/// `GET @addons`: plone.restapi's add-on listing, one entry per linked plugin.
#[derive(Object)]
struct AddonList {
    /// The listing's URL.
    #[oai(rename = "@id")]
    url: String,
    /// Every plugin linked into the build, by id.
    items: Vec<Addon>,
}

/// A plugin in plone.restapi's add-on shape; the profile ids are Plone's conventions, which
/// Volto's add-on panel shows.
#[derive(Object)]
struct Addon {
    /// Its URL; `POST <it>/install` or `/uninstall` switches it.
    #[oai(rename = "@id")]
    url: String,
    /// The plugin id.
    id: String,
    /// Its title: the id.
    title: String,
    /// What it is, and whether it was left out at start (then it cannot be switched on).
    description: String,
    /// Whether it was built at start and is on now.
    is_installed: bool,
    /// `<id>:default`.
    install_profile_id: String,
    /// `<id>:uninstall`.
    uninstall_profile_id: String,
    /// Always `default`.
    profile_type: String,
    /// Pending upgrades: none ever, since migrations run at start.
    upgrade_info: NoUpgrade,
    /// The server's version, which every plugin shares.
    version: String,
}

/// An empty object: there is never an upgrade to offer.
#[derive(Object)]
struct NoUpgrade {}

fn linked() -> Vec<&'static PluginDescriptor> {
    let mut all: Vec<&'static PluginDescriptor> = inventory::iter::<PluginDescriptor>.into_iter().collect();
    all.sort_by_key(|d| d.id);
    all
}

async fn get(ctx: Ctx) -> ApiResult<Json<AddonList>> {
    let site_url = ctx.site_url();
    let registry = &ctx.app.registry;
    let items = linked()
        .into_iter()
        .map(|descriptor| {
            let id = descriptor.id;
            let built = registry.plugin_ids().contains(&id);
            Addon {
                url: format!("{site_url}/@addons/{id}"),
                id: id.to_owned(),
                title: id.to_owned(),
                description: if built {
                    format!("The {id} plugin of wcs-backend.")
                } else {
                    format!("The {id} plugin of wcs-backend; left out at start (--disable-plugins).")
                },
                is_installed: built && registry.is_on(id),
                install_profile_id: format!("{id}:default"),
                uninstall_profile_id: format!("{id}:uninstall"),
                profile_type: "default".to_owned(),
                upgrade_info: NoUpgrade {},
                version: VERSION.to_owned(),
            }
        })
        .collect();
    Ok(Json(AddonList { url: format!("{site_url}/@addons"), items }))
}

async fn install(ctx: Ctx) -> ApiResult<NoContent> {
    switch(&ctx, true).await
}

async fn uninstall(ctx: Ctx) -> ApiResult<NoContent> {
    switch(&ctx, false).await
}

/// Switches the plugin `{id}` on or off, refusing to switch off one that an enabled plugin
/// needs, and keeps the choice for the next start.
async fn switch(ctx: &Ctx, on: bool) -> ApiResult<NoContent> {
    let id = ctx.param("id");
    let descriptors = linked();
    let descriptor = descriptors
        .iter()
        .find(|d| d.id == id)
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("There is no plugin '{id}'.")))?;
    let registry = &ctx.app.registry;
    if !on
        && let Some(dependent) = descriptors
            .iter()
            .find(|d| d.depends_on.contains(&id) && registry.plugin_ids().contains(&d.id) && registry.is_on(d.id))
    {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("'{}' needs '{id}': switch it off first.", dependent.id),
        ));
    }
    registry.switch(id, on, descriptor.depends_on).map_err(|message| ApiError::new(ErrorCode::BadRequest, message))?;
    let off: Vec<&str> = registry.switched_off();
    let mut tx = ctx.app.store.begin().await?;
    tx.set_record(SWITCHED_OFF_PLUGINS.name, &json!(off).to_string()).await?;
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
