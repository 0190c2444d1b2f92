//! Bucket aggregations the engine answers itself, where tantivy cannot: `date_histogram` by
//! months, quarters or years; `histogram` with a `missing` value; and any bucket aggregation
//! (`terms`, `range`, `histogram`, `date_histogram`) holding sub-aggregations tantivy does not
//! run (`filter`, `filters`, or these), or a `terms` ordered by such a sub-aggregation
//! (`"order": {"filter>max": "desc"}`). The buckets come first; each bucket's
//! sub-aggregations are then computed over the query narrowed to the bucket, one search per
//! bucket, within the query's budget of searches.

use crate::agg_request::{declared, is_calendar, kind, subs};
use crate::calendar::{Unit, offset};
use crate::dsl::{self, Mapping, QueryError};
use crate::tantivy_engine::TantivyEngine;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use tantivy::collector::{Count, DocSetCollector};
use tantivy::query::{BooleanQuery, Occur, Query};
use tantivy::{DateTime, Searcher};

/// Whether the engine answers this aggregation itself rather than tantivy.
pub fn is_ours(body: &Value) -> bool {
    let Some((kind, options)) = kind(body) else { return false };
    match kind {
        "filter" | "filters" => true,
        "date_histogram" if is_calendar(options) => true,
        "histogram" | "range" if options.get("missing").is_some() => true,
        "terms" | "range" | "histogram" | "date_histogram" => {
            let ours_below = subs(body).and_then(Value::as_object).is_some_and(|s| s.values().any(is_ours));
            ours_below || (kind == "terms" && ordered_by_path(options).is_some())
        }
        _ => false,
    }
}

/// A terms aggregation's order by a sub-aggregation path (`filter>max_number`): the path and
/// whether it is descending.
fn ordered_by_path(options: &Value) -> Option<(String, bool)> {
    let order = options.get("order")?;
    let first = match order {
        Value::Array(orders) => orders.first()?,
        one => one,
    };
    let (path, direction) = first.as_object()?.iter().next()?;
    let descending = direction.as_str().is_some_and(|d| d.eq_ignore_ascii_case("desc"));
    (path.contains('>') || path.contains('.')).then(|| (path.clone(), descending))
}

impl TantivyEngine {
    /// The answer of one aggregation the engine answers itself.
    pub(crate) fn refined(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        name: &str,
        body: &Value,
        mapping: &Mapping<'_>,
        budget: &mut usize,
    ) -> Result<Value, QueryError> {
        let (kind, options) = kind(body).ok_or_else(|| QueryError::parsing(format!("[{name}] is empty")))?;
        let by_path = if kind == "terms" { ordered_by_path(options) } else { None };
        let mut result = if kind == "date_histogram" && is_calendar(options) {
            self.calendar(searcher, query, options, mapping)?
        } else {
            let mut alone = json!({ kind: options.clone() });
            if by_path.is_some() {
                // Every term, to be ordered once the sub-aggregations are known.
                alone[kind]["size"] = json!(crate::agg_request::MAX_BUCKETS);
                if let Some(o) = alone[kind].as_object_mut() {
                    o.remove("order");
                }
            }
            let mut answer = self.aggregate(searcher, query, &json!({ name: alone }), mapping)?;
            answer[name].take()
        };
        if let Some(missing) = options.get("missing").and_then(Value::as_f64)
            && (kind == "histogram" || kind == "range")
        {
            let field = options.get("field").cloned().unwrap_or(Value::Null);
            let lacking = json!({"bool": {"must_not": [{"exists": {"field": field}}]}});
            let narrowed = and(query, dsl::translate(mapping, &lacking)?);
            let count = searcher.search(&narrowed, &Count).map_err(|e| QueryError::execution(e.to_string()))?;
            if kind == "range" {
                add_missing_range(&mut result, missing, count);
            } else {
                add_missing(&mut result, options, missing, count);
            }
        }
        if let Some(subs) = subs(body) {
            let interval = options.get("interval").and_then(Value::as_f64);
            let mut buckets = crate::agg_answer::buckets_mut(&mut result);
            let next_keys: Vec<Option<f64>> =
                (0..buckets.len()).map(|i| buckets.get(i + 1).and_then(|b| b["key"].as_f64())).collect();
            for (bucket, next) in buckets.iter_mut().zip(next_keys) {
                let condition = condition(kind, options, bucket, interval, next);
                *budget = budget.checked_sub(1).ok_or_else(|| {
                    QueryError::illegal(format!(
                        "at most {} buckets per query may hold such sub-aggregations",
                        crate::tantivy_filter_aggs::MAX_FILTER_BUCKETS
                    ))
                })?;
                let narrowed = and(query, dsl::translate(mapping, &condition)?);
                if let Value::Object(found) = self.aggregate_all(searcher, &narrowed, subs, mapping, budget)? {
                    bucket.as_object_mut().into_iter().for_each(|b| b.extend(found.clone()));
                }
            }
        }
        if let (Some((path, descending)), Some(Value::Array(buckets))) = (by_path, result.get_mut("buckets")) {
            let value = |bucket: &Value| path_value(bucket, &path);
            buckets.sort_by(|a, b| {
                let order = value(a).partial_cmp(&value(b)).unwrap_or(std::cmp::Ordering::Equal);
                if descending { order.reverse() } else { order }
            });
            let size = options.get("size").and_then(Value::as_u64).unwrap_or(10);
            buckets.truncate(usize::try_from(size).unwrap_or(usize::MAX));
        }
        Ok(result)
    }

