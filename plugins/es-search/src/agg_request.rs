//! Elasticsearch's aggregation requests made into tantivy's: fields named as the index keeps
//! them, options tantivy does not read taken out (`meta`, `format`, hints; their effect on the
//! answer is [`crate::agg_answer`]'s), values in tantivy's units (date bounds in nanoseconds),
//! and what Elasticsearch refuses refused in its words, before tantivy would read it
//! unchecked.

use crate::declared::{DeclaredField, DeclaredType};
use crate::dsl::{CustomKind, Kind, Mapping, QueryError};
use serde_json::{Map, Value, json};

/// Elasticsearch's `search.max_buckets`, which bounds every aggregation.
pub const MAX_BUCKETS: u32 = 65_536;

/// The kinds whose values must be numbers.
const NUMERIC: [&str; 8] = ["avg", "sum", "min", "max", "stats", "extended_stats", "histogram", "percentiles"];

/// Options tantivy does not read, whose effect (if any) the answer gets afterwards.
const DROPPED: [&str; 6] =
    ["format", "execution_hint", "collect_mode", "value_type", "precision_threshold", "time_zone"];

/// The kind of an aggregation body (`{"terms": {…}, "aggs": {…}, "meta": {…}}`).
pub fn kind(body: &Value) -> Option<(&str, &Value)> {
    body.as_object()?
        .iter()
        .find(|(key, _)| !["aggs", "aggregations", "meta"].contains(&key.as_str()))
        .map(|(key, value)| (key.as_str(), value))
}

/// The sub-aggregations of an aggregation body.
pub fn subs(body: &Value) -> Option<&Value> {
    body.get("aggs").or_else(|| body.get("aggregations"))
}

/// The declared field an aggregation reads, if the mapping declares it.
pub fn declared<'a>(mapping: &'a Mapping<'_>, options: &Value) -> Option<&'a DeclaredField> {
    let name = options.get("field").and_then(Value::as_str)?;
    mapping.declared.and_then(|(declared, _)| declared.get(name))
}

/// Whether the field an aggregation reads is a date.
pub fn is_date(mapping: &Mapping<'_>, options: &Value) -> bool {
    let Some(name) = options.get("field").and_then(Value::as_str) else { return false };
    match crate::dsl::field(mapping, name) {
        Ok(Kind::Typed(field)) => field.kind == DeclaredType::Date,
        // The site index's own dates are seconds, answered as tantivy gives them.
        Ok(Kind::CustomTyped(_, _, CustomKind::Date)) => true,
        _ => options.get("value_type").and_then(Value::as_str) == Some("date"),
    }
}

/// The aggregations `asked` in tantivy's form.
pub fn prepare(asked: &Value, mapping: &Mapping<'_>) -> Result<Value, QueryError> {
    let asked = asked.as_object().ok_or_else(|| QueryError::parsing("[aggs] must be an object"))?;
    let mut out = Map::new();
    for (name, body) in asked {
        let body = body
            .as_object()
            .ok_or_else(|| QueryError::parsing(format!("Expected [START_OBJECT] under [{name}], but got a value")))?;
        let mut prepared = Map::new();
        for (key, value) in body {
            match key.as_str() {
                "meta" => {}
                "aggs" | "aggregations" => {
                    prepared.insert("aggs".into(), prepare(value, mapping)?);
                }
                kind => {
                    prepared.insert(kind.to_owned(), options(name, kind, value, mapping)?);
                }
            }
        }
        out.insert(name.clone(), Value::Object(prepared));
    }
    Ok(Value::Object(out))
}

