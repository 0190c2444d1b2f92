//! `GET <obj>/@querystring`: the indexes a listing or search block may query and sort by, and
//! their operations, in plone.app.querystring's shape. Only what `@querystring-search` runs
//! is offered, so an editor can never build a query that fails.

use crate::endpoint;
use crate::http::schema::Nullable;
use crate::http::{ApiResult, Ctx, Json, OrderedMap};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

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
    /// The endpoint's URL on the site.
    #[oai(rename = "@id")]
    url: String,
    /// The indexes a criterion may use, by index name.
    indexes: OrderedMap<QuerystringIndex>,
    /// The keys results may be sorted on, by name.
    sortable_indexes: OrderedMap<QuerystringIndex>,
}

/// An index (or a sort key) and what may be done with it.
#[derive(Object, Clone)]
#[oai(skip_serializing_if_is_none)]
struct QuerystringIndex {
    /// The label.
    title: String,
    /// Always empty.
    description: String,
    /// The group Volto lists it under (`Metadata`, `Text`, `Dates`).
    group: String,
    /// Always true.
    enabled: bool,
    /// Whether results can be sorted on it.
    sortable: bool,
    /// The ids of its operations, as `operators` lists them.
    operations: Vec<String>,
    /// Its operations by id.
    operators: OrderedMap<QuerystringOperation>,
    /// Whether the widget fetches `values`; absent on keys that only sort.
    fetch_vocabulary: Option<bool>,
    /// The values it takes, where they are known (types, workflow states), by value.
    values: Option<OrderedMap<QuerystringValue>>,
}

/// An operation of an index: what a criterion's `o` names.
#[derive(Object, Clone)]
struct QuerystringOperation {
    /// The label.
    title: String,
    /// Always empty.
    description: String,
    /// The id without plone.app.querystring's prefix, e.g. `selection.any`.
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

/// (operation suffix, title, widget)
type Operation = (&'static str, &'static str, Option<&'static str>);

const SELECTION: [Operation; 2] = [
    ("selection.any", "Matches any of", Some("MultipleSelectionWidget")),
    ("selection.none", "Matches none of", Some("MultipleSelectionWidget")),
];
const KEYWORDS: [Operation; 3] = [
    ("selection.any", "Matches any of", Some("MultipleSelectionWidget")),
    ("selection.all", "Matches all of", Some("MultipleSelectionWidget")),
    ("selection.none", "Matches none of", Some("MultipleSelectionWidget")),
];
const TEXT: [Operation; 1] = [("string.contains", "Contains", Some("StringWidget"))];
const PATH: [Operation; 2] = [
    ("string.absolutePath", "Absolute path", Some("ReferenceWidget")),
    ("string.relativePath", "Relative path", Some("RelativePathWidget")),
];
const DATES: [Operation; 8] = [
    ("date.lessThan", "Before date", Some("DateWidget")),
    ("date.largerThan", "After date", Some("DateWidget")),
    ("date.between", "Between dates", Some("DateRangeWidget")),
    ("date.today", "Today", None),
    ("date.beforeToday", "Before today", None),
    ("date.afterToday", "After today", None),
    ("date.lessThanRelativeDate", "Within next days", Some("RelativeDateWidget")),
    ("date.largerThanRelativeDate", "Within last days", Some("RelativeDateWidget")),
];

/// (index, title, group, operations, sortable)
const INDEXES: [(&str, &str, &str, &[Operation], bool); 9] = [
    ("portal_type", "Type", "Metadata", &SELECTION, true),
    ("review_state", "Review state", "Metadata", &SELECTION, true),
    ("Subject", "Tag", "Text", &KEYWORDS, false),
    ("SearchableText", "Searchable text", "Text", &TEXT, false),
    ("path", "Location", "Metadata", &PATH, false),
    ("created", "Creation date", "Dates", &DATES, true),
    ("modified", "Modification date", "Dates", &DATES, true),
    ("effective", "Effective date", "Dates", &DATES, true),
    ("expires", "Expiration date", "Dates", &DATES, true),
];

/// Sort keys that are not query indexes.
const SORT_ONLY: [(&str, &str); 3] =
    [("sortable_title", "Sortable Title"), ("getObjPositionInParent", "Order in folder"), ("getId", "Short name")];

async fn get(ctx: Ctx) -> ApiResult<Json<QuerystringConfig>> {
    let mut indexes = OrderedMap::default();
    let mut sortable = OrderedMap::default();
    for (index, title, group, operations, sorts) in INDEXES {
        let operators: OrderedMap<QuerystringOperation> = operations
            .iter()
            .map(|(suffix, title, widget)| {
                let id = format!("plone.app.querystring.operation.{suffix}");
                let operation = QuerystringOperation {
                    title: (*title).to_owned(),
                    description: String::new(),
                    operation: (*suffix).to_owned(),
                    widget: Nullable(widget.map(str::to_owned)),
                };
                (id, operation)
            })
            .collect();
        let entry = QuerystringIndex {
            operations: operators.0.iter().map(|(id, _)| id.clone()).collect(),
            operators,
            fetch_vocabulary: Some(true),
            values: vocabulary(&ctx, index),
            ..sort_key(title, group, sorts)
        };
        if sorts {
            sortable.0.push((index.to_owned(), entry.clone()));
        }
        indexes.0.push((index.to_owned(), entry));
    }
    for (index, title) in SORT_ONLY {
        sortable.0.push((index.to_owned(), sort_key(title, "Metadata", true)));
    }
    let url = format!("{}/@querystring", ctx.site_url());
    Ok(Json(QuerystringConfig { url, indexes, sortable_indexes: sortable }))
}

/// An entry with no operations: what a key that only sorts is.
fn sort_key(title: &str, group: &str, sortable: bool) -> QuerystringIndex {
    QuerystringIndex {
        title: title.to_owned(),
        description: String::new(),
        group: group.to_owned(),
        enabled: true,
        sortable,
        operations: Vec::new(),
        operators: OrderedMap::default(),
        fetch_vocabulary: None,
        values: None,
    }
}

/// The values an index may take, where they are known: the addable types, the workflow states.
fn vocabulary(ctx: &Ctx, index: &str) -> Option<OrderedMap<QuerystringValue>> {
    let value = |id: &str, title: &str| (id.to_owned(), QuerystringValue { title: title.to_owned() });
    match index {
        "portal_type" => Some(ctx.app.types.all().filter(|t| !t.is_block()).map(|t| value(&t.id, &t.title)).collect()),
        "review_state" => {
            Some(ctx.app.workflows.all().flat_map(|w| w.states.iter()).map(|s| value(&s.id, &s.title)).collect())
        }
        _ => None,
    }
}
