//! `POST <site>/@raw-es-search`: a search-engine query sent as is (`query`, `aggs`, `size`,
//! `from`, `sort`, `track_total_hits`), ANDed with the caller's security filters and answered
//! in Elasticsearch's `_search` shape. Refusals use Elasticsearch's error body
//! (`{error: {root_cause, type, reason}, status}`), which clients of this endpoint parse.
//! What would read hidden documents is refused: `global` aggregations (they ignore the query,
//! so the security filter) and `min_doc_count: 0` (it lists values of hidden documents).

use crate::Search;
use crate::dsl::{QueryError, custom_fields};
use crate::engine::{Highlight, RawRequest, SortKey, SourceFilter};
use crate::raw_suggest::{self, TermSuggester};
use crate::records::CUSTOM_FIELDS;
use crate::scope::caller_filters;
use serde_json::{Map, Value, json};
use std::time::Instant;
use wcs_core::http::{ApiError, ApiResult, Ctx};
use wcs_core::poem_reexports::{Method, Response, StatusCode};
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Service};

/// Elasticsearch's `index.max_result_window`: `from + size` may not exceed it.
const MAX_RESULT_WINDOW: usize = 10_000;

/// The service.
pub static RAW_ES_SEARCH: Service = Service {
    method: Method::POST,
    name: "@raw-es-search",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "A raw search-engine query (Elasticsearch DSL), security-filtered; Elasticsearch's answer shape",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(raw_es_search(ctx)),
};

async fn raw_es_search(ctx: Ctx) -> ApiResult<Response> {
    let search = ctx.app.extensions.get::<Search>().ok_or_else(|| ApiError::internal("search engine not started"))?;
    let started = Instant::now();
    let custom = custom_fields(&ctx.app.record_value(&CUSTOM_FIELDS).await?);
    let (request, suggesters) = match parse(&ctx.body) {
        Ok((parsed, suggesters)) => (RawRequest { custom, filters: caller_filters(&ctx), ..parsed }, suggesters),
        Err(refused) => return Ok(es_error(&refused)),
    };
    let engine = search.engine.clone();
    let answer = tokio::task::spawn_blocking(move || {
        let mut body = engine.raw(&request)?;
        if !suggesters.is_empty() {
            body["suggest"] = raw_suggest::run(engine.as_ref(), &suggesters, &request)?;
        }
        Ok::<_, QueryError>(body)
    })
    .await
    .map_err(ApiError::internal)?;
    match answer {
        Ok(mut body) => {
            body["took"] = json!(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
            Ok(wcs_core::http::json(&body))
        }
        Err(refused) => Ok(es_error(&refused)),
    }
}

/// The request body, checked; custom fields and filters are the caller's to add.
fn parse(body: &[u8]) -> Result<(RawRequest, Vec<TermSuggester>), QueryError> {
    let body: Map<String, Value> = match serde_json::from_slice(if body.is_empty() { b"{}" } else { body }) {
        Ok(Value::Object(body)) => body,
        Ok(_) => return Err(QueryError::parsing("request body must be a JSON object")),
        Err(e) => return Err(QueryError::content(e.to_string())),
    };
    for (key, value) in &body {
        let known = [
            "query",
            "aggs",
            "aggregations",
            "size",
            "from",
            "sort",
            "track_total_hits",
            "_source",
            "timeout",
            "highlight",
            "suggest",
        ];
        if !known.contains(&key.as_str()) {
            return Err(QueryError::parsing(format!("Unknown key for a {} in [{key}].", token_kind(value))));
        }
    }
    let count = |key: &str, default: usize| -> Result<usize, QueryError> {
        match body.get(key) {
            None => Ok(default),
            Some(value) => value
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| QueryError::parsing(format!("[{key}] must be a non-negative integer"))),
        }
    };
    let (from, size) = (count("from", 0)?, count("size", 10)?);
    if from.saturating_add(size) > MAX_RESULT_WINDOW {
        return Err(QueryError::illegal(format!(
            "Result window is too large, from + size must be less than or equal to: [{MAX_RESULT_WINDOW}] but was [{}].",
            from.saturating_add(size)
        )));
    }
    let aggregations = body.get("aggs").or_else(|| body.get("aggregations")).cloned();
    if let Some(aggregations) = &aggregations {
        check_aggregations(aggregations)?;
    }
    let suggesters = body.get("suggest").map(raw_suggest::parse).transpose()?.unwrap_or_default();
    let request = RawRequest {
        query: body.get("query").cloned().unwrap_or_else(|| json!({"match_all": {}})),
        custom: Default::default(),
        filters: Default::default(),
        from,
        size,
        sort: sort(body.get("sort"))?,
        aggregations,
        highlight: body.get("highlight").map(highlight).transpose()?,
        track_total_hits: track_total_hits(body.get("track_total_hits"))?,
        source: source_filter(body.get("_source"))?,
    };
    Ok((request, suggesters))
}