/// One aggregation's options in tantivy's form.
fn options(name: &str, kind: &str, options: &Value, mapping: &Mapping<'_>) -> Result<Value, QueryError> {
    let mut out = options.as_object().cloned().ok_or_else(|| {
        QueryError::parsing(format!("Expected [START_OBJECT] under [{kind}], but got a value in [{name}]"))
    })?;
    if let Some(Value::String(field)) = out.get_mut("field") {
        *field = column(field, kind, mapping)?;
    } else if ["terms", "avg", "sum", "min", "max", "stats", "extended_stats", "cardinality", "value_count"]
        .contains(&kind)
    {
        return Err(QueryError::illegal("Required one of fields [field, script], but none were specified."));
    }
    for key in DROPPED {
        out.remove(key);
    }
    match kind {
        "terms" => {
            for key in ["size", "shard_size", "segment_size"] {
                if let Some(size) = out.get_mut(key) {
                    // Clients send 2147483647 for "all"; tantivy's arithmetic overflows on it.
                    if size.as_u64().is_none_or(|n| n > u64::from(MAX_BUCKETS)) && size.as_i64() != Some(0) {
                        *size = json!(MAX_BUCKETS);
                    }
                }
            }
            // tantivy's keys are strings or numbers.
            if let Some(Value::Bool(missing)) = out.get("missing") {
                let text = missing.to_string();
                out.insert("missing".into(), json!(text));
            }
            // Values of other types than strings, and partitions, are picked from the answer.
            let strings = declared(mapping, options).is_none_or(|f| f.kind == DeclaredType::Keyword);
            for key in ["include", "exclude"] {
                if !strings || out.get(key).is_some_and(Value::is_object) {
                    out.remove(key);
                }
            }
        }
        "cardinality" => {
            if let Some(threshold) = options.get("precision_threshold").and_then(Value::as_f64)
                && threshold < 0.0
            {
                return Err(QueryError::illegal(format!(
                    "[precisionThreshold] must be greater than or equal to 0. Found [{threshold}] in [{name}]"
                )));
            }
        }
        "extended_stats" => match options.get("sigma") {
            None => {}
            Some(Value::Number(sigma)) if sigma.as_f64().is_some_and(|s| s >= 0.0) => {}
            Some(Value::Number(sigma)) => {
                return Err(QueryError::illegal(format!(
                    "[sigma] must be greater than or equal to 0. Found [{}] in [{name}]",
                    crate::java_format::double(sigma.as_f64().unwrap_or_default())
                )));
            }
            Some(_) => return Err(QueryError::content("[extended_stats] failed to parse field [sigma]")),
        },
        "range" => {
            let bounds = range_bounds(name, options, mapping)?;
            out.remove("missing");
            // tantivy answers with the gaps between the ranges filled; keys tell the asked ones.
            out.insert("keyed".into(), json!(false));
            let ranges: Vec<Value> = bounds
                .into_iter()
                .enumerate()
                .map(|(index, (from, to))| {
                    let mut range = json!({"key": format!("{RANGE_KEY}{index}")});
                    if let Some(from) = from {
                        range["from"] = json!(from);
                    }
                    if let Some(to) = to {
                        range["to"] = json!(to);
                    }
                    range
                })
                .collect();
            out.insert("ranges".into(), Value::Array(ranges));
        }
        "histogram" => {
            out.remove("missing");
            if options.get("interval").and_then(Value::as_f64).is_none_or(|i| i <= 0.0) {
                return Err(QueryError::illegal(format!("[interval] must be >0 for histogram aggregation [{name}]")));
            }
        }
        "date_histogram" => date_histogram(name, &mut out, options)?,
        _ => {}
    }
    Ok(Value::Object(out))
}

/// A range's lower and upper bound (`None` where it is open).
pub type Bounds = (Option<f64>, Option<f64>);

/// The key a range is asked of tantivy under: this and its place among the asked ranges.
pub const RANGE_KEY: &str = "#range";

