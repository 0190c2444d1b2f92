//! `PUT @types/<type>`: replaces a content type's schema, as Volto's schema editor saves it:
//! fields in `properties` that the type lacks are added (`factory` names their kind), fields
//! added through the web that `properties` leaves out are removed (objects keep their values
//! until next saved), and the type's own fieldsets become those of `fieldsets`. Fields the
//! type's profile declares stay whatever is sent.

use super::edit::{Origin, edit_type};
use super::input::{apply_fieldsets, new_field};
use super::patch::{apply_schema, declared_fields};
use super::shapes::SchemaInputShape;
use crate::api::check_json_body;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, NoContent, shape_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use serde_json::{Map, Value};

/// The service.
pub static TYPES_PUT: Service = Service {
    method: Method::PUT,
    name: "@types",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<SchemaInputShape>),
        ..Route::new("{name}", "Replace a content type's schema: its fields and fieldsets", endpoint!(replace))
    }],
};

async fn replace(ctx: Ctx) -> ApiResult<NoContent> {
    let body = schema_body(&ctx)?;
    let name = ctx.param("name").to_owned();
    let declared = declared_fields(&ctx, &name);
    let empty = Map::new();
    let properties = match body.get("properties") {
        None => &empty,
        Some(value) => {
            value.as_object().ok_or_else(|| ApiError::invalid_parameter("properties", "Expected an object."))?
        }
    };
    edit_type(&ctx, &name, |profile, origin| {
        let own = |field: &str| origin == Origin::ThroughTheWeb || !declared.iter().any(|d| d == field);
        let left_out: Vec<String> = profile
            .fields
            .iter()
            .filter(|f| own(&f.name) && !properties.contains_key(&f.name))
            .map(|f| f.name.clone())
            .collect();
        for field in &left_out {
            profile.remove_field(field);
        }
        for (field, settings) in properties {
            if profile.field(field).is_none() && !from_a_behaviour(&profile.id, settings) {
                let mut settings = settings.as_object().cloned().unwrap_or_default();
                settings.insert("id".into(), Value::String(field.clone()));
                let added = new_field(profile, &settings)?;
                profile.add_field(added);
            }
        }
        let sent: Vec<String> =
            body.get("fieldsets").map(|f| apply_fieldsets(profile, f)).transpose()?.unwrap_or_default();
        profile.fieldsets.retain(|f| sent.contains(&f.id));
        let rest = Map::from_iter(body.iter().filter(|(k, _)| *k != "fieldsets").map(|(k, v)| (k.clone(), v.clone())));
        apply_schema(profile, &rest, origin, &declared)
    })
    .await?;
    Ok(NoContent::NoContent)
}

/// Whether a property the type lacks belongs to a behaviour (Plone's schema lists those
/// fields too, with their behaviour): it is not the type's to add.
fn from_a_behaviour(type_id: &str, settings: &Value) -> bool {
    settings
        .get("behavior")
        .and_then(Value::as_str)
        .is_some_and(|b| b != type_id && !b.starts_with("plone.dexterity.schema.generated"))
}

/// The schema of the body: the body itself, or the JSON text Volto's schema editor sends (its
/// widget's value, a JSON string holding the schema), checked as bodies are.
fn schema_body(ctx: &Ctx) -> ApiResult<Map<String, Value>> {
    let Ok(Value::String(text)) = serde_json::from_slice::<Value>(&ctx.body) else { return ctx.json_body() };
    check_json_body(text.as_bytes())
        .map_err(|problem| ApiError::new(ErrorCode::InvalidJson, format!("The schema is refused: {problem}.")))?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(schema)) => Ok(schema),
        _ => Err(ApiError::new(ErrorCode::InvalidJson, "The schema must be a JSON object.")),
    }
}
