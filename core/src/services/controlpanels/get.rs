//! `GET @controlpanels` and `GET @controlpanels/<id>`.

use crate::controlpanel::{ControlPanelDef, PanelSource};
use crate::http::{ApiError, ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Map, Value, json};

/// The panels, or one panel with a name segment.
pub static CONTROLPANELS: Service = Service {
    method: Method::GET,
    name: "@controlpanels",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Site Setup's panels; GET @controlpanels/<id> for one: {@id, title, group, schema, data}",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site_url = ctx.site_url();
    let Some(id) = ctx.subpath.first() else {
        let panels: Vec<Value> = ctx
            .app
            .registry
            .control_panels()
            .iter()
            .map(|p| json!({"@id": format!("{site_url}/@controlpanels/{}", p.id), "title": p.title, "group": p.group}))
            .collect();
        return Ok(json(&Value::Array(panels)));
    };
    let panel = ctx.app.registry.control_panel(id).ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    let mut body = json!({
        "@id": format!("{site_url}/@controlpanels/{}", panel.id),
        "title": panel.title,
        "group": panel.group,
        "schema": panel.schema(),
        "data": data(&ctx, panel).await?,
    });
    if let Some(items) = panel.items {
        body["items"] = Value::Array(items(&ctx.app, &site_url));
    }
    Ok(json(&body))
}

/// The current values of the panel's fields: records in one statement, then the site title.
async fn data(ctx: &Ctx, panel: &ControlPanelDef) -> ApiResult<Map<String, Value>> {
    let records: Vec<_> = panel
        .fields
        .iter()
        .filter_map(|f| match f.source {
            PanelSource::Record(record) => Some(record),
            PanelSource::SiteTitle => None,
        })
        .collect();
    let mut values = ctx.app.record_values(&records).await?.into_iter();
    let mut data = Map::new();
    for field in panel.fields {
        let value = match field.source {
            PanelSource::Record(_) => values.next().unwrap_or(Value::Null),
            PanelSource::SiteTitle => json!(ctx.app.site_root().await?.title),
        };
        data.insert(field.name.to_owned(), value);
    }
    Ok(data)
}
