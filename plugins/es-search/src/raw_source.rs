//! What a raw query's hits give of their documents: `_source` (all of it, none, or what
//! patterns keep), `stored_fields` (which, naming no `_source`, leaves it out: the engine
//! stores no field to give instead) and `docvalue_fields`.

use crate::dsl::QueryError;
use crate::engine::SourceFilter;
use serde_json::Value;

/// Whether `stored_fields` leaves `_source` out: it does unless it names `_source` (the engine
/// stores no field of its own to give instead).
fn stored_fields_without_source(value: Option<&Value>) -> bool {
    match value {
        None => false,
        Some(Value::String(one)) => one != "_source" && one != "*",
        Some(Value::Array(many)) => !many.iter().any(|f| f == "_source" || f == "*"),
        Some(_) => true,
    }
}

/// The most `docvalue_fields` a request may name.
const MAX_DOCVALUE_FIELDS: usize = 100;

/// `docvalue_fields`: names, or `{field, format}`.
pub fn docvalue_fields(value: Option<&Value>) -> Result<Vec<(String, Option<String>)>, QueryError> {
    let Some(value) = value else { return Ok(Vec::new()) };
    let items = value.as_array().ok_or_else(|| QueryError::parsing("[docvalue_fields] must be a list"))?;
    if items.len() > MAX_DOCVALUE_FIELDS {
        return Err(QueryError::illegal(format!("at most {MAX_DOCVALUE_FIELDS} docvalue_fields")));
    }
    items
        .iter()
        .map(|item| match item {
            Value::String(name) => Ok((name.clone(), None)),
            Value::Object(spec) => {
                let name = spec.get("field").and_then(Value::as_str);
                let name = name.ok_or_else(|| QueryError::parsing("[docvalue_fields] entries need a [field]"))?;
                Ok((name.to_owned(), spec.get("format").and_then(Value::as_str).map(str::to_owned)))
            }
            _ => Err(QueryError::parsing("[docvalue_fields] entries are names or objects")),
        })
        .collect()
}

/// `_source`: `true`/`false`, a pattern or a list of them, or `{includes, excludes}`; none when
/// `stored_fields` leaves it out.
pub fn source_filter(value: Option<&Value>, stored_fields: Option<&Value>) -> Result<SourceFilter, QueryError> {
    if stored_fields_without_source(stored_fields) {
        return Ok(SourceFilter::Nothing);
    }
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
