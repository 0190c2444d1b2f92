//! `PATCH @controlpanels/<id>`: saves a panel's form. Every value is checked before any is
//! written; the records change in one transaction, the site title with the site root.

use crate::content::values::{Mode, parse_changes};
use crate::controlpanel::PanelSource;
use crate::http::{ApiError, ApiResult, Ctx, FieldError};
use crate::records::RecordKind;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::{Map, Value, json};

/// The service.
pub static CONTROLPANEL_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@controlpanels",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Save a control panel: PATCH @controlpanels/<id> with {\"<field>\": value}; all or nothing (204)",
        crate::untyped!(|ctx| Box::pin(patch(ctx))),
    )],
};

async fn patch(ctx: Ctx) -> ApiResult<Response> {
    let id = ctx
        .subpath
        .first()
        .ok_or_else(|| ApiError::invalid_parameter("id", "Name the panel to change: PATCH @controlpanels/<id>."))?;
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
                match record.kind.validate(&value) {
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
            Some(parse_changes(profile, &body, Mode::Patch, &[], &[])?)
        }
        None => None,
    };
    let mut tx = ctx.app.store.begin().await?;
    for (name, value) in &records {
        tx.set_record(name, value).await?;
    }
    tx.commit().await?;
    if let Some(changes) = title_changes {
        crate::ops::update(&ctx.app, &site, &changes, None).await?;
    }
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}

/// A form's value for a record of `kind`: number fields in Volto's forms send what was typed, as
/// text, so whole numbers given as text count as numbers (as Plone's forms take them).
fn form_value(kind: RecordKind, value: &Value) -> Value {
    match (kind, value.as_str().map(str::trim)) {
        (RecordKind::Int, Some(text)) => text.parse::<i64>().map_or_else(|_| value.clone(), Value::from),
        _ => value.clone(),
    }
}
