//! `GET <site>/@plugins`: the plugins linked into this build, whether each was built at start
//! and is on now (see `@addons`), what it depends on, and what it contributes.

use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::plugin::PluginDescriptor;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// The service.
pub static PLUGINS: Service = Service {
    method: Method::GET,
    name: "@plugins",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "The linked plugins: built, on, dependencies and contributions (services, components, types, panels, \
         request hooks, records)",
        endpoint!(get),
    )],
};

/// `GET @plugins`.
#[derive(Object)]
struct PluginList {
    /// The endpoint's URL.
    #[oai(rename = "@id")]
    url: String,
    /// Every plugin linked into the build, by id.
    items: Vec<PluginInfo>,
}

/// A plugin and what it adds, so an administrator can tell what switching it off takes away.
#[derive(Object)]
struct PluginInfo {
    /// Its id, as `--disable-plugins` and `@addons` name it.
    id: String,
    /// Whether it was built at start (not left out with `--disable-plugins`).
    built: bool,
    /// Whether it is on now (built and not switched off through `@addons`).
    enabled: bool,
    /// The plugins it needs.
    depends_on: Vec<String>,
    /// Its services, as `METHOD @name`.
    services: Vec<String>,
    /// Its `@components` entries.
    components: Vec<String>,
    /// The content types it defines.
    types: Vec<String>,
    /// Its control panels.
    control_panels: Vec<String>,
    /// Its request hooks.
    request_hooks: Vec<String>,
    /// Its registry records.
    records: Vec<String>,
}

fn owned(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| (*name).to_owned()).collect()
}

async fn get(ctx: Ctx) -> ApiResult<Json<PluginList>> {
    let registry = &ctx.app.registry;
    let mut linked: Vec<&'static PluginDescriptor> = inventory::iter::<PluginDescriptor>.into_iter().collect();
    linked.sort_by_key(|d| d.id);
    let items = linked
        .into_iter()
        .map(|descriptor| {
            let id = descriptor.id;
            let built = registry.plugin_ids().contains(&id);
            let mut types: Vec<String> =
                ctx.app.types.all().map(|t| t.id.clone()).filter(|t| ctx.app.types.defined_by(t) == Some(id)).collect();
            types.sort_unstable();
            let contributions = registry.contributions(id);
            PluginInfo {
                id: id.to_owned(),
                built,
                enabled: built && registry.is_on(id),
                depends_on: owned(descriptor.depends_on),
                services: contributions.services,
                components: owned(&contributions.components),
                types,
                control_panels: owned(&contributions.control_panels),
                request_hooks: owned(&contributions.request_hooks),
                records: owned(&contributions.records),
            }
        })
        .collect();
    Ok(Json(PluginList { url: format!("{}/@plugins", ctx.site_url()), items }))
}