/// `{fields: {name: {…}} | [{name: {…}}], pre_tags, post_tags, fragment_size}`; tags default to
/// `<em>`/`</em>`, fragments to 100 characters, as in Elasticsearch.
fn highlight(spec: &Value) -> Result<(Vec<String>, Highlight), QueryError> {
    let names: Vec<String> = match spec.get("fields") {
        Some(Value::Object(fields)) => fields.keys().cloned().collect(),
        Some(Value::Array(fields)) => {
            fields.iter().filter_map(Value::as_object).flat_map(|f| f.keys().cloned()).collect()
        }
        _ => return Err(QueryError::parsing("[highlight] requires [fields]")),
    };
    let tag = |key: &str, default: &str| {
        spec.get(key)
            .and_then(Value::as_array)
            .and_then(|tags| tags.first())
            .and_then(Value::as_str)
            .unwrap_or(default)
            .to_owned()
    };
    let size = spec.get("fragment_size").and_then(Value::as_u64).unwrap_or(100);
    let max_chars = usize::try_from(size).unwrap_or(100).clamp(1, 10_000);
    Ok((names, Highlight { pre: tag("pre_tags", "<em>"), post: tag("post_tags", "</em>"), max_chars }))
}

/// `_source`: `true`/`false`, a pattern or a list of them, or `{includes, excludes}`.
fn source_filter(value: Option<&Value>) -> Result<SourceFilter, QueryError> {
    let patterns = |value: Option<&Value>| -> Result<Vec<String>, QueryError> {
        match value {
            None => Ok(Vec::new()),
            Some(Value::String(one)) => Ok(vec![one.clone()]),
            Some(Value::Array(many)) => many
                .iter()
                .map(|p| {
                    p.as_str().map(str::to_owned).ok_or_else(|| QueryError::parsing("[_source] patterns are strings"))
                })
                .collect(),
            Some(_) => Err(QueryError::parsing("[_source] patterns are strings")),
        }
    };
    match value {
        None | Some(Value::Bool(true)) => Ok(SourceFilter::All),
        Some(Value::Bool(false)) => Ok(SourceFilter::Nothing),
        Some(Value::Object(spec)) => Ok(SourceFilter::Only {
            includes: patterns(spec.get("includes").or_else(|| spec.get("include")))?,
            excludes: patterns(spec.get("excludes").or_else(|| spec.get("exclude")))?,
        }),
        other => Ok(SourceFilter::Only { includes: patterns(other)?, excludes: Vec::new() }),
    }
}

/// `track_total_hits`: `true` (exact), `false` (no total), a number (exact up to it), or
/// absent (Elasticsearch's default, exact up to 10,000).
fn track_total_hits(value: Option<&Value>) -> Result<Option<usize>, QueryError> {
    match value {
        None => Ok(Some(MAX_RESULT_WINDOW)),
        Some(Value::Bool(true)) => Ok(Some(usize::MAX)),
        Some(Value::Bool(false)) => Ok(None),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(-1) => Ok(Some(usize::MAX)),
            Some(limit) if limit >= 0 => Ok(Some(usize::try_from(limit).unwrap_or(usize::MAX))),
            _ => Err(QueryError::illegal(format!("[track_total_hits] must be positive, got [{n}]"))),
        },
        Some(other) => Err(QueryError::parsing(format!("[track_total_hits] cannot be [{other}]"))),
    }
}

