//! Searches sent to an Elasticsearch cluster and their answers read back: the same queries the
//! embedded engine runs (the query DSL passes through as written), wrapped with the caller's
//! filters as `bool.filter` clauses, so a cluster sees, counts and aggregates only what the
//! caller may see.

use crate::dsl::{CustomFields, QueryError};
use crate::engine::{Filters, Hit, RawRequest, SearchRequest, SearchResponse, SourceFilter};
use crate::text_languages::TextLanguage;
use serde_json::{Map, Value, json};

/// The filter clauses of `filters`.
pub fn filter_clauses(filters: &Filters) -> Vec<Value> {
    let mut clauses = Vec::new();
    for (field, values) in [
        ("portal_type", &filters.portal_types),
        ("review_state", &filters.review_states),
        ("Subject", &filters.subjects),
        ("Language", &filters.languages),
    ] {
        if !values.is_empty() {
            clauses.push(json!({"terms": {field: values}}));
        }
    }
    for path in &filters.subtrees {
        clauses.push(json!({"term": {"path": path}}));
    }
    if let Some(tokens) = &filters.allowed {
        clauses.push(json!({"terms": {"allowedRolesAndUsers": tokens}}));
    }
    if let Some(now) = filters.active_at {
        // Objects without the date are always effective and never expire.
        let lacking = |field: &str| json!({"bool": {"must_not": {"exists": {"field": field}}}});
        clauses.push(json!({"bool": {"should": [{"range": {"effective": {"lte": now}}}, lacking("effective")], "minimum_should_match": 1}}));
        clauses.push(json!({"bool": {"should": [{"range": {"expires": {"gt": now}}}, lacking("expires")], "minimum_should_match": 1}}));
    }
    clauses
}

/// `bool {must: [query, …], filter: [filters]}`.
fn wrapped(must: Vec<Value>, filters: &Filters) -> Value {
    json!({"bool": {"must": must, "filter": filter_clauses(filters)}})
}

/// The body of a full-text search (`@search`, `@es-search`).
pub fn search_body(request: &SearchRequest) -> Value {
    let mut must: Vec<Value> = request.query.iter().map(|query| localized(query, &request.filters.languages)).collect();
    must.extend(request.clauses.iter().cloned());
    let mut body = json!({
        "query": wrapped(must, &request.filters),
        "from": request.start,
        "size": request.size,
        "track_total_hits": true,
        "_source": false,
    });
    if let Some(marks) = &request.highlight {
        body["highlight"] = json!({
            "pre_tags": [marks.pre], "post_tags": [marks.post],
            "fields": TextLanguage::ALL
                .map(|language| (language.field_name("SearchableText"), json!({"fragment_size": marks.max_chars, "number_of_fragments": 1})))
                .into_iter()
                .collect::<Map<String, Value>>(),
        });
    }
    if let Some(aggregations) = &request.aggregations {
        body["aggs"] = aggregations.clone();
    }
    body
}

/// The words' query in the languages asked (every language when none is): each language's
/// copy of the full-text fields, the best of them scoring, as the embedded engine asks them.
fn localized(query: &Value, codes: &[String]) -> Value {
    let mut languages: Vec<TextLanguage> = if codes.is_empty() {
        TextLanguage::ALL.to_vec()
    } else {
        codes.iter().map(|code| TextLanguage::of(code)).collect()
    };
    languages.sort();
    languages.dedup();
    match languages.as_slice() {
        [one] => one.localize(query),
        many => json!({"dis_max": {"queries": many.iter().map(|l| l.localize(query)).collect::<Vec<_>>()}}),
    }
}

/// A full-text search's answer.
pub fn search_response(answer: &Value) -> SearchResponse {
    let hits = answer["hits"]["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|hit| {
            let uid = hit["_id"].as_str()?.to_owned();
            let score = hit["_score"].as_f64().unwrap_or(0.0) as f32;
            let fragment = TextLanguage::ALL.iter().find_map(|language| {
                let field = language.field_name("SearchableText");
                hit.get("highlight")?.get(&field)?.get(0)?.as_str().map(str::to_owned)
            });
            Some(Hit { uid, score, fragment })
        })
        .collect();
    let total = answer.pointer("/hits/total/value").and_then(Value::as_u64).unwrap_or(0);
    SearchResponse {
        total: usize::try_from(total).unwrap_or(usize::MAX),
        hits,
        aggregations: answer.get("aggregations").cloned().unwrap_or(Value::Null),
    }
}

/// The body of a raw query: the caller's query wrapped with the filters, the rest as asked.
pub fn raw_body(request: &RawRequest) -> Value {
    let mut body = json!({
        "query": wrapped(vec![request.query.clone()], &request.filters),
        "from": request.from,
        "size": request.size,
        "track_total_hits": match request.track_total_hits {
            None => json!(false),
            Some(usize::MAX) => json!(true),
            Some(limit) => json!(limit.min(i32::MAX as usize)),
        },
    });
    if !request.sort.is_empty() {
        let keys: Vec<Value> = request
            .sort
            .iter()
            .map(|key| {
                let order = match key.descending {
                    Some(true) => "desc",
                    Some(false) => "asc",
                    None if key.field == "_score" => "desc",
                    None => "asc",
                };
                let mut options = json!({"order": order});
                if key.field != "_score" && key.field != "_doc" {
                    options["missing"] = json!(if key.missing_first { "_first" } else { "_last" });
                }
                json!({key.field.clone(): options})
            })
            .collect();
        body["sort"] = Value::Array(keys);
    }
    if let Some(aggregations) = &request.aggregations {
        body["aggs"] = aggregations.clone();
    }
    if !request.docvalue_fields.is_empty() {
        let fields = request.docvalue_fields.iter().map(|(field, format)| match format {
            Some(format) => json!({"field": field, "format": format}),
            None => json!(field),
        });
        body["docvalue_fields"] = Value::Array(fields.collect());
    }
    if let Some(fields) = &request.highlight {
        let fields: Map<String, Value> = fields
            .iter()
            .map(|(name, marks)| {
                let options = json!({"pre_tags": [marks.pre], "post_tags": [marks.post],
                    "fragment_size": marks.max_chars, "number_of_fragments": 1});
                (name.clone(), options)
            })
            .collect();
        body["highlight"] = json!({"fields": fields});
    }
    body
}

