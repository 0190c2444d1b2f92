//! The `highlight` of a raw query: `{fields: {name: {…}} | [{name: {…}}], pre_tags, post_tags,
//! fragment_size, number_of_fragments}`, a field's own settings overriding the request's. Tags
//! default to `<em>`/`</em>` and fragments to 100 characters, as in Elasticsearch;
//! `number_of_fragments: 0` marks the whole value. Field names may be patterns (`*`, `text*`),
//! which the engine matches against its fields ([`crate::engine::glob`]).

use crate::dsl::QueryError;
use crate::engine::Highlight;
use serde_json::Value;

/// Elasticsearch's bound on `number_of_fragments`.
const MAX_FRAGMENTS: i64 = 100_000;

/// The fields to highlight and how.
pub fn parse(spec: &Value) -> Result<Vec<(String, Highlight)>, QueryError> {
    let fields: Vec<(&String, &Value)> = match spec.get("fields") {
        Some(Value::Object(fields)) => fields.iter().collect(),
        Some(Value::Array(fields)) => fields.iter().filter_map(Value::as_object).flatten().collect(),
        _ => return Err(QueryError::parsing("[highlight] requires [fields]")),
    };
    // A field's own settings override the request's.
    let setting = |field: &Value, key: &str| field.get(key).or_else(|| spec.get(key)).cloned();
    let tag = |field: &Value, key: &str, default: &str| {
        setting(field, key)
            .and_then(|tags| tags.as_array().and_then(|tags| tags.first()).and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| default.to_owned())
    };
    fields
        .into_iter()
        .map(|(name, field)| {
            let size = setting(field, "fragment_size").and_then(|s| s.as_u64()).unwrap_or(100);
            let max_chars = usize::try_from(size).unwrap_or(100).clamp(1, 10_000);
            let fragments = setting(field, "number_of_fragments").and_then(|n| n.as_i64()).unwrap_or(5);
            if !(0..=MAX_FRAGMENTS).contains(&fragments) {
                // Elasticsearch's parser wraps the builder's refusal of the value.
                return Err(QueryError::content("[highlight] failed to parse field [number_of_fragments]")
                    .caused_by_illegal(format!("[number_of_fragments] must be between [0] and [{MAX_FRAGMENTS}]")));
            }
            let (pre, post) = (tag(field, "pre_tags", "<em>"), tag(field, "post_tags", "</em>"));
            Ok((name.clone(), Highlight { pre, post, max_chars, whole: fragments == 0 }))
        })
        .collect()
}
