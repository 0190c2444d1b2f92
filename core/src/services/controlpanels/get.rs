//! `GET @controlpanels` and `GET @controlpanels/<id>`.

use crate::controlpanel::{ControlPanelDef, GROUP_ORDER, PanelSource};
use crate::endpoint;
use crate::http::schema::{any_object, array_of, map_of, object, string};
use crate::http::{ApiError, ApiResult, Ctx, Json, Shape, Shaped};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::registry::{MetaSchema, Registry};
use serde_json::{Map, Value, json};

/// The panels, or one panel with a name segment.
pub static CONTROLPANELS: Service = Service {
    method: Method::GET,
    name: "@controlpanels",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "Site Setup's panels: @id, title and group of each", endpoint!(list)),
        Route::new("{id}", "One panel: its form's schema and data, and the entries it lists", endpoint!(one)),
    ],
};

/// A panel in the listing Site Setup groups its links by.
#[derive(Object)]
struct ControlPanelEntry {
    /// Its URL.
    #[oai(rename = "@id")]
    url: String,
    /// The heading.
    title: String,
    /// Where Site Setup lists it (`General`, `Content`, `Security`, …).
    group: String,
    /// What Site Setup's filter matches it by: title, group and field labels.
    searchable_text: Vec<String>,
}

/// One panel as plone.restapi answers it: Volto renders `schema` as a form filled with
/// `data`; panels that list things (the content types) add `items`.
#[derive(Object)]
struct ControlPanel {
    /// Its URL; `PATCH` it to save the form.
    #[oai(rename = "@id")]
    url: String,
    /// The heading.
    title: String,
    /// Where Site Setup lists it.
    group: String,
    /// The form.
    schema: Shaped<PanelSchemaShape>,
    /// The current values, by field name (the keys of `schema.properties`).
    data: Value,
    /// The read-only entries of a listing panel; absent on the others.
    #[oai(skip_serializing_if_is_none)]
    items: Option<Vec<Value>>,
}

/// A panel's form: the fields are the panel's own.
struct PanelSchemaShape;

impl Shape for PanelSchemaShape {
    const NAME: &'static str = "ControlPanelSchema";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "The JSON Schema of a panel's form in plone.restapi's shape: one property per field (its type, title, \
             description, factory, default, widget), in one fieldset",
            vec![
                ("type", string()),
                ("fieldsets", array_of(any_object())),
                ("properties", map_of(any_object())),
                ("required", array_of(string())),
            ],
            &["type", "fieldsets", "properties", "required"],
        )
    }
}

async fn list(ctx: Ctx) -> ApiResult<Json<Vec<ControlPanelEntry>>> {
    let site_url = ctx.site_url();
    let mut panels = ctx.app.registry.control_panels();
    // By group in Site Setup's order, then by title, as Plone lists them.
    let group_rank = |group: &str| GROUP_ORDER.iter().position(|g| *g == group).unwrap_or(GROUP_ORDER.len());
    panels.sort_by(|a, b| (group_rank(a.group), a.title).cmp(&(group_rank(b.group), b.title)));
    let entries = panels
        .into_iter()
        .map(|p| ControlPanelEntry {
            url: format!("{site_url}/@controlpanels/{}", p.id),
            title: p.title.to_owned(),
            group: p.group.to_owned(),
            searchable_text: p.searchable_text(),
        })
        .collect();
    Ok(Json(entries))
}

async fn one(ctx: Ctx) -> ApiResult<Json<ControlPanel>> {
    let site_url = ctx.site_url();
    let panel =
        ctx.app.registry.control_panel(ctx.param("id")).ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    Ok(Json(ControlPanel {
        url: format!("{site_url}/@controlpanels/{}", panel.id),
        title: panel.title.to_owned(),
        group: panel.group.to_owned(),
        schema: Shaped::new(panel.schema()),
        data: Value::Object(data(&ctx, panel).await?),
        items: panel.items.map(|items| items(&ctx.app, &site_url)),
    }))
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
            PanelSource::Record(record) => record.shown(values.next().unwrap_or(Value::Null)),
            PanelSource::SiteTitle => json!(ctx.app.site_root().await?.title),
        };
        data.insert(field.name.to_owned(), value);
    }
    Ok(data)
}
