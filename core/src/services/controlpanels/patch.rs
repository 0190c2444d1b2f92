//! `PATCH @controlpanels/<id>`: saves a panel's form. Every value is checked before any is
//! written; the records change in one transaction, the site title with the site root.

use crate::content::values::{Mode, parse_changes};
use crate::controlpanel::PanelSource;
use crate::endpoint;
use crate::http::schema::{any, object};
use crate::http::{ApiError, ApiResult, Ctx, FieldError, NoContent, Refused, Shape, shape_schema};
use crate::records::RecordKind;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::registry::{MetaSchema, Registry};
use serde_json::{Map, Value};

/// The service.
pub static CONTROLPANEL_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@controlpanels",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            request: Some(shape_schema::<PanelValuesShape>),
            ..Route::new("{id}", "Save a control panel's form; all or nothing", endpoint!(patch))
        },
        Route::new(
            "",
            "Always refused without a panel id: 400 invalid_parameter (PATCH @controlpanels/<id>)",
            endpoint!(no_panel),
        ),
    ],
};

/// The body of a save: the form's values.
struct PanelValuesShape;

impl Shape for PanelValuesShape {
    const NAME: &'static str = "ControlPanelValues";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema {
            additional_properties: Some(Box::new(any())),
            ..object(
                "Values by field name (the keys of the panel's `data`); fields left out keep their value. Number \
                 fields also take whole numbers as text, as Volto's forms send them",
                vec![],
                &[],
            )
        }
    }
}

/// A save names its panel; without one there is nothing to save.
async fn no_panel(_: Ctx) -> ApiResult<Refused> {
    Err(ApiError::invalid_parameter("id", "Name the panel to change: PATCH @controlpanels/<id>."))
}

async fn patch(ctx: Ctx) -> ApiResult<NoContent> {
    let id = ctx.param("id");
    let panel = ctx.app.registry.control_panel(id).ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let mut records = Vec::new();
    let mut title = None;
    for (name, value) in &body {
        let Some(field) = panel.field(name) else {
            errors.push(FieldError::new(name, format!("'{name}' is not a field of the {} panel.", panel.title)));
            continue;
        };
        match field.source {
            PanelSource::Record(record) => {
                let value = form_value(record.kind, value);
                match record.validate(&value) {
                    Ok(()) if record.keeps_stored(&value) => {}
                    Ok(()) => records.push((record.name, value.to_string())),
                    Err(message) => errors.push(FieldError::new(name, message)),
                }
            }
            PanelSource::SiteTitle => match value.as_str().map(str::trim) {
                Some(text) if !text.is_empty() && !text.contains(['\n', '\r']) => title = Some(value.clone()),
                _ => errors.push(FieldError::new(name, "The site title is one line of text, not empty.")),
            },
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let site = ctx.app.site_root().await?;
    let title_changes = match title {
        Some(value) => {
            let profile = ctx
                .app
                .types
                .get(&site.portal_type)
                .ok_or_else(|| ApiError::internal("the site root's type is missing"))?;
            let body = Map::from_iter([("title".to_owned(), value)]);
            Some(parse_changes(&profile, &body, Mode::Patch, &[], &[])?)
        }
        None => None,
    };
    crate::services::records_save::save_records(&ctx.app, ctx.principal.actor(), &records).await?;
    if let Some(changes) = title_changes {
        crate::ops::update(&ctx.app, &site, &changes, None, crate::ops::OnConflict::Reapply).await?;
    }
    Ok(NoContent::NoContent)
}

/// A form's value for a record of `kind`: number fields in Volto's forms send what was typed, as
/// text, so whole numbers given as text count as numbers (as Plone's forms take them).
fn form_value(kind: RecordKind, value: &Value) -> Value {
    match (kind, value.as_str().map(str::trim)) {
        (RecordKind::Int, Some(text)) => text.parse::<i64>().map_or_else(|_| value.clone(), Value::from),
        _ => value.clone(),
    }
}
