//! Volto's listing and search blocks query with plone.app.querystring's criteria
//! (`[{"i": index, "o": operation, "v": value}]`): `@querystring` describes the indexes and
//! operations this server answers, `@querystring-search` runs such a query. The criteria become
//! the catalog query `@search` takes, so both search alike, with the caller's security.

pub mod collection;
pub mod config;
pub mod records;
pub mod search;

use crate::catalog::{DateIndex, FieldIndex};
use crate::http::{ApiError, ApiResult};
use chrono::{Duration, Utc};
use serde_json::Value;

use records::OPERATION;

/// The most criteria one query may have.
const MAX_CRITERIA: usize = 50;

/// Plone's answer to a query it cannot run.
fn invalid(reason: impl std::fmt::Display) -> ApiError {
    ApiError::new(crate::http::ErrorCode::BadRequest, format!("Invalid query: {reason}"))
}

/// A criterion's values: a scalar or a list of scalars (none when `v` is missing). Anything
/// else (an object such as `{"query": …}`, nested lists) is refused rather than ignored, so a
/// query never silently widens to the whole site.
fn values(index: &str, value: &Value) -> ApiResult<Vec<String>> {
    let refused = || invalid(format!("the value of the criterion on {index} must be a string or a list of strings"));
    match value {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items.iter().map(|item| scalar(item).ok_or_else(refused)).collect(),
        other => scalar(other).map(|one| vec![one]).ok_or_else(refused),
    }
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Where a path criterion points (`/a/b::2` with a depth), relative ones from `context_path`.
fn path_value(value: &str, context_path: &str, site_path: &str, relative: bool) -> (String, Option<String>) {
    let (path, depth) = match value.rsplit_once("::") {
        Some((path, depth)) => (path, Some(depth.to_owned())),
        None => (value, None),
    };
    if !relative {
        let path = if path.starts_with(site_path) { path.to_owned() } else { format!("{site_path}{path}") };
        return (path.trim_end_matches('/').to_owned(), depth);
    }
    let mut segments: Vec<&str> = context_path.split('/').filter(|s| !s.is_empty()).collect();
    for step in path.split('/').filter(|s| !s.is_empty()) {
        match step {
            "." => {}
            // Never above the site.
            ".." if segments.len() > 1 => {
                segments.pop();
            }
            ".." => {}
            name => segments.push(name),
        }
    }
    (format!("/{}", segments.join("/")), depth)
}

/// Where a querystring query runs, which its relative criteria refer to.
pub struct QueryPlace<'a> {
    /// The physical path of the listing's object.
    pub context_path: &'a str,
    /// The physical path of the site.
    pub site_path: &'a str,
    /// The date indexes plugins add to core's.
    pub registered: &'a [&'static FieldIndex],
    /// The caller's user id (`string.currentUser`); `None` when anonymous.
    pub user: Option<&'a str>,
}

