//! The facets of `@es-search`: the aggregations configured in
//! `wcs.backend.search.aggregations` (Elasticsearch's request form, over the index's keyword
//! fields), the request's facet filters (a parameter named like an aggregated field, and
//! `Language`, which also picks the language the words are analysed in), and the
//! buckets' titles in the reader's language.

use crate::engine::Filters;
use poem_openapi::Object;
use serde_json::Value;
use wcs_core::app::App;
use wcs_core::http::OrderedMap;
use wcs_core::i18n::Translator;

/// The configured aggregations, `None` when there are none.
pub fn configured(record: &Value) -> Option<Value> {
    record.as_object().filter(|aggs| !aggs.is_empty()).map(|aggs| Value::Object(aggs.clone()))
}

/// The facet filters of a request: the values of parameters named like a facet field.
pub fn apply_facet_filters(filters: &mut Filters, query: &[(String, String)]) {
    let values = |name: &str| -> Vec<String> {
        query.iter().filter(|(k, _)| k.split(':').next() == Some(name)).map(|(_, v)| v.clone()).collect()
    };
    filters.portal_types = values("portal_type");
    filters.review_states = values("review_state");
    filters.subjects = values("Subject");
    filters.languages = values("Language");
}

/// A facet's values, as Elasticsearch's `terms` aggregation answers them, each with a title.
#[derive(Object)]
pub struct FacetResult {
    /// The values, most frequent first.
    pub buckets: Vec<FacetBucket>,
}

/// One value of a facet.
#[derive(Object)]
pub struct FacetBucket {
    /// The value.
    pub key: Value,
    /// How many results have it.
    pub doc_count: u64,
    /// A type's or state's title; the key for anything else.
    pub title: String,
}

/// The engine's aggregations with a `title` on every bucket (a type's or state's title; the
/// key for anything else), keeping only `buckets`.
pub fn with_titles(app: &App, translator: &Translator<'_>, config: &Value, results: &Value) -> OrderedMap<FacetResult> {
    results
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, result)| {
            let field =
                config.get(name).and_then(|a| a.get("terms")).and_then(|t| t.get("field")).and_then(Value::as_str);
            let buckets = result
                .get("buckets")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|bucket| {
                    let key = bucket.get("key").cloned().unwrap_or(Value::Null);
                    let title = title(app, translator, field, key.as_str().unwrap_or_default());
                    FacetBucket { key, doc_count: bucket.get("doc_count").and_then(Value::as_u64).unwrap_or(0), title }
                })
                .collect();
            (name.clone(), FacetResult { buckets })
        })
        .collect()
}

fn title(app: &App, translator: &Translator<'_>, field: Option<&str>, key: &str) -> String {
    match field {
        Some("portal_type") => app.types.get(key).map_or_else(|| key.to_owned(), |p| translator.type_title(&p)),
        Some("review_state") => {
            app.workflows.all().find_map(|w| w.state(key)).map_or_else(|| key.to_owned(), |s| s.title.clone())
        }
        _ => key.to_owned(),
    }
}
