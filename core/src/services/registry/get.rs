//! `GET <site>/@registry[/<name>]`.

use crate::endpoint;
use crate::http::{
    ApiError, ApiResult, B_SIZE, B_START, Batch, BatchLinksShape, Ctx, Dyn, Json, Shape, Shaped, batch_links,
};
use crate::records::RecordDef;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::registry::{MetaSchema, Registry};
use serde_json::Value;

/// Lists records (`?q=<prefix>`, batched) or, with a name segment, answers one bare value.
pub static REGISTRY_GET: Service = Service {
    method: Method::GET,
    name: "@registry",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            query: &[
                QueryParam::new("q", ParamKind::String, "Only records whose name starts with this"),
                B_START,
                B_SIZE,
            ],
            ..Route::new("", "The declared registry records with their values, by name; batched", endpoint!(list))
        },
        Route::new("{name}", "One record's value, bare", endpoint!(one)),
    ],
};

/// `GET @registry`: a page of records.
#[derive(Object)]
struct RegistryList {
    /// The request's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The records of the page, in declaration order.
    items: Vec<RegistryItem>,
    /// How many records match.
    items_total: i64,
    /// Links to the other pages, when there are any.
    #[oai(skip_serializing_if_is_none)]
    batching: Option<Shaped<BatchLinksShape>>,
}

/// One record.
#[derive(Object)]
struct RegistryItem {
    /// Its dotted name.
    name: String,
    /// Its current value (the default until a Manager changes it); its type is the record's.
    value: Value,
    /// Its type, title and description, as plone.restapi's `{properties: {…}}`.
    schema: Value,
}

/// A record's value on its own: a string, number, boolean, list or object, as the record
/// is declared.
struct RegistryValueShape;

impl Shape for RegistryValueShape {
    const NAME: &'static str = "RegistryValue";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema { description: Some("A record's value, of the record's declared type"), ..MetaSchema::ANY }
    }
}

async fn one(ctx: Ctx) -> ApiResult<Dyn<RegistryValueShape>> {
    let record =
        ctx.app.registry.record(ctx.param("name")).ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    Ok(Dyn::new(record.shown(ctx.app.record_value(record).await?)))
}

async fn list(ctx: Ctx) -> ApiResult<Json<RegistryList>> {
    let prefix = ctx.request.query_value("q").unwrap_or_default();
    let matching: Vec<&RecordDef> = ctx.app.registry.records().filter(|r| r.name.starts_with(prefix)).collect();
    let batch = Batch::from_query(&ctx.request.query)?;
    let total = matching.len() as i64;
    let page: Vec<&RecordDef> = matching
        .iter()
        .skip(usize::try_from(batch.start).unwrap_or(usize::MAX))
        .take(batch.size as usize)
        .copied()
        .collect();
    let values = ctx.app.record_values(&page).await?;
    let items = page
        .iter()
        .zip(values)
        .map(|(record, value)| RegistryItem {
            name: record.name.to_owned(),
            value: record.shown(value),
            schema: record.schema(),
        })
        .collect();
    Ok(Json(RegistryList {
        batching: batch_links(&ctx.request.service_url, &ctx.request.query, batch, total),
        url: ctx.request.request_url(),
        items,
        items_total: total,
    }))
}
