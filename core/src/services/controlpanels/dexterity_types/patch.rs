//! `PATCH @controlpanels/dexterity-types/<type>`: changes a type's settings (the keys given):
//! title, description, allowed types, behaviours.

use super::settings::apply_settings;
use super::shapes::TypeSettingsInputShape;
use crate::endpoint;
use crate::error::ApiResult;
use crate::http::{Ctx, NoContent, shape_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::types::{Origin, edit_type};
use poem::http::Method;

/// Changes types.
pub static PATCH: Service = Service {
    method: Method::PATCH,
    name: "@controlpanels/dexterity-types",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<TypeSettingsInputShape>),
        ..Route::new("{type}", "Change a content type's settings (the keys given)", endpoint!(change))
    }],
};

async fn change(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let id = ctx.param("type").to_owned();
    let declared: Vec<String> = ctx
        .app
        .types
        .profiles()
        .get(&id)
        .map(|p| p.fields.iter().map(|f| f.name.clone()).collect())
        .unwrap_or_default();
    edit_type(&ctx, &id, |profile, origin| {
        let declared = if origin == Origin::Profile { declared.as_slice() } else { &[] };
        apply_settings(profile, &body, declared)
    })
    .await?;
    Ok(NoContent::NoContent)
}
