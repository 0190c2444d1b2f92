//! `GET <obj>/@querystring`: the indexes a listing or search block may query and sort by, and
//! their operations, in plone.app.querystring's shape, from the registry records of
//! [`super::records`]. The operations are those `@querystring-search` runs, and a record may
//! name no other, so an editor can never build a query that fails.

use super::records::{FIELD, FIELD_RECORDS, INDEXES, OPERATION_RECORDS};
use crate::endpoint;
use crate::http::schema::Nullable;
use crate::http::{ApiResult, Ctx, Json, OrderedMap};
use crate::records::RecordDef;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::Value;
use std::collections::HashMap;

/// The service.
pub static QUERYSTRING: Service = Service {
    method: Method::GET,
    name: "@querystring",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "The indexes, operations and sort keys listing and search blocks may use",
        endpoint!(get),
    )],
};

/// `GET @querystring`: what Volto's query widget offers, in plone.app.querystring's shape.
#[derive(Object)]
struct QuerystringConfig {
    /// The endpoint's URL on the object it was asked of.
    #[oai(rename = "@id")]
    url: String,
    /// Every index, by name; Volto offers those `enabled`.
    indexes: OrderedMap<QuerystringIndex>,
    /// The indexes results may be sorted on, by name.
    sortable_indexes: OrderedMap<QuerystringIndex>,
}

/// An index and what may be done with it.
#[derive(Object, Clone)]
struct QuerystringIndex {
    /// The label.
    title: String,
    /// The help text.
    description: String,
    /// The group Volto lists it under (`Metadata`, `Text`, `Dates`).
    group: String,
    /// Whether the widget offers it.
    enabled: bool,
    /// Whether results can be sorted on it.
    sortable: bool,
    /// The ids of its operations, as `operators` lists them.
    operations: Vec<String>,
    /// Its operations by id.
    operators: OrderedMap<QuerystringOperation>,
    /// The vocabulary its values come from; null for free input.
    vocabulary: Nullable<String>,
    /// Whether the widget fetches the vocabulary itself.
    fetch_vocabulary: bool,
    /// The values it takes where the server lists them (types, workflow states), by value.
    values: OrderedMap<QuerystringValue>,
}

/// An operation of an index: what a criterion's `o` names.
#[derive(Object, Clone)]
struct QuerystringOperation {
    /// The label.
    title: String,
    /// The help text; null for none.
    description: Nullable<String>,
    /// Plone's name of the function that runs it.
    operation: String,
    /// The widget Volto edits the value with; null when it takes none (`date.today`).
    widget: Nullable<String>,
}

/// A value an index takes.
#[derive(Object, Clone)]
struct QuerystringValue {
    /// Its label.
    title: String,
}

async fn get(ctx: Ctx) -> ApiResult<Json<QuerystringConfig>> {
    let records: Vec<&RecordDef> = FIELD_RECORDS.iter().flatten().chain(OPERATION_RECORDS.iter().flatten()).collect();
    let values = ctx.app.record_values(&records).await?;
    let current: HashMap<&str, Value> = records.iter().map(|r| r.name).zip(values).collect();
    let text = |name: String| current.get(name.as_str()).and_then(Value::as_str).map(str::to_owned);
    let flag = |name: String| current.get(name.as_str()).and_then(Value::as_bool).unwrap_or(false);
    let mut indexes = OrderedMap::default();
    let mut sortable = OrderedMap::default();
    for index in INDEXES {
        let field = |part: &str| format!("{FIELD}{index}.{part}");
        let operations: Vec<String> = current
            .get(field("operations").as_str())
            .and_then(Value::as_array)
            .map(|ops| ops.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        let operators = operations
            .iter()
            .map(|id| {
                let part = |name: &str| format!("{id}.{name}");
                let operation = QuerystringOperation {
                    title: text(part("title")).unwrap_or_default(),
                    description: Nullable(text(part("description"))),
                    operation: text(part("operation")).unwrap_or_default(),
                    widget: Nullable(text(part("widget"))),
                };
                (id.clone(), operation)
            })
            .collect();
        let entry = QuerystringIndex {
            title: text(field("title")).unwrap_or_default(),
            description: text(field("description")).unwrap_or_default(),
            group: text(field("group")).unwrap_or_default(),
            enabled: flag(field("enabled")),
            sortable: flag(field("sortable")),
            operations,
            operators,
            vocabulary: Nullable(text(field("vocabulary")).filter(|v| !v.is_empty())),
            fetch_vocabulary: flag(field("fetch_vocabulary")),
            values: listed_values(&ctx, index),
        };
        if entry.sortable {
            sortable.0.push((index.to_owned(), entry.clone()));
        }
        indexes.0.push((index.to_owned(), entry));
    }
    let url = format!("{}/@querystring", ctx.url_of(&ctx.context));
    Ok(Json(QuerystringConfig { url, indexes, sortable_indexes: sortable }))
}

/// The values listed with an index, as Plone lists them: the types editors add, and the
/// workflow states as `Title [id]`.
fn listed_values(ctx: &Ctx, index: &str) -> OrderedMap<QuerystringValue> {
    let value = |id: &str, title: String| (id.to_owned(), QuerystringValue { title });
    match index {
        "portal_type" => ctx
            .app
            .types
            .all()
            .filter(|t| t.id != crate::app::SITE_TYPE && !t.is_block())
            .map(|t| value(&t.id, t.title.clone()))
            .collect(),
        "review_state" => {
            let mut states = OrderedMap::default();
            for state in ctx.app.workflows.all().flat_map(|w| w.states.iter()) {
                if !states.0.iter().any(|(id, _)| *id == state.id) {
                    states.0.push(value(&state.id, format!("{} [{}]", state.title, state.id)));
                }
            }
            states.0.sort_by(|a, b| a.0.cmp(&b.0));
            states
        }
        _ => OrderedMap::default(),
    }
}
