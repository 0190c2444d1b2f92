//! `POST <site>/@raw-es-search`: a search-engine query sent as is (`query`, `aggs`, `size`,
//! `from`, `sort`, `track_total_hits`), ANDed with the caller's security filters and answered
//! in Elasticsearch's `_search` shape. Refusals use Elasticsearch's error body
//! (`{error: {root_cause, type, reason}, status}`), which clients of this endpoint parse.
//! What would read hidden documents is refused: `global` aggregations (they ignore the query,
//! so the security filter) and `min_doc_count: 0` (it lists values of hidden documents).

use crate::Search;
use crate::dsl::{QueryError, custom_fields};
use crate::engine::{RawRequest, SortSpec};
use crate::raw_source;
use crate::raw_suggest::{self, TermSuggester};
use crate::records::CUSTOM_FIELDS;
use crate::scope::caller_filters;
use poem_openapi::Object;
use poem_openapi::registry::MetaResponses;
use serde_json::{Map, Value, json};
use std::time::Instant;
use wcs_core::endpoint;
use wcs_core::http::schema::{any_object, boolean, integer, object};
use wcs_core::http::{ApiError, ApiResult, Ctx, Raw, RawMeta, body_schema, media_response};
use wcs_core::poem_reexports::{Method, Response, StatusCode};
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Elasticsearch's `index.max_result_window`: `from + size` may not exceed it.
const MAX_RESULT_WINDOW: usize = 10_000;

/// The service.
pub static RAW_ES_SEARCH: Service = Service {
    method: Method::POST,
    name: "@raw-es-search",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<RawEsQuery>),
        ..Route::new(
            "",
            "A raw search-engine query (Elasticsearch DSL), security-filtered; Elasticsearch's answer shape",
            endpoint!(raw_es_search),
        )
    }],
};

/// The body: Elasticsearch's `_search` request. It is read by hand (see [`parse`]), so a
/// refusal says what Elasticsearch would; any other key is refused.
#[derive(Object)]
struct RawEsQuery {
    /// The query (Elasticsearch DSL); all documents when absent. ANDed with the caller's
    /// security filters.
    query: Option<Value>,
    /// Aggregations; `global` ones and `min_doc_count: 0` are refused.
    aggs: Option<Value>,
    /// `aggs` under its long name.
    aggregations: Option<Value>,
    /// Hits per page (default 10); `from + size` at most 10,000.
    size: Option<u64>,
    /// The first hit (default 0).
    from: Option<u64>,
    /// A key or a list of keys: `"field"`, `{"field": "desc"}`, `{"field": {"order", "missing"}}`.
    sort: Option<Value>,
    /// `true`, `false`, a limit, or -1.
    track_total_hits: Option<Value>,
    /// `true`/`false`, patterns, or `{includes, excludes}`.
    #[oai(rename = "_source")]
    source: Option<Value>,
    /// Accepted and ignored.
    timeout: Option<Value>,
    /// `{fields, pre_tags, post_tags, fragment_size}`.
    highlight: Option<Value>,
    /// Term suggesters.
    suggest: Option<Value>,
}

/// Elasticsearch's answers: the `_search` response, or its error body with 400 (a refused
/// query) or 503 (the engine is down), which clients of this endpoint parse.
struct RawEsReply;

impl RawMeta for RawEsReply {
    fn meta() -> MetaResponses {
        let found = object(
            "Elasticsearch's `_search` response: `took`, `timed_out`, `hits` (`total`, `max_score`, `hits` with \
             `_id`, `_score`, `_source`), and `aggregations` and `suggest` when asked for",
            vec![("took", integer()), ("timed_out", boolean()), ("hits", any_object())],
            &["took", "hits"],
        );
        let refused = || {
            object(
                "Elasticsearch's error body: `{error: {root_cause, type, reason}, status}`",
                vec![("error", any_object()), ("status", integer())],
                &["error", "status"],
            )
        };
        MetaResponses {
            responses: vec![
                media_response(200, "The search's answer", Some((JSON, found))),
                media_response(400, "The query was refused", Some((JSON, refused()))),
                media_response(503, "The search engine cannot be reached", Some((JSON, refused()))),
            ],
        }
    }
}

const JSON: &str = "application/json";

async fn raw_es_search(ctx: Ctx) -> ApiResult<Raw<RawEsReply>> {
    let search = ctx.app.extensions.get::<Search>().ok_or_else(|| ApiError::internal("search engine not started"))?;
    let started = Instant::now();
    let custom = custom_fields(&ctx.app.record_value(&CUSTOM_FIELDS).await?);
    let (request, suggesters) = match guarded(&ctx.body) {
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
            Ok(Raw::new(wcs_core::http::json(&body)))
        }
        Err(refused) => Ok(es_error(&refused)),
    }
}

/// [`parse`], refusing what would count or list documents the caller may not see: a caller's
/// query runs with the security filter, which these aggregations would pass by.
fn guarded(body: &[u8]) -> Result<(RawRequest, Vec<TermSuggester>), QueryError> {
    let parsed = parse(body)?;
    if let Some(aggregations) = &parsed.0.aggregations {
        check_aggregations(aggregations)?;
    }
    Ok(parsed)
}