    /// A calendar `date_histogram`: every matching document counted once in each bucket one
    /// of its dates falls in, and the empty buckets between (unless `min_doc_count` says).
    fn calendar(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        options: &Value,
        mapping: &Mapping<'_>,
    ) -> Result<Value, QueryError> {
        let unit_name = options.get("calendar_interval").or_else(|| options.get("interval"));
        let unit = unit_name.and_then(Value::as_str).and_then(Unit::named).ok_or_else(|| {
            QueryError::illegal(format!(
                "The supplied interval [{}] could not be parsed",
                unit_name.unwrap_or(&Value::Null)
            ))
        })?;
        let shift = match options.get("offset") {
            None => 0,
            Some(text) => text.as_str().and_then(offset).ok_or_else(|| {
                QueryError::parsing(format!("failed to parse setting [date_histogram.offset] with value [{text}]"))
            })?,
        };
        let start_of = |millis: i64| unit.floor(millis - shift).map(|start| start + shift);
        let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
        if let Some(field) = declared(mapping, options) {
            let found = searcher.search(query, &DocSetCollector).map_err(|e| QueryError::execution(e.to_string()))?;
            let mut columns = BTreeMap::new();
            for address in found {
                let column = match columns.entry(address.segment_ord) {
                    std::collections::btree_map::Entry::Occupied(open) => open.into_mut(),
                    std::collections::btree_map::Entry::Vacant(slot) => {
                        let fast = searcher.segment_reader(address.segment_ord).fast_fields();
                        slot.insert(fast.column_opt::<DateTime>(&field.column).ok().flatten())
                    }
                };
                let Some(column) = column else { continue };
                let mut starts: Vec<i64> = column
                    .values_for_doc(address.doc_id)
                    .filter_map(|at| start_of(at.into_timestamp_millis()))
                    .collect();
                starts.sort_unstable();
                starts.dedup();
                for start in starts {
                    *counts.entry(start).or_default() += 1;
                }
            }
        }
        let min_doc_count = options.get("min_doc_count").and_then(Value::as_u64).unwrap_or(0);
        let bound = |which: &str, key: &str| {
            options.get(which).and_then(|b| b.get(key)).and_then(|v| crate::date_formats::millis(v, None))
        };
        let mut first = counts.keys().next().copied();
        let mut last = counts.keys().next_back().copied();
        if let Some(low) = bound("extended_bounds", "min").and_then(start_of) {
            first = Some(first.map_or(low, |f| f.min(low)));
        }
        if let Some(high) = bound("extended_bounds", "max").and_then(start_of) {
            last = Some(last.map_or(high, |l| l.max(high)));
        }
        let mut buckets = Vec::new();
        if let (Some(mut key), Some(last)) = (first, last) {
            while key <= last {
                if buckets.len() >= crate::agg_request::MAX_BUCKETS as usize {
                    return Err(QueryError::illegal(format!(
                        "Trying to create too many buckets. Must be less than or equal to: [{}]",
                        crate::agg_request::MAX_BUCKETS
                    )));
                }
                let count = counts.get(&key).copied().unwrap_or(0);
                let kept = bound("hard_bounds", "min").is_none_or(|min| key >= start_of(min).unwrap_or(min))
                    && bound("hard_bounds", "max").is_none_or(|max| key <= max);
                if count >= min_doc_count.max(u64::from(min_doc_count > 0)) && kept {
                    let text = crate::date_formats::iso_text(key);
                    buckets.push(json!({"key_as_string": text, "key": key, "doc_count": count}));
                }
                let Some(next) = unit.next(key - shift).map(|n| n + shift) else { break };
                key = next;
            }
        }
        Ok(json!({ "buckets": buckets }))
    }
}

