//! `GET <obj>/@querystring`: the indexes a listing or search block may query and sort by, and
//! their operations, in plone.app.querystring's shape. Only what `@querystring-search` runs
//! is offered, so an editor can never build a query that fails.

use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Map, Value, json};

/// The service.
pub static QUERYSTRING: Service = Service {
    method: Method::GET,
    name: "@querystring",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The indexes, operations and sort keys listing and search blocks may use",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

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

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site = ctx.site_url();
    let mut indexes = Map::new();
    let mut sortable = Map::new();
    for (index, title, group, operations, sorts) in INDEXES {
        let operators: Map<String, Value> = operations
            .iter()
            .map(|(suffix, title, widget)| {
                let id = format!("plone.app.querystring.operation.{suffix}");
                (id, json!({"title": title, "description": "", "operation": suffix, "widget": widget}))
            })
            .collect();
        let mut entry = json!({
            "title": title,
            "description": "",
            "group": group,
            "enabled": true,
            "sortable": sorts,
            "operations": operators.keys().cloned().collect::<Vec<_>>(),
            "operators": operators,
            "fetch_vocabulary": true,
        });
        if let Some(values) = vocabulary(&ctx, index) {
            entry["values"] = values;
        }
        if sorts {
            sortable.insert(index.to_owned(), entry.clone());
        }
        indexes.insert(index.to_owned(), entry);
    }
    for (index, title) in SORT_ONLY {
        sortable.insert(index.to_owned(), json!({"title": title, "description": "", "group": "Metadata", "enabled": true, "sortable": true, "operations": [], "operators": {}}));
    }
    Ok(json(&json!({"@id": format!("{site}/@querystring"), "indexes": indexes, "sortable_indexes": sortable})))
}

/// The values an index may take, where they are known: the addable types, the workflow states.
fn vocabulary(ctx: &Ctx, index: &str) -> Option<Value> {
    let values: Map<String, Value> = match index {
        "portal_type" => {
            ctx.app.types.all().filter(|t| !t.is_block()).map(|t| (t.id.clone(), json!({"title": t.title}))).collect()
        }
        "review_state" => ctx
            .app
            .workflows
            .all()
            .flat_map(|w| w.states.iter())
            .map(|s| (s.id.clone(), json!({"title": s.title})))
            .collect(),
        _ => return None,
    };
    Some(Value::Object(values))
}