/// The request body, checked; custom fields and filters are the caller's to add.
pub fn parse(body: &[u8]) -> Result<(RawRequest, Vec<TermSuggester>), QueryError> {
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
            "stored_fields",
            "docvalue_fields",
        ];
        if !known.contains(&key.as_str()) {
            return Err(QueryError::parsing(format!("Unknown key for a {} in [{key}].", token_kind(value))));
        }
    }
    let count = |key: &str, default: usize| -> Result<usize, QueryError> {
        match body.get(key) {
            None => Ok(default),
            Some(value) if value.as_i64().is_some_and(|n| n < 0) => Err(QueryError::illegal(match key {
                "from" => "[from] parameter cannot be negative".to_owned(),
                _ => format!("[{key}] parameter cannot be negative, found [{value}]"),
            })),
            Some(value) => value
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| QueryError::parsing(format!("[{key}] must be a non-negative integer"))),
        }
    };
    let (from, size) = (count("from", 0)?, count("size", 10)?);
    if from.saturating_add(size) > MAX_RESULT_WINDOW {
        return Err(QueryError::illegal(format!(
            "Result window is too large, from + size must be less than or equal to: [{MAX_RESULT_WINDOW}] but was \
             [{}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by \
             changing the [index.max_result_window] index level setting.",
            from.saturating_add(size)
        ))
        .on_shard());
    }
    let aggregations = body.get("aggs").or_else(|| body.get("aggregations")).cloned();
    let suggesters = body.get("suggest").map(raw_suggest::parse).transpose()?.unwrap_or_default();
    let request = RawRequest {
        query: body.get("query").cloned().unwrap_or_else(|| json!({"match_all": {}})),
        custom: Default::default(),
        filters: Default::default(),
        from,
        size,
        sort: sort(body.get("sort"))?,
        aggregations,
        highlight: body.get("highlight").map(crate::raw_highlight::parse).transpose()?,
        track_total_hits: track_total_hits(body.get("track_total_hits"))?,
        source: raw_source::source_filter(body.get("_source"), body.get("stored_fields"))?,
        docvalue_fields: raw_source::docvalue_fields(body.get("docvalue_fields"))?,
    };
    Ok((request, suggesters))
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
            _ => Err(QueryError::illegal(format!(
                "[track_total_hits] parameter must be positive or equals to -1, got {n}"
            ))),
        },
        Some(other) => Err(QueryError::parsing(format!("[track_total_hits] cannot be [{other}]"))),
    }
}

/// The most sort keys a request may give.
const MAX_SORT_KEYS: usize = 16;

/// `sort`: a key or a list of keys, each `"field"`, `{"field": "desc"}` or `{"field": {"order",
/// "missing"}}`; which fields can be sorted on is the engine's to say.
fn sort(value: Option<&Value>) -> Result<Vec<SortSpec>, QueryError> {
    let keys: Vec<&Value> = match value {
        None => return Ok(Vec::new()),
        Some(Value::Array(keys)) => keys.iter().collect(),
        Some(key) => vec![key],
    };
    if keys.len() > MAX_SORT_KEYS {
        return Err(QueryError::illegal(format!("at most {MAX_SORT_KEYS} sort keys")));
    }
    keys.into_iter()
        .map(|key| {
            let (field, order, missing) = match key {
                Value::String(field) => (field.as_str(), None, None),
                Value::Object(spec) if spec.len() == 1 => {
                    let (field, options) = spec.iter().next().ok_or_else(|| QueryError::parsing("empty sort"))?;
                    let order = options.as_str().or_else(|| options.get("order").and_then(Value::as_str));
                    (field.as_str(), order, options.get("missing").and_then(Value::as_str))
                }
                _ => return Err(QueryError::parsing("malformed sort")),
            };
            let descending = match order {
                None => None,
                Some(order) if order.eq_ignore_ascii_case("asc") => Some(false),
                Some(order) if order.eq_ignore_ascii_case("desc") => Some(true),
                Some(other) => return Err(QueryError::illegal(format!("Unknown SortOrder [{other}]"))),
            };
            Ok(SortSpec { field: field.to_owned(), descending, missing_first: missing == Some("_first") })
        })
        .collect()
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

/// Elasticsearch's error body, with its status (400, or 503 when the engine is down).
fn es_error(refused: &QueryError) -> Raw<RawEsReply> {
    Raw::new(
        Response::builder()
            .status(StatusCode::from_u16(refused.status()).unwrap_or(StatusCode::BAD_REQUEST))
            .content_type(JSON)
            .body(es_error_body(refused).to_string()),
    )
}

/// Elasticsearch's error body: `{error: {root_cause, type, reason}, status: 400}`.
pub(crate) fn es_error_body(refused: &QueryError) -> Value {
    let cause = json!({"type": refused.es_type, "reason": refused.reason});
    if refused.on_shard {
        let failed = json!([{"shard": 0, "index": "plone", "reason": cause}]);
        return json!({"error": {
            "root_cause": [cause],
            "type": "search_phase_execution_exception",
            "reason": "all shards failed",
            "phase": "query",
            "grouped": true,
            "failed_shards": failed,
        }, "status": 400});
    }
    let mut error = json!({"root_cause": [cause], "type": refused.es_type, "reason": refused.reason});
    if let Some((es_type, reason)) = &refused.caused_by {
        error["caused_by"] = json!({"type": es_type, "reason": reason});
    }
    json!({"error": error, "status": refused.status()})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_use_elasticsearchs_words() {
        let refused = |body: &str| guarded(body.as_bytes()).err().map(|e| (e.es_type, e.reason));
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
            parse(br#"{"sort": [{"modified": {"order": "desc"}}, "_score"]}"#).unwrap_or_else(|e| panic!("{e}")).0.sort,
            [
                SortSpec { field: "modified".into(), descending: Some(true), missing_first: false },
                SortSpec { field: "_score".into(), descending: None, missing_first: false }
            ]
        );
        assert_eq!(refused(r#"{"sort": {"modified": "up"}}"#).map(|r| r.1), Some("Unknown SortOrder [up]".into()));
    }
}
