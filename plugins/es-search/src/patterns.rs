//! How the words a visitor typed become an engine query, and which clauses every search
//! adds, all from registry records in the query DSL (`dsl`):
//!
//! - `wcs.backend.search.regular` (unquoted text) and `wcs.backend.search.quoted` (text in
//!   double quotes, quotes removed) are one query each, in which every string containing
//!   `%(term)s` gets the text put in its place, at the JSON level, so what a visitor types
//!   can never change the query's structure;
//! - `wcs.backend.search.filter` is a list of clauses every search must match;
//! - `wcs.backend.search.api_filter` is a list of clauses added when the request's host (the
//!   `Host` header without its port) is one of `wcs.backend.search.api_domains`.

use crate::dsl::{self, CustomFields, custom_fields, substitute};
use crate::engine::Highlight;
use crate::records::{
    API_DOMAINS, API_FILTER, CUSTOM_FIELDS, FILTER, HIGHLIGHT, HIGHLIGHT_POST_TAGS, HIGHLIGHT_PRE_TAGS,
    HIGHLIGHT_THRESHOLD, QUOTED, REGULAR,
};
use crate::schema::schema;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use wcs_core::http::{ApiError, ApiResult, Ctx};
use wcs_core::records::RecordDef;

/// The index's field handles (the same for every index), for checking records.
static FIELDS: LazyLock<crate::schema::Fields> = LazyLock::new(|| schema().1);

/// Where the text goes in a pattern.
pub const PLACEHOLDER: &str = "%(term)s";

/// The longest search text, in characters: every word costs the engine work.
pub const MAX_TEXT: usize = 1_000;

/// What a request's search text and the records make of it.
pub struct TextQuery {
    /// The text query (`None` when there is no text).
    pub query: Option<Value>,
    /// The clauses every search of this request adds.
    pub clauses: Vec<Value>,
    /// The custom fields the clauses may name.
    pub custom: CustomFields,
    /// How matches are marked, when highlighting is on.
    pub highlight: Option<Highlight>,
}

/// The text query for `text` and what every search of this request adds.
pub async fn text_query(ctx: &Ctx, text: &str) -> ApiResult<TextQuery> {
    let text = text.trim();
    if text.chars().count() > MAX_TEXT {
        return Err(ApiError::invalid_parameter(
            "SearchableText",
            format!("The search text is longer than {MAX_TEXT} characters."),
        ));
    }
    // Every setting a search needs, in one statement.
    let values = ctx
        .app
        .record_values(&[
            &REGULAR,
            &QUOTED,
            &FILTER,
            &API_DOMAINS,
            &API_FILTER,
            &CUSTOM_FIELDS,
            &HIGHLIGHT,
            &HIGHLIGHT_THRESHOLD,
            &HIGHLIGHT_PRE_TAGS,
            &HIGHLIGHT_POST_TAGS,
        ])
        .await?;
    let [regular, quoted_pattern, filter, domains, api_filter, custom, on, threshold, pre, post]: [Value; 10] =
        values.try_into().map_err(|_| ApiError::internal("record values"))?;
    let highlight = highlight(on, threshold, pre, post);
    let custom_raw = custom;
    let custom = custom_fields(&custom_raw);
    let valid = |record: &RecordDef, value: Value| valid(record, value, &custom_raw, &custom);
    let query = if text.is_empty() {
        None
    } else {
        let quoted = text.len() >= 2 && text.starts_with('"') && text.ends_with('"');
        let (pattern, words) = if quoted {
            (valid(&QUOTED, quoted_pattern), text.trim_matches('"'))
        } else {
            (valid(&REGULAR, regular), text)
        };
        Some(substitute(&pattern, PLACEHOLDER, words))
    };
    let mut clauses = clause_list(valid(&FILTER, filter));
    if is_api_domain(ctx, &domains) {
        clauses.extend(clause_list(valid(&API_FILTER, api_filter)));
    }
    Ok(TextQuery { query, clauses, custom, highlight })
}

/// The highlight settings, when highlighting is on; the tags' first lines are used.
fn highlight(on: Value, threshold: Value, pre: Value, post: Value) -> Option<Highlight> {
    if on.as_bool() != Some(true) {
        return None;
    }
    let first_line = |value: Value| value.as_str().and_then(|t| t.lines().next()).unwrap_or_default().trim().to_owned();
    let threshold = threshold.as_i64().unwrap_or(600);
    Some(Highlight {
        pre: first_line(pre),
        post: first_line(post),
        max_chars: usize::try_from(threshold).unwrap_or(600).clamp(20, 10_000),
        whole: false,
    })
}

/// The last value of each query record that was checked, with the custom fields it was checked
/// against and the verdict: settings rarely change, and checking means translating.
type Checked = HashMap<&'static str, (Value, Value, bool)>;
static CHECKED: LazyLock<Mutex<Checked>> = LazyLock::new(Mutex::default);

/// A record's query as stored when the engine understands it, else (logged) its default:
/// a broken setting must not break every search.
fn valid(record: &RecordDef, value: Value, custom_raw: &Value, custom: &CustomFields) -> Value {
    let checked = |memo: &Checked| match memo.get(record.name) {
        Some((v, c, ok)) if *v == value && c == custom_raw => Some(*ok),
        _ => None,
    };
    let known = checked(&CHECKED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    let ok = match known {
        Some(ok) => ok,
        None => {
            let mapping = dsl::Mapping { fields: &FIELDS, custom, unmapped_matches_nothing: false, declared: None };
            let problem = clause_list(value.clone()).iter().find_map(|clause| dsl::translate(&mapping, clause).err());
            if let Some(problem) = &problem {
                tracing::warn!(record = record.name, %problem, "search record not understood; using its default");
            }
            let ok = problem.is_none();
            CHECKED
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .insert(record.name, (value.clone(), custom_raw.clone(), ok));
            ok
        }
    };
    if ok { value } else { (record.default)() }
}

fn clause_list(value: Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items,
        Value::Null => Vec::new(),
        single => vec![single],
    }
}

/// Whether the request's host, without its port, is one of `domains`.
fn is_api_domain(ctx: &Ctx, domains: &Value) -> bool {
    let Some(host) = ctx.request.header("host") else { return false };
    let host = host_without_port(host);
    domains.as_array().into_iter().flatten().filter_map(Value::as_str).any(|d| d.trim().eq_ignore_ascii_case(host))
}

/// `example.org:8080` → `example.org`; `[::1]:8080` → `[::1]`.
fn host_without_port(host: &str) -> &str {
    let host = host.trim();
    match host.rfind(':') {
        Some(colon) if !host[colon..].contains(']') => &host[..colon],
        _ => host,
    }
}

#[cfg(test)]
mod tests {
    use super::host_without_port;

    #[test]
    fn ports_go() {
        assert_eq!(host_without_port("api.example.org:8080"), "api.example.org");
        assert_eq!(host_without_port("api.example.org"), "api.example.org");
        assert_eq!(host_without_port("[::1]:8080"), "[::1]");
        assert_eq!(host_without_port("[::1]"), "[::1]");
    }
}
