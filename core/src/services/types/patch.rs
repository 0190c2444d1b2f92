//! `PATCH @types/<type>`: changes fields (`properties`: field → settings) and the type's own
//! fieldsets (`fieldsets`); `PATCH @types/<type>/<field-or-fieldset>`: changes one field's or
//! fieldset's settings. A kind change (`factory`) is refused when values objects hold would
//! no longer fit, naming them.

use super::edit::{Origin, edit_type};
use super::get::unknown_field;
use super::input::{apply_fieldsets, patch_field, patch_fieldset, place_fieldset};
use super::shapes::{FieldInputShape, SchemaInputShape};
use crate::content::TypeProfile;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, NoContent, shape_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use serde_json::{Map, Value};

/// The service.
pub static TYPES_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@types",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            request: Some(shape_schema::<SchemaInputShape>),
            ..Route::new("{name}", "Change a content type's fields and fieldsets (the keys given)", endpoint!(change))
        },
        Route {
            request: Some(shape_schema::<FieldInputShape>),
            ..Route::new("{name}/{field}", "Change one field's or fieldset's settings", endpoint!(change_one))
        },
    ],
};

async fn change(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let name = ctx.param("name").to_owned();
    let declared = declared_fields(&ctx, &name);
    edit_type(&ctx, &name, |profile, origin| apply_schema(profile, &body, origin, &declared)).await?;
    Ok(NoContent::NoContent)
}

async fn change_one(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let (name, field) = (ctx.param("name").to_owned(), ctx.param("field").to_owned());
    let declared = declared_fields(&ctx, &name);
    edit_type(&ctx, &name, |profile, origin| {
        if let Some(existing) = profile.fieldsets.iter().find(|f| f.id == field) {
            let mut fieldset = existing.clone();
            patch_fieldset(profile, &mut fieldset, &body)?;
            place_fieldset(profile, fieldset);
            return Ok(());
        }
        let slot = profile.fields.iter_mut().find(|f| f.name == field).ok_or_else(|| unknown_field(&ctx))?;
        patch_field(slot, &body, origin == Origin::Profile && declared.contains(&field))
    })
    .await?;
    Ok(NoContent::NoContent)
}

/// The fields the type's profile declares, whose kinds stay.
pub(super) fn declared_fields(ctx: &Ctx, name: &str) -> Vec<String> {
    ctx.app.types.profiles().get(name).map(|p| p.fields.iter().map(|f| f.name.clone()).collect()).unwrap_or_default()
}

/// Applies `properties`, `fieldsets` and `required` of a schema body.
pub(super) fn apply_schema(
    profile: &mut TypeProfile,
    body: &Map<String, Value>,
    origin: Origin,
    declared: &[String],
) -> ApiResult<()> {
    if let Some(properties) = body.get("properties") {
        let properties =
            properties.as_object().ok_or_else(|| ApiError::invalid_parameter("properties", "Expected an object."))?;
        for (name, settings) in properties {
            let settings = settings.as_object().ok_or_else(|| {
                ApiError::invalid_parameter("properties", format!("The settings of '{name}' must be an object."))
            })?;
            let Some(slot) = profile.fields.iter_mut().find(|f| f.name == *name) else {
                // A behaviour's field Plone lists in the schema, sent back as read.
                continue;
            };
            let declared = origin == Origin::Profile && declared.contains(name);
            if declared {
                // A schema sent back as read names the profile's kind, which stays anyway.
                let mut settings = settings.clone();
                settings.remove("factory");
                patch_field(slot, &settings, true)?;
            } else {
                patch_field(slot, settings, false)?;
            }
        }
    }
    if let Some(required) = body.get("required") {
        let required: Vec<&str> = required
            .as_array()
            .and_then(|items| items.iter().map(Value::as_str).collect())
            .ok_or_else(|| ApiError::invalid_parameter("required", "Expected a list of field names."))?;
        for field in &mut profile.fields {
            field.required = required.contains(&field.name.as_str());
        }
    }
    if let Some(fieldsets) = body.get("fieldsets") {
        apply_fieldsets(profile, fieldsets)?;
    }
    Ok(())
}
