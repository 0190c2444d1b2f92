//! What the search records must be beyond their kind: each is tried the way searches use it,
//! when it is written, so a setting that would break `@es-search` for everyone is a 400 to
//! the one who sets it. (Searches still fall back to a query record's default should a stored
//! value stop being understood, `patterns::valid`.)

use crate::dsl::{self, CustomFields, custom_fields};
use crate::engine::{IndexDoc, SearchEngine, SearchRequest};
use crate::patterns::PLACEHOLDER;
use crate::schema::schema;
use crate::tantivy_engine::TantivyEngine;
use serde_json::Value;
use std::sync::LazyLock;

/// The index's field handles, for translating queries.
static FIELDS: LazyLock<crate::schema::Fields> = LazyLock::new(|| schema().1);

/// A search pattern: one query in the DSL, which the engine understands with the search text
/// put in. Fields the index lacks are allowed here (a custom field may be declared next).
pub fn pattern(value: &Value) -> Result<(), String> {
    translate(&dsl::substitute(value, PLACEHOLDER, "test"))
}

/// Clauses every search adds: one query, or a list of them.
pub fn clauses(value: &Value) -> Result<(), String> {
    match value {
        Value::Array(items) => items.iter().try_for_each(translate),
        Value::Null => Ok(()),
        single => translate(single),
    }
}

fn translate(query: &Value) -> Result<(), String> {
    let custom = CustomFields::default();
    let mapping = dsl::Mapping { fields: &FIELDS, custom: &custom, unmapped_matches_nothing: true, declared: None };
    dsl::translate(&mapping, query).map(|_| ()).map_err(|problem| format!("The search engine refuses it: {problem}"))
}

/// The facets: aggregations, run once on a throw-away index of one document, as every
/// `@es-search` runs them.
pub fn aggregations(value: &Value) -> Result<(), String> {
    let Some(object) = value.as_object() else {
        return Err("Expected an object of aggregations by name.".into());
    };
    if object.is_empty() {
        return Ok(());
    }
    let refused = |problem: String| format!("The search engine refuses these aggregations: {problem}");
    let engine = TantivyEngine::open(None).map_err(|e| refused(e.to_string()))?;
    let doc = IndexDoc {
        uid: "0".repeat(32),
        paths: vec!["/check".into()],
        portal_type: "Document".into(),
        review_state: "published".into(),
        title: "check".into(),
        subjects: vec!["check".into()],
        allowed: vec!["Anonymous".into()],
        ..IndexDoc::default()
    };
    engine.index(&[doc]).and_then(|()| engine.commit(0)).map_err(|e| refused(e.to_string()))?;
    // As `@es-search` asks: words, the caller's filters, a page and the facets.
    let request = SearchRequest {
        query: Some(dsl::substitute(&(crate::records::REGULAR.default)(), PLACEHOLDER, "check")),
        filters: crate::engine::Filters {
            subtrees: vec!["/check".into()],
            allowed: Some(vec!["Anonymous".into()]),
            active_at: Some(0),
            ..crate::engine::Filters::default()
        },
        aggregations: Some(value.clone()),
        size: 1,
        ..SearchRequest::default()
    };
    engine.search(&request).map(|_| ()).map_err(|e| refused(e.to_string()))
}

/// The suggesters: `{name: {size, max_edits}}`, numbers where given.
pub fn suggesters(value: &Value) -> Result<(), String> {
    let Some(object) = value.as_object() else {
        return Err("Expected {\"<name>\": {\"size\": n, \"max_edits\": n}}.".into());
    };
    for (name, config) in object {
        let numbers = config.as_object().is_some_and(|c| {
            c.iter().all(|(key, v)| matches!(key.as_str(), "size" | "max_edits") && v.as_u64().is_some())
        });
        if !numbers {
            return Err(format!("The suggester '{name}' takes only the numbers size and max_edits."));
        }
    }
    Ok(())
}

/// The custom fields: `{name: {"type": kind}}` with a kind the index knows, and a plain name.
pub fn fields(value: &Value) -> Result<(), String> {
    let Some(object) = value.as_object() else {
        return Err("Expected {\"<field>\": {\"type\": \"text\" | \"keyword\" | …}}.".into());
    };
    let understood = custom_fields(value);
    for name in object.keys() {
        let plain = !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain || !understood.contains_key(name) {
            return Err(format!(
                "'{name}' needs a plain name and a type of text, keyword, integer, long, float, double, boolean or date."
            ));
        }
    }
    Ok(())
}

/// The longest highlighted fragment, in characters.
pub fn fragment_length(value: &Value) -> Result<(), String> {
    match value.as_i64() {
        Some(20..=10_000) => Ok(()),
        _ => Err("Use a number of characters from 20 to 10000.".into()),
    }
}

/// The markup around highlighted matches, which goes into results as HTML: only simple
/// inline tags, so a setting cannot put script into every visitor's search results.
pub fn highlight_tags(value: &Value) -> Result<(), String> {
    let text = value.as_str().unwrap_or_default();
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
        if !simple_tag(line) {
            return Err(format!("'{line}' is not a simple tag such as <em>, <mark class=\"hit\"> or </em>."));
        }
    }
    Ok(())
}

/// `<em>`, `</em>` or `<em class="a b">`, for a few inline elements.
fn simple_tag(tag: &str) -> bool {
    const INLINE: [&str; 7] = ["em", "strong", "b", "i", "u", "mark", "span"];
    let Some(inner) = tag.strip_prefix('<').and_then(|t| t.strip_suffix('>')) else { return false };
    if let Some(name) = inner.strip_prefix('/') {
        return INLINE.contains(&name);
    }
    let (name, attributes) = inner.split_once(' ').unwrap_or((inner, ""));
    let classes = attributes.strip_prefix("class=\"").and_then(|a| a.strip_suffix('"'));
    INLINE.contains(&name)
        && (attributes.is_empty()
            || classes.is_some_and(|c| c.chars().all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | ' '))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_that_would_break_searches_are_refused() {
        let facets = json!({"portal_type": {"terms": {"field": "portal_type", "size": 20}}});
        assert_eq!(aggregations(&facets), Ok(()));
        assert!(aggregations(&json!({})).is_ok());
        assert!(aggregations(&json!({"all": {"global": {}}})).is_err());
        assert!(aggregations(&json!({"x": {"nonsense": {}}})).is_err());
        assert!(aggregations(&json!([1])).is_err());
        assert!(pattern(&json!({"match": {"SearchableText": {"query": "%(term)s"}}})).is_ok());
        assert!(pattern(&json!({"no_such_query": {}})).is_err());
        assert!(clauses(&json!([{"terms": {"portal_type": ["Document"]}}])).is_ok());
        assert!(clauses(&json!([{"bool": {"must": "x"}}])).is_err());
        assert!(suggesters(&json!({"did_you_mean": {"size": 5, "max_edits": 2}})).is_ok());
        assert!(suggesters(&json!({"x": {"size": -1}})).is_err());
        assert!(fields(&json!({"location": {"type": "keyword"}})).is_ok());
        assert!(fields(&json!({"location": {"type": "geo"}})).is_err());
        assert!(highlight_tags(&json!("<em>")).is_ok() && highlight_tags(&json!("</mark>")).is_ok());
        assert!(highlight_tags(&json!("<span class=\"hit\">")).is_ok());
        for bad in ["<script>", "<em onmouseover=\"x\">", "<img src=x onerror=alert(1)>"] {
            assert!(highlight_tags(&json!(bad)).is_err(), "{bad}");
        }
        assert!(fragment_length(&json!(5)).is_err() && fragment_length(&json!(600)).is_ok());
    }
}