/// The bounds of a `range` aggregation's ranges in the units of tantivy's column: dates in
/// nanoseconds, and on a column of whole numbers rounded up (`[24.9, 79.9)` holds what
/// `[25, 80)` holds), which tantivy would truncate.
pub fn range_bounds(name: &str, options: &Value, mapping: &Mapping<'_>) -> Result<Vec<Bounds>, QueryError> {
    let ranges = options.get("ranges").and_then(Value::as_array).filter(|r| !r.is_empty());
    let ranges =
        ranges.ok_or_else(|| QueryError::illegal(format!("No [ranges] specified for the [{name}] aggregation")))?;
    let date = is_date(mapping, options);
    let whole = declared(mapping, options).is_some_and(|f| f.kind == DeclaredType::Integer);
    let bound = |range: &Value, key: &str| -> Result<Option<f64>, QueryError> {
        match range.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) if date => {
                let millis = crate::date_formats::millis(value, None)
                    .ok_or_else(|| QueryError::parsing(format!("failed to parse date field [{value}] of [{name}]")))?;
                Ok(Some(millis as f64 * 1e6))
            }
            Some(value) => {
                let number = value.as_f64().or_else(|| value.as_str()?.parse().ok()).ok_or_else(|| {
                    QueryError::parsing(format!("[{key}] of a range of [{name}] must be a number, not {value}"))
                })?;
                Ok(Some(if whole { number.ceil() } else { number }))
            }
        }
    };
    ranges.iter().map(|range| Ok((bound(range, "from")?, bound(range, "to")?))).collect()
}

/// `calendar_interval` of a unit of fixed length as tantivy's `fixed_interval`; bounds given
/// as dates in milliseconds. Months, quarters and years are the engine's own
/// ([`crate::calendar_histogram`]) and never come here.
fn date_histogram(name: &str, out: &mut Map<String, Value>, options: &Value) -> Result<(), QueryError> {
    if let Some(zone) = options.get("time_zone").and_then(Value::as_str)
        && !["UTC", "Z", "+00:00", "GMT", "Etc/UTC"].contains(&zone)
    {
        return Err(QueryError::illegal(format!(
            "[time_zone] [{zone}] of [{name}]: the embedded engine keeps dates in UTC only"
        )));
    }
    if let Some(unit) = out.remove("calendar_interval").or_else(|| out.remove("interval")) {
        let fixed = match unit.as_str().unwrap_or_default() {
            "second" | "1s" => "1s",
            "minute" | "1m" => "1m",
            "hour" | "1h" => "1h",
            "day" | "1d" => "1d",
            "week" | "1w" => {
                // Weeks start on Mondays; tantivy's buckets start at the epoch, a Thursday.
                out.entry("offset").or_insert(json!("-3d"));
                "7d"
            }
            other if other.ends_with(['s', 'm', 'h', 'd']) => other,
            other => {
                return Err(QueryError::illegal(format!(
                    "The supplied interval [{other}] could not be parsed as a calendar interval."
                )));
            }
        };
        out.insert("fixed_interval".into(), json!(fixed));
    }
    for bounds in ["extended_bounds", "hard_bounds"] {
        if let Some(Value::Object(bounds)) = out.get_mut(bounds) {
            for value in bounds.values_mut() {
                if let Some(millis) = crate::date_formats::millis(value, None) {
                    *value = json!(millis);
                }
            }
        }
    }
    Ok(())
}

/// Whether `calendar_interval` names a unit of varying length (months, quarters, years).
pub fn is_calendar(options: &Value) -> bool {
    let unit = options.get("calendar_interval").or_else(|| options.get("interval")).and_then(Value::as_str);
    matches!(unit, Some("month" | "1M" | "quarter" | "1q" | "year" | "1y"))
}

/// The column a field's values are aggregated from, or Elasticsearch's refusal to aggregate
/// them (full-text fields, strings for numeric aggregations).
fn column(name: &str, kind: &str, mapping: &Mapping<'_>) -> Result<String, QueryError> {
    if let Some((declared, _)) = mapping.declared {
        let Some(field) = declared.get(name) else { return Ok(name.to_owned()) };
        if matches!(field.kind, DeclaredType::Text(_) | DeclaredType::Completion) {
            return Err(crate::raw_sort::text_field(name));
        }
        if field.kind == DeclaredType::Keyword && NUMERIC.contains(&kind) {
            let reason = format!("Field [{name}] of type [keyword] is not supported for aggregation [{kind}]");
            return Err(QueryError::illegal(reason).on_shard());
        }
        return Ok(field.column.clone());
    }
    Ok(match mapping.custom.get(name) {
        Some(CustomKind::Text) => format!("custom_text.{name}"),
        Some(_) => format!("custom_keyword.{name}"),
        None => name.to_owned(),
    })
}
