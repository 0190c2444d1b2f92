//! tantivy's aggregation answers made into Elasticsearch's: `meta` given back, dates keyed in
//! milliseconds with `key_as_string` written as Elasticsearch writes dates, range buckets keyed
//! `from-to` as Java writes doubles (or in the aggregation's `format`), booleans keyed 1 and 0,
//! and the terms an `include`/`exclude` tantivy does not read leaves out.

use crate::agg_request::{RANGE_KEY, is_date, kind, subs};
use crate::dsl::Mapping;
use crate::java_format;
use serde_json::{Value, json};

/// Rewrites `answer`, the answer to `asked`, in place.
pub fn finish(asked: &Value, answer: &mut Value, mapping: &Mapping<'_>) {
    let Some(asked) = asked.as_object() else { return };
    for (name, body) in asked {
        let Some(result) = answer.get_mut(name) else { continue };
        let Some((kind, options)) = kind(body) else { continue };
        match kind {
            "terms" => terms(result, options, mapping),
            "range" => range(result, options, mapping),
            "histogram" => histogram(result, options),
            "date_histogram" => date_histogram(result, options),
            // Counts are whole numbers (tantivy's metrics are all floating point).
            "value_count" | "cardinality" => {
                if let Some(count) = result.get("value").and_then(Value::as_f64) {
                    result["value"] = json!(count as u64);
                }
            }
            _ => {}
        }
        if let Some(meta) = body.get("meta") {
            result["meta"] = meta.clone();
        }
        if let Some(sub) = subs(body) {
            for bucket in buckets_mut(result) {
                finish(sub, bucket, mapping);
            }
        }
    }
}

/// The buckets of an answer, as a list or keyed.
pub fn buckets_mut(result: &mut Value) -> Vec<&mut Value> {
    match result.get_mut("buckets") {
        Some(Value::Array(buckets)) => buckets.iter_mut().collect(),
        Some(Value::Object(buckets)) => buckets.values_mut().collect(),
        _ => Vec::new(),
    }
}

/// A date in milliseconds as Elasticsearch writes it.
fn date_text(millis: i64) -> Value {
    crate::date_formats::iso_text(millis).map_or(Value::Null, Value::String)
}

fn terms(result: &mut Value, options: &Value, mapping: &Mapping<'_>) {
    let date = is_date(mapping, options);
    let boolean = crate::agg_request::declared(mapping, options)
        .is_some_and(|f| f.kind == crate::declared::DeclaredType::Boolean)
        || options.get("value_type").and_then(Value::as_str) == Some("boolean");
    for bucket in buckets_mut(result) {
        if date {
            let millis = match &bucket["key"] {
                Value::String(text) => crate::date_formats::millis(&json!(text), None),
                Value::Number(n) => n.as_i64(),
                _ => None,
            };
            if let Some(millis) = millis {
                bucket["key"] = json!(millis);
                bucket["key_as_string"] = date_text(millis);
            }
        }
        if boolean {
            let truth = matches!(&bucket["key"], Value::Bool(true)) || bucket["key"] == 1 || bucket["key"] == "true";
            bucket["key"] = json!(u8::from(truth));
            bucket["key_as_string"] = json!(truth.to_string());
        }
    }
    let chosen = |key: &str| options.get(key).filter(|v| date || v.is_object()).cloned();
    let (include, exclude) = (chosen("include"), chosen("exclude"));
    if include.is_none() && exclude.is_none() {
        return;
    }
    if let Some(Value::Array(buckets)) = result.get_mut("buckets") {
        buckets.retain(|bucket| {
            picked(bucket, include.as_ref()).unwrap_or(true) && !picked(bucket, exclude.as_ref()).unwrap_or(false)
        });
    }
}

/// Whether `filter` (a list of values, or `{partition, num_partitions}`) picks `bucket`;
/// `None` without a filter.
fn picked(bucket: &Value, filter: Option<&Value>) -> Option<bool> {
    let filter = filter?;
    if let Some(partitions) = filter.get("num_partitions").and_then(Value::as_u64) {
        let partition = filter.get("partition").and_then(Value::as_u64);
        return Some(java_format::partition(&bucket["key"], partitions) == partition);
    }
    let values = filter.as_array()?;
    Some(values.iter().any(|value| {
        let millis = crate::date_formats::millis(value, None);
        millis.is_some_and(|m| bucket["key"] == m) || bucket["key"] == *value
    }))
}

/// The asked ranges' buckets (tantivy's fill the gaps between them too), with the bounds as
/// asked and keyed as Elasticsearch keys them.
fn range(result: &mut Value, options: &Value, mapping: &Mapping<'_>) {
    let date = is_date(mapping, options);
    let format = options.get("format").and_then(Value::as_str);
    let asked = options.get("ranges").and_then(Value::as_array).cloned().unwrap_or_default();
    let keyed = options.get("keyed").and_then(Value::as_bool).unwrap_or(false);
    let Some(Value::Array(buckets)) = result.get_mut("buckets") else { return };
    let mut kept = Vec::new();
    for mut bucket in buckets.drain(..) {
        let index =
            bucket["key"].as_str().and_then(|k| k.strip_prefix(RANGE_KEY)).and_then(|i| i.parse::<usize>().ok());
        let Some(range) = index.and_then(|i| asked.get(i)) else { continue };
        let mut bounds = Vec::new();
        for bound in ["from", "to"] {
            bucket.as_object_mut().into_iter().for_each(|b| {
                b.remove(bound);
                b.remove(&format!("{bound}_as_string"));
            });
            let value = range.get(bound).filter(|v| !v.is_null());
            let Some(value) = value else {
                bounds.push("*".to_owned());
                continue;
            };
            if date {
                let millis = crate::date_formats::millis(value, None).unwrap_or_default();
                bucket[bound] = json!(millis as f64);
                bucket[format!("{bound}_as_string")] = date_text(millis);
                bounds.push(crate::date_formats::iso_text(millis).unwrap_or_default());
            } else {
                let number = value.as_f64().or_else(|| value.as_str()?.parse().ok()).unwrap_or_default();
                bucket[bound] = json!(number);
                bounds.push(match format {
                    Some(pattern) => {
                        java_format::decimal(number, pattern).unwrap_or_else(|| java_format::double(number))
                    }
                    None => java_format::double(number),
                });
            }
        }
        bucket["key"] = range.get("key").cloned().unwrap_or_else(|| json!(bounds.join("-")));
        kept.push(bucket);
    }
    if keyed {
        let keyed: serde_json::Map<String, Value> = kept
            .into_iter()
            .map(|mut bucket| {
                let key = bucket["key"].as_str().unwrap_or_default().to_owned();
                bucket.as_object_mut().into_iter().for_each(|b| {
                    b.remove("key");
                });
                (key, bucket)
            })
            .collect();
        result["buckets"] = Value::Object(keyed);
    } else {
        result["buckets"] = Value::Array(kept);
    }
}

fn histogram(result: &mut Value, options: &Value) {
    let Some(pattern) = options.get("format").and_then(Value::as_str) else { return };
    for bucket in buckets_mut(result) {
        if let Some(key) = bucket.get("key").and_then(Value::as_f64) {
            bucket["key_as_string"] = json!(java_format::decimal(key, pattern).unwrap_or_else(|| key.to_string()));
        }
    }
}

fn date_histogram(result: &mut Value, _options: &Value) {
    for bucket in buckets_mut(result) {
        if let Some(millis) = bucket.get("key").and_then(Value::as_f64) {
            bucket["key_as_string"] = date_text(millis as i64);
        }
    }
}