/// One sort key: `_score`, or a date or always-present keyword field with its order (`"modified"`, `{"modified":
/// "desc"}`, `{"modified": {"order": "desc"}}`).
fn sort(value: Option<&Value>) -> Result<SortKey, QueryError> {
    let keys: Vec<&Value> = match value {
        None => return Ok(SortKey::Score),
        Some(Value::Array(keys)) => keys.iter().collect(),
        Some(key) => vec![key],
    };
    let [key] = keys.as_slice() else {
        return Err(QueryError::illegal("the embedded engine sorts by one key"));
    };
    let (field, order) = match key {
        Value::String(field) => (field.as_str(), None),
        Value::Object(spec) if spec.len() == 1 => {
            let (field, order) = spec.iter().next().ok_or_else(|| QueryError::parsing("empty sort"))?;
            let order = order.as_str().or_else(|| order.get("order").and_then(Value::as_str));
            (field.as_str(), order)
        }
        _ => return Err(QueryError::parsing("malformed sort")),
    };
    let order = match order {
        Some("asc") => tantivy::Order::Asc,
        Some("desc") => tantivy::Order::Desc,
        None if field == "_score" => tantivy::Order::Desc,
        None => tantivy::Order::Asc,
        Some(other) => return Err(QueryError::illegal(format!("Unknown SortOrder [{other}]"))),
    };
    match field {
        "_score" => Ok(SortKey::Score),
        "created" | "modified" | "effective" | "expires" => Ok(SortKey::Date(field.to_owned(), order)),
        "portal_type" | "review_state" | "UID" => Ok(SortKey::Keyword(field.to_owned(), order)),
        "Title" | "title" | "Description" | "description" | "SearchableText" | "Subject" | "path" => {
            Err(QueryError::illegal(format!("sorting by [{field}] is not supported by the embedded engine")))
        }
        other => Err(QueryError::shard(format!("No mapping found for [{other}] in order to sort on"))),
    }
}

/// Refuses what would count or list documents the security filter hides.
fn check_aggregations(value: &Value) -> Result<(), QueryError> {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key == "global" {
                    return Err(QueryError::illegal("[global] aggregations ignore the security filter"));
                }
                if key == "min_doc_count" && inner.as_u64() == Some(0) {
                    return Err(QueryError::illegal("[min_doc_count] 0 would list values of hidden documents"));
                }
                check_aggregations(inner)?;
            }
            Ok(())
        }
        Value::Array(items) => items.iter().try_for_each(check_aggregations),
        _ => Ok(()),
    }
}

/// Elasticsearch's name for a JSON token, as its parser errors say it.
fn token_kind(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "START_OBJECT",
        Value::Array(_) => "START_ARRAY",
        Value::String(_) => "VALUE_STRING",
        Value::Number(_) => "VALUE_NUMBER",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Null => "VALUE_NULL",
    }
}

/// Elasticsearch's error body, status 400.
fn es_error(refused: &QueryError) -> Response {
    let cause = json!({"type": refused.es_type, "reason": refused.reason});
    let body =
        json!({"error": {"root_cause": [cause], "type": refused.es_type, "reason": refused.reason}, "status": 400});
    Response::builder().status(StatusCode::BAD_REQUEST).content_type("application/json").body(body.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_use_elasticsearchs_words() {
        let refused = |body: &str| parse(body.as_bytes()).err().map(|e| (e.es_type, e.reason));
        assert_eq!(
            refused(r#"{"qurey": {}}"#),
            Some(("parsing_exception", "Unknown key for a START_OBJECT in [qurey].".into()))
        );
        assert_eq!(refused(r#"{"aggs": {"all": {"global": {}}}}"#).map(|r| r.0), Some("illegal_argument_exception"));
        let zero = r#"{"aggs": {"t": {"terms": {"field": "portal_type", "min_doc_count": 0}}}}"#;
        assert_eq!(refused(zero).map(|r| r.0), Some("illegal_argument_exception"));
        assert!(
            refused(r#"{"from": 9995, "size": 10}"#).is_some_and(|r| r.1.starts_with("Result window is too large"))
        );
        assert_eq!(
            parse(br#"{"sort": [{"modified": {"order": "desc"}}]}"#).unwrap_or_else(|e| panic!("{e}")).0.sort,
            SortKey::Date("modified".into(), tantivy::Order::Desc)
        );
    }
}
