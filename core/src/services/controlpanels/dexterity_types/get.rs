//! `GET @controlpanels/dexterity-types`: the content types with how many objects each has;
//! `…/<type>`: one type's settings form.

use super::render::{GROUP, TITLE, in_installation_order, listing_item, panel_url, type_settings};
use super::shapes::{TypeSettingsShape, TypesPanelShape};
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Dyn};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::types::unknown_type;
use poem::http::Method;
use serde_json::json;

/// Reads the panel.
pub static GET: Service = Service {
    method: Method::GET,
    name: "@controlpanels/dexterity-types",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "The content types, with how many objects each has", endpoint!(list)),
        Route::new(
            "{type}",
            "One content type's settings: title, description, allowed types, behaviours",
            endpoint!(one),
        ),
    ],
};

async fn list(ctx: Ctx) -> ApiResult<Dyn<TypesPanelShape>> {
    let counts = ctx.app.store.counts_by_type().await?;
    let mut types: Vec<_> = ctx.app.types.all().collect();
    in_installation_order(&mut types);
    let items: Vec<_> = types.iter().map(|profile| listing_item(&ctx, profile, &counts)).collect();
    Ok(Dyn::new(json!({"@id": panel_url(&ctx), "group": GROUP, "title": TITLE, "items": items})))
}

async fn one(ctx: Ctx) -> ApiResult<Dyn<TypeSettingsShape>> {
    let id = ctx.param("type");
    let profile = ctx.app.types.get(id).ok_or_else(|| unknown_type(id))?;
    Ok(Dyn::new(type_settings(&ctx, &profile)))
}
