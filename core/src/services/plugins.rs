//! `GET <site>/@plugins`: the plugins linked into this build, whether each was built at start
//! and is on now (see `@addons`), what it depends on, and what it contributes.

use crate::http::{ApiResult, Ctx, json};
use crate::plugin::PluginDescriptor;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The service.
pub static PLUGINS: Service = Service {
    method: Method::GET,
    name: "@plugins",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The linked plugins: built, on, dependencies and contributions (services, components, types, \
              panels, request hooks, records)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let registry = &ctx.app.registry;
    let mut linked: Vec<&'static PluginDescriptor> = inventory::iter::<PluginDescriptor>.into_iter().collect();
    linked.sort_by_key(|d| d.id);
    let items: Vec<Value> = linked
        .into_iter()
        .map(|descriptor| {
            let id = descriptor.id;
            let built = registry.plugin_ids().contains(&id);
            let mut types: Vec<&str> = ctx
                .app
                .types
                .all()
                .map(|t| t.id.as_str())
                .filter(|t| ctx.app.types.defined_by(t) == Some(id))
                .collect();
            types.sort_unstable();
            let contributions = registry.contributions(id);
            json!({
                "id": id,
                "built": built,
                "enabled": built && registry.is_on(id),
                "depends_on": descriptor.depends_on,
                "services": contributions.services,
                "components": contributions.components,
                "types": types,
                "control_panels": contributions.control_panels,
                "request_hooks": contributions.request_hooks,
                "records": contributions.records,
            })
        })
        .collect();
    let site_url = ctx.site_url();
    Ok(json(&json!({"@id": format!("{site_url}/@plugins"), "items": items})))
}