/// The catalog query (`@search`'s parameters) of a querystring query.
pub fn to_search_pairs(body: &Value, place: &QueryPlace<'_>) -> ApiResult<Vec<(String, String)>> {
    let QueryPlace { context_path, site_path, registered, user } = *place;
    let criteria = body.get("query").and_then(Value::as_array).ok_or_else(|| invalid("No query supplied"))?;
    if criteria.len() > MAX_CRITERIA {
        return Err(invalid(format!("at most {MAX_CRITERIA} criteria")));
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut push = |key: &str, value: String| pairs.push((key.to_owned(), value));
    let today = Utc::now().date_naive().and_hms_opt(0, 0, 0).map(|t| t.and_utc()).unwrap_or_else(Utc::now);
    for criterion in criteria {
        let index = criterion.get("i").and_then(Value::as_str).ok_or_else(|| invalid("a criterion needs 'i'"))?;
        let operation = criterion.get("o").and_then(Value::as_str).ok_or_else(|| invalid("a criterion needs 'o'"))?;
        let op = operation.strip_prefix(OPERATION).unwrap_or(operation);
        let value = criterion.get("v").cloned().unwrap_or(Value::Null);
        match (index, op) {
            (
                "portal_type" | "review_state" | "Subject" | "UID" | "getId" | "Creator" | "sortable_title"
                | "Language",
                "selection.any" | "selection.is" | "string.is",
            ) => {
                values(index, &value)?.into_iter().for_each(|v| push(index, v));
            }
            ("Creator", "string.currentUser") => {
                // Anonymous callers created nothing: a value no user id has.
                push("Creator", user.unwrap_or_default().to_owned());
            }
            ("Subject", "selection.all") => {
                values(index, &value)?.into_iter().for_each(|v| push("Subject.query", v));
                push("Subject.operator", "and".into());
            }
            (
                "portal_type" | "review_state" | "Subject" | "Creator" | "getId" | "sortable_title" | "Language",
                "selection.none" | "string.isNot",
            ) => {
                values(index, &value)?.into_iter().for_each(|v| push(&format!("{index}.not"), v));
            }
            ("SearchableText" | "Title" | "Description", "string.contains" | "string.is") => {
                values(index, &value)?.into_iter().for_each(|v| push(index, v))
            }
            // Plone's `_contains` on a field index is equality; words of the title are what
            // an editor means.
            ("sortable_title", "string.contains") => values(index, &value)?.into_iter().for_each(|v| push("Title", v)),
            ("getObjPositionInParent", "int.is" | "int.lessThan" | "int.largerThan") => {
                let number = values(index, &value)?
                    .first()
                    .and_then(|v| v.trim().parse::<i64>().ok())
                    .ok_or_else(|| invalid(format!("{op} on {index} needs a whole number")))?;
                push("getObjPositionInParent.query", number.to_string());
                let range = match op {
                    "int.lessThan" => Some("max"),
                    "int.largerThan" => Some("min"),
                    _ => None,
                };
                if let Some(range) = range {
                    push("getObjPositionInParent.range", range.to_owned());
                }
            }
            ("getRawRelatedItems", "reference.is") => {
                for raw in values(index, &value)? {
                    // A UID, or a path (its depth suffix dropped) anchored at the site.
                    let target = raw.split("::").next().unwrap_or_default().trim().to_owned();
                    let target = if target.contains('/') {
                        path_value(&target, context_path, site_path, false).0
                    } else {
                        target
                    };
                    push("getRawRelatedItems", target);
                }
            }
            ("isDefaultPage" | "isFolderish", "boolean.isTrue" | "boolean.isFalse") => {
                push(index, (op == "boolean.isTrue").to_string());
            }
            ("path", "string.absolutePath" | "string.path" | "string.relativePath") => {
                let relative = op == "string.relativePath";
                for raw in values(index, &value)? {
                    let (path, depth) = path_value(&raw, context_path, site_path, relative);
                    push("path.query", path);
                    if let Some(depth) = depth {
                        push("path.depth", depth);
                    }
                }
            }
            (index, date_op) if DateIndex::named(index, registered).is_some() => {
                let (min, max) = date_bounds(date_op, &value, today)?;
                let key = format!("{index}.query");
                let range = match (&min, &max) {
                    (Some(min), Some(max)) => {
                        push(&key, min.clone());
                        push(&key, max.clone());
                        "min:max"
                    }
                    (Some(min), None) => {
                        push(&key, min.clone());
                        "min"
                    }
                    (None, Some(max)) => {
                        push(&key, max.clone());
                        "max"
                    }
                    (None, None) => continue,
                };
                push(&format!("{index}.range"), range.to_owned());
            }
            (index, op) => return Err(invalid(format!("the operation {op} on {index} is not supported"))),
        }
    }
    if let Some(sort_on) = body.get("sort_on").and_then(scalar).filter(|s| !s.is_empty()) {
        push("sort_on", sort_on);
        // As plone.app.querystring reads it: only `descending` sorts backwards.
        let descending = body.get("sort_order").and_then(Value::as_str) == Some("descending");
        push("sort_order", if descending { "descending" } else { "ascending" }.into());
    }
    for key in ["b_start", "b_size"] {
        if let Some(value) = body.get(key).and_then(scalar) {
            push(key, value);
        }
    }
    if let Some(limit) = body.get("limit").and_then(Value::as_i64).filter(|l| *l > 0) {
        push("sort_limit", limit.to_string());
    }
    if body.get("fullobjects").is_some_and(|f| f == true || f == 1 || f == "1") {
        push("fullobjects", "1".into());
    }
    for field in values("metadata_fields", body.get("metadata_fields").unwrap_or(&Value::Null))? {
        push("metadata_fields", field);
    }
    Ok(pairs)
}

/// The bounds of a date operation, as ISO texts (`None` for an open side).
fn date_bounds(op: &str, value: &Value, today: chrono::DateTime<Utc>) -> ApiResult<(Option<String>, Option<String>)> {
    let iso = |t: chrono::DateTime<Utc>| Some(t.to_rfc3339());
    let given = values("a date", value)?;
    let first = || given.first().cloned().ok_or_else(|| invalid(format!("{op} needs a value")));
    let days = || -> ApiResult<i64> {
        let days: i64 = first()?.trim().parse().map_err(|_| invalid(format!("{op} needs a number of days")))?;
        Ok(days.clamp(-36_500, 36_500))
    };
    Ok(match op {
        "date.lessThan" => (None, Some(first()?)),
        "date.largerThan" => (Some(first()?), None),
        "date.between" => match given.as_slice() {
            [min, max] => (Some(min.clone()), Some(max.clone())),
            _ => return Err(invalid("date.between needs two dates")),
        },
        "date.today" => (iso(today), iso(today + Duration::days(1) - Duration::seconds(1))),
        "date.beforeToday" => (None, iso(today - Duration::seconds(1))),
        "date.afterToday" => (iso(today + Duration::days(1)), None),
        // Days as plone.app.querystring counts them: whole days from today's start.
        "date.lessThanRelativeDate" => (iso(today), iso(today + Duration::days(days()? + 1) - Duration::seconds(1))),
        "date.largerThanRelativeDate" => {
            (iso(today - Duration::days(days()?)), iso(today + Duration::days(1) - Duration::seconds(1)))
        }
        "date.beforeRelativeDate" => (None, iso(today - Duration::days(days()?))),
        "date.afterRelativeDate" => (iso(today + Duration::days(days()?)), None),
        other => return Err(invalid(format!("the operation {other} is not supported on dates"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn place(context_path: &str) -> QueryPlace<'_> {
        QueryPlace { context_path, site_path: "/Plone", registered: &[], user: None }
    }

    #[test]
    fn criteria_become_the_catalog_query() {
        let body = json!({"query": [
            {"i": "portal_type", "o": "plone.app.querystring.operation.selection.any", "v": ["Document", "News Item"]},
            {"i": "path", "o": "plone.app.querystring.operation.string.relativePath", "v": "..::1"},
            {"i": "review_state", "o": "plone.app.querystring.operation.selection.none", "v": ["private"]},
            {"i": "effective", "o": "plone.app.querystring.operation.date.largerThan", "v": "2026-01-01"}
        ], "sort_on": "effective", "sort_order": "reverse", "b_size": 2, "limit": 10});
        let pairs = to_search_pairs(&body, &place("/Plone/a/b")).unwrap_or_default();
        let has = |k: &str, v: &str| pairs.contains(&(k.to_owned(), v.to_owned()));
        assert!(has("portal_type", "Document") && has("portal_type", "News Item"));
        assert!(has("path.query", "/Plone/a") && has("path.depth", "1"));
        assert!(has("review_state.not", "private"));
        assert!(has("effective.query", "2026-01-01") && has("effective.range", "min"));
        assert!(has("sort_order", "ascending"), "only 'descending' reverses, as in Plone");
        assert!(has("b_size", "2") && has("sort_limit", "10"));
        assert!(to_search_pairs(&json!({}), &place("/Plone")).is_err());
        let unknown = json!({"query": [{"i": "Creator", "o": "x.y.string.currentUser", "v": ""}]});
        let mine = json!({"query": [{"i": "Creator", "o": "plone.app.querystring.operation.string.currentUser"}]});
        let as_anna = QueryPlace { user: Some("anna"), ..place("/Plone") };
        assert_eq!(to_search_pairs(&mine, &as_anna).ok(), Some(vec![("Creator".to_owned(), "anna".to_owned())]));
        assert!(to_search_pairs(&unknown, &place("/Plone")).is_err());
    }

    #[test]
    fn values_that_are_not_strings_are_refused_not_ignored() {
        let path = "plone.app.querystring.operation.string.absolutePath";
        for v in [json!({"query": "/Plone/a"}), json!([["/Plone/a"]]), json!([{"query": "/Plone/a"}])] {
            let body = json!({"query": [{"i": "path", "o": path, "v": v}]});
            let refused = to_search_pairs(&body, &place("/Plone")).map(|_| ()).map_err(|e| e.message.clone());
            assert!(refused.as_ref().is_err_and(|m| m.contains("criterion on path")), "{v}: {refused:?}");
        }
        let missing = json!({"query": [{"i": "portal_type", "o": "plone.app.querystring.operation.selection.any"}]});
        assert_eq!(to_search_pairs(&missing, &place("/Plone")).map(|pairs| pairs.len()).ok(), Some(0));
    }
}