/// `query` narrowed by `also`.
fn and(query: &dyn Query, also: Box<dyn Query>) -> BooleanQuery {
    BooleanQuery::new(vec![(Occur::Must, query.box_clone()), (Occur::Must, also)])
}

/// The query DSL of the documents in one bucket.
fn condition(kind: &str, options: &Value, bucket: &Value, interval: Option<f64>, next: Option<f64>) -> Value {
    let field = options.get("field").and_then(Value::as_str).unwrap_or_default();
    match kind {
        "terms" => {
            let key = bucket.get("key_as_string").unwrap_or(&bucket["key"]);
            json!({"term": {field: {"value": key}}})
        }
        "range" => {
            let mut bounds = Map::new();
            for (bound, op) in [("from", "gte"), ("to", "lt")] {
                if let Some(value) = bucket.get(bound).filter(|v| !v.is_null()) {
                    bounds.insert(op.into(), value.clone());
                }
            }
            json!({"range": {field: bounds}})
        }
        _ => {
            let key = bucket["key"].as_f64().unwrap_or_default();
            let end = interval.map(|i| key + i).or(next).unwrap_or(f64::MAX);
            json!({"range": {field: {"gte": key, "lt": end}}})
        }
    }
}

/// The value a path (`filter>max_number`, `high`, `stats.max`) reads from a bucket: a
/// metric's value, or a bucket's count.
fn path_value(bucket: &Value, path: &str) -> Option<f64> {
    let (aggregations, metric) = path.split_once('.').map_or((path, None), |(a, m)| (a, Some(m)));
    let mut at = bucket;
    for step in aggregations.split('>') {
        at = at.get(step)?;
    }
    match metric {
        Some(metric) => at.get(metric)?.as_f64(),
        None => at.get("value").or_else(|| at.get("doc_count"))?.as_f64(),
    }
}

/// Documents without a value counted in each range holding the `missing` value.
fn add_missing_range(result: &mut Value, missing: f64, count: usize) {
    for bucket in crate::agg_answer::buckets_mut(result) {
        let from = bucket.get("from").and_then(Value::as_f64).unwrap_or(f64::NEG_INFINITY);
        let to = bucket.get("to").and_then(Value::as_f64).unwrap_or(f64::INFINITY);
        if from <= missing && missing < to {
            bucket["doc_count"] = json!(bucket["doc_count"].as_u64().unwrap_or(0) + count as u64);
        }
    }
}

/// Documents without a value counted in the bucket of the `missing` value, empty buckets
/// added up to it as Elasticsearch fills them.
fn add_missing(result: &mut Value, options: &Value, missing: f64, count: usize) {
    if count == 0 {
        return;
    }
    let interval = options.get("interval").and_then(Value::as_f64).unwrap_or(1.0);
    let shift = options.get("offset").and_then(Value::as_f64).unwrap_or(0.0);
    let key = ((missing - shift) / interval).floor() * interval + shift;
    let fill = options.get("min_doc_count").and_then(Value::as_u64).unwrap_or(0) == 0;
    let Some(Value::Array(buckets)) = result.get_mut("buckets") else { return };
    let mut keyed: BTreeMap<i64, Value> = BTreeMap::new();
    let step = |k: f64| ((k - shift) / interval).round() as i64;
    for bucket in buckets.drain(..) {
        keyed.insert(step(bucket["key"].as_f64().unwrap_or_default()), bucket);
    }
    let entry = keyed.entry(step(key)).or_insert_with(|| json!({"key": key, "doc_count": 0}));
    entry["doc_count"] = json!(entry["doc_count"].as_u64().unwrap_or(0) + count as u64);
    if fill && let (Some(&low), Some(&high)) = (keyed.keys().next(), keyed.keys().next_back()) {
        for n in low..=high.min(low + i64::from(crate::agg_request::MAX_BUCKETS)) {
            keyed.entry(n).or_insert_with(|| json!({"key": n as f64 * interval + shift, "doc_count": 0}));
        }
    }
    buckets.extend(keyed.into_values());
}