/// A raw query's answer as the embedded engine gives it: `_source` in its shape, filtered as
/// asked; the rest is the cluster's.
pub fn raw_response(mut answer: Value, request: &RawRequest, custom: &CustomFields) -> Value {
    for hit in answer.pointer_mut("/hits/hits").and_then(Value::as_array_mut).into_iter().flatten() {
        hit["_index"] = json!("plone");
        let stored = hit.get("_source").cloned().unwrap_or(Value::Null);
        match &request.source {
            SourceFilter::Nothing => {
                if let Some(hit) = hit.as_object_mut() {
                    hit.remove("_source");
                }
            }
            filter => {
                let kept: Map<String, Value> = crate::elastic_docs::raw_source(&stored, custom)
                    .into_iter()
                    .filter(|(key, _)| filter.keeps(key))
                    .collect();
                hit["_source"] = Value::Object(kept);
            }
        }
    }
    if let Some(answer) = answer.as_object_mut() {
        answer.remove("_shards");
    }
    answer
}

/// Elasticsearch's types this engine reports as they come (one `'static` name each).
const KNOWN_TYPES: [&str; 9] = [
    "parsing_exception",
    "x_content_parse_exception",
    "search_phase_execution_exception",
    "query_shard_exception",
    "illegal_argument_exception",
    "mapper_parsing_exception",
    "number_format_exception",
    "too_many_buckets_exception",
    "unavailable_shards_exception",
];

/// A cluster's refusal (`{error: {root_cause, type, reason}, status}`) in our terms: errors
/// of the search phase keep their root cause.
pub fn refusal(body: &Value) -> QueryError {
    let top = body.get("error").cloned().unwrap_or(Value::Null);
    let on_shard = top["type"] == "search_phase_execution_exception";
    let cause = if on_shard { top.pointer("/root_cause/0").cloned().unwrap_or(top.clone()) } else { top };
    let reason = cause["reason"].as_str().unwrap_or("the search engine refused the request").to_owned();
    let kind = cause["type"].as_str().unwrap_or_default();
    let es_type = KNOWN_TYPES.iter().find(|known| **known == kind).copied().unwrap_or("illegal_argument_exception");
    let refused = match es_type {
        "parsing_exception" => QueryError::parsing(reason),
        "x_content_parse_exception" => QueryError::content(reason),
        "query_shard_exception" => QueryError::shard(reason),
        "mapper_parsing_exception" => QueryError::mapper(reason),
        "unavailable_shards_exception" => QueryError::unavailable(reason),
        "search_phase_execution_exception" => QueryError::execution(reason),
        other => QueryError { es_type: other, ..QueryError::illegal(reason) },
    };
    if on_shard { refused.on_shard() } else { refused }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SortSpec;

    #[test]
    fn raw_queries_are_wrapped_with_the_callers_filters() {
        let request = RawRequest {
            query: json!({"match": {"title": "Rosen"}}),
            custom: CustomFields::new(),
            filters: Filters { allowed: Some(vec!["Anonymous".into()]), active_at: Some(10), ..Filters::default() },
            from: 0,
            size: 5,
            sort: vec![SortSpec { field: "modified".into(), descending: Some(true), missing_first: false }],
            aggregations: None,
            highlight: None,
            source: SourceFilter::All,
            track_total_hits: Some(usize::MAX),
            docvalue_fields: Vec::new(),
        };
        let body = raw_body(&request);
        assert_eq!(body["query"]["bool"]["must"], json!([{"match": {"title": "Rosen"}}]));
        assert_eq!(body["query"]["bool"]["filter"][0], json!({"terms": {"allowedRolesAndUsers": ["Anonymous"]}}));
        assert_eq!(body["query"]["bool"]["filter"].as_array().map(Vec::len), Some(3));
        assert_eq!(body["sort"], json!([{"modified": {"order": "desc", "missing": "_last"}}]));
        assert_eq!(body["track_total_hits"], true);
    }

    #[test]
    fn refusals_keep_elasticsearchs_types() {
        let shard = json!({"error": {"type": "search_phase_execution_exception", "reason": "all shards failed",
            "root_cause": [{"type": "query_shard_exception", "reason": "No mapping found for [x] in order to sort on"}]},
            "status": 400});
        let refused = refusal(&shard);
        assert_eq!((refused.es_type, refused.on_shard), ("query_shard_exception", true));
        let parse = json!({"error": {"type": "parsing_exception", "reason": "unknown query [mtch]"}, "status": 400});
        assert_eq!(refusal(&parse).reason, "unknown query [mtch]");
    }
}
