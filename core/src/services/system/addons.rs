//! `@addons`: the plugins linked into this build. Those built at start (cargo features,
//! `--disable-plugins`) can be switched off and on again while running:
//! `POST @addons/<id>/uninstall` takes away their endpoints, serializer keys, components,
//! panels, request hooks and full-text search, and new objects of their types; their data and
//! background work stay, so nothing is lost and `install` brings everything back. The choice
//! is kept in the record `wcs.backend.plugins.switched_off`, which applies at every start.

use super::VERSION;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::plugin::PluginDescriptor;
use crate::records::{RecordDef, RecordKind};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::{Value, json};

/// The plugins switched off at run time.
pub static SWITCHED_OFF: RecordDef = RecordDef {
    name: "wcs.backend.plugins.switched_off",
    title: "Plugins switched off",
    description: "Plugins built into the server but switched off (Site Setup's add-ons); applied at every start.",
    kind: RecordKind::TextList,
    default: || json!([]),
};

/// The list.
pub static ADDONS: Service = Service {
    method: Method::GET,
    name: "@addons",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The plugins linked into this build; installed ones are on",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// Install (switch on) or uninstall (switch off) a plugin.
pub static ADDONS_POST: Service = Service {
    method: Method::POST,
    name: "@addons",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "POST @addons/<id>/install|uninstall: switch a plugin built at start on or off (204)",
        crate::untyped!(|ctx| Box::pin(post(ctx))),
    )],
};

fn linked() -> Vec<&'static PluginDescriptor> {
    let mut all: Vec<&'static PluginDescriptor> = inventory::iter::<PluginDescriptor>.into_iter().collect();
    all.sort_by_key(|d| d.id);
    all
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site_url = ctx.site_url();
    let registry = &ctx.app.registry;
    let items: Vec<Value> = linked()
        .into_iter()
        .map(|descriptor| {
            let id = descriptor.id;
            let built = registry.plugin_ids().contains(&id);
            json!({
                "@id": format!("{site_url}/@addons/{id}"),
                "id": id,
                "title": id,
                "description": if built {
                    format!("The {id} plugin of wcs-backend.")
                } else {
                    format!("The {id} plugin of wcs-backend; left out at start (--disable-plugins).")
                },
                "is_installed": built && registry.is_on(id),
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
    let (id, on) = match ctx.subpath.as_slice() {
        [id, action] if action == "install" => (id.as_str(), true),
        [id, action] if action == "uninstall" => (id.as_str(), false),
        _ => return Err(ApiError::invalid_parameter("action", "Use POST @addons/<id>/install or …/uninstall.")),
    };
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
    tx.set_record(SWITCHED_OFF.name, &json!(off).to_string()).await?;
    tx.commit().await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
