//! `POST @types/<type>`: adds a field to a content type, or with `factory: "fieldset"` a
//! fieldset (a form tab of the type's own). Answers 201 with its schema.

use super::edit::edit_type;
use super::input::{factory_of, new_field, new_fieldset};
use super::schema::{fieldset_schema, property};
use super::shapes::{FieldInputShape, FieldSchemaShape};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, DynCreated, shape_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::payload::Response;

/// The service.
pub static TYPES_POST: Service = Service {
    method: Method::POST,
    name: "@types",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<FieldInputShape>),
        ..Route::new("{name}", "Add a field (`factory` names its kind) or a fieldset to a content type", endpoint!(add))
    }],
};

async fn add(ctx: Ctx) -> ApiResult<Response<DynCreated<FieldSchemaShape>>> {
    let body = ctx.json_body()?;
    let name = ctx.param("name").to_owned();
    let is_fieldset = factory_of(&body)?.as_deref() == Some("fieldset");
    let mut added = String::new();
    let profile = edit_type(&ctx, &name, |profile, _| {
        if is_fieldset {
            let fieldset = new_fieldset(profile, &body)?;
            added = fieldset.id.clone();
            profile.fieldsets.push(fieldset);
        } else {
            let field = new_field(profile, &body)?;
            added = field.name.clone();
            profile.add_field(field);
        }
        Ok(())
    })
    .await?;
    let url = format!("{}/@types/{name}/{added}", ctx.site_url());
    let answer = match (profile.fieldsets.iter().find(|f| f.id == added), profile.field(&added)) {
        (Some(fieldset), _) if is_fieldset => fieldset_schema(fieldset),
        (_, Some(field)) => property(&profile, field, &ctx.site_url()),
        _ => return Err(ApiError::internal(format!("'{added}' is missing from type '{name}' after it was added"))),
    };
    Ok(Response::new(DynCreated::new(answer)).header("Location", url))
}
