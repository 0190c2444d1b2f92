//! Raw queries on the embedded engine (`@raw-es-search`): the query DSL ANDed with the caller's
//! filters, paging, sorting, aggregations, highlighting, answered in Elasticsearch's `_search`
//! shape.

use crate::dsl::{self, QueryError};
use crate::engine::{RawRequest, SourceFilter};
use crate::sort_collector::{SortBy, SortCollector};
use crate::str_columns::StrColumns;
use crate::tantivy_engine::TantivyEngine;
use serde_json::{Map, Value, json};
use tantivy::aggregation::agg_req::{AggregationVariants, Aggregations};
use tantivy::aggregation::{AggContextParams, AggregationCollector, AggregationLimitsGuard};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, Occur, Query, QueryClone};
use tantivy::schema::Value as _;
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, Searcher, TantivyDocument};

/// Bounds of one raw query's aggregations.
const AGGREGATION_MEMORY: u64 = 64 * 1024 * 1024;
const AGGREGATION_BUCKETS: u32 = 10_000;

/// Aggregations name fields as clients know them (`price`); the index keeps custom fields in
/// its JSON fields (`custom_keyword.price`) and a declared mapping's under their columns.
fn custom_columns(aggregations: &mut Value, mapping: &dsl::Mapping<'_>, kind: &str) -> Result<(), QueryError> {
    match aggregations {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match value {
                    Value::String(name) if key == "field" => {
                        if let Some((declared, _)) = mapping.declared {
                            if let Some(field) = declared.get(name.as_str()) {
                                use crate::declared::DeclaredType;
                                if matches!(field.kind, DeclaredType::Text(_)) {
                                    return Err(crate::raw_sort::text_field(name));
                                }
                                let numeric = ["avg", "sum", "min", "max", "stats", "extended_stats", "histogram"];
                                if field.kind == DeclaredType::Keyword && numeric.contains(&kind) {
                                    let reason = format!(
                                        "Field [{name}] of type [keyword] is not supported for aggregation [{kind}]"
                                    );
                                    return Err(QueryError::illegal(reason).on_shard());
                                }
                                *name = field.column.clone();
                            }
                        } else if let Some(kind) = mapping.custom.get(name.as_str()) {
                            let json_field =
                                if *kind == crate::dsl::CustomKind::Text { "custom_text" } else { "custom_keyword" };
                            *name = format!("{json_field}.{name}");
                        }
                    }
                    // Filter buckets hold query DSL, which names fields as clients do.
                    _ if key == "filter" || key == "filters" => {}
                    other => custom_columns(other, mapping, key)?,
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                custom_columns(item, mapping, kind)?;
            }
        }
        _ => {}
    }
    Ok(())
}

impl TantivyEngine {
    /// The index's own schema when a mapping is declared: only a declared mapping's
    /// `query_string` parses against it.
    pub(crate) fn declared_schema(&self) -> Option<tantivy::schema::Schema> {
        self.declared.as_ref().map(|_| self.index_schema())
    }

    /// The fields a raw request names, as [`TantivyEngine::declared_schema`] and the request's
    /// custom fields make them.
    pub(crate) fn raw_mapping<'a>(
        &'a self,
        custom: &'a crate::dsl::CustomFields,
        schema: Option<&'a tantivy::schema::Schema>,
    ) -> dsl::Mapping<'a> {
        dsl::Mapping {
            fields: &self.fields,
            custom,
            unmapped_matches_nothing: true,
            declared: self.declared.as_ref().zip(schema),
        }
    }

    /// Runs a raw query.
    pub(crate) fn run_raw(&self, request: &RawRequest) -> Result<Value, QueryError> {
        let schema = self.declared_schema();
        let mapping = self.raw_mapping(&request.custom, schema.as_ref());
        let text_query = dsl::translate(&mapping, &request.query)?;
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, text_query.box_clone())];
        self.filters(&request.filters, &mut clauses);
        let query = BooleanQuery::new(clauses);
        let searcher = self.reader.searcher();
        let failed = |e: tantivy::TantivyError| QueryError::execution(e.to_string());
        let keys = crate::raw_sort::resolve(&mapping, &request.sort)?;
        // Without a sort, relevance orders and hits carry no `sort` values (with `"sort": ["_score"]`
        // they do, as in Elasticsearch).
        let by_score = keys.is_empty();
        let scored = by_score || keys.iter().any(|k| matches!(k, SortBy::Score { .. }));
        // (the hit's sort values, or none when relevance orders; its score; where it is)
        let (found, total): (Vec<(Option<Value>, f32, DocAddress)>, usize) = if by_score {
            let top = TopDocs::with_limit(request.size.max(1)).and_offset(request.from).order_by_score();
            let (found, total) = self.scored(&searcher, &query, &(top, Count), &request.filters).map_err(failed)?;
            (found.into_iter().map(|(score, a)| (None, score, a)).collect(), total)
        } else {
            let collector = SortCollector { keys: keys.clone(), limit: request.from.saturating_add(request.size) };
            let (found, total) =
                self.scored(&searcher, &query, &(collector, Count), &request.filters).map_err(failed)?;
            let found = found
                .into_iter()
                .skip(request.from)
                .map(|(values, score, a)| {
                    let reported = keys
                        .iter()
                        .zip(&values)
                        .map(|(key, value)| crate::raw_sort::reported(key, value, score, a.doc_id))
                        .collect();
                    (Some(Value::Array(reported)), score, a)
                })
                .collect();
            (found, total)
        };
        let mut fragments = Vec::new();
        for (name, marks) in request.highlight.iter().flatten() {
            // Only full-text fields have fragments; Elasticsearch skips the others too.
            if let Ok(dsl::Kind::Text(field, _)) = dsl::field(&mapping, name) {
                let mut generator = SnippetGenerator::create(&searcher, text_query.as_ref(), field).map_err(failed)?;
                generator.set_max_num_chars(marks.max_chars);
                fragments.push((name.clone(), field, generator, marks));
            }
        }
        let mut hits = Vec::with_capacity(found.len());
        let mut columns = StrColumns::new(&searcher);
        let max_score = if scored { found.iter().map(|(_, score, _)| *score).reduce(f32::max) } else { None };
        for (sort_values, score, address) in found.into_iter().take(request.size) {
            let stored: TantivyDocument = searcher.doc(address).map_err(failed)?;
            let source = self.source(&mut columns, address, &stored).map_err(failed)?;
            let id = source.get("UID").cloned().unwrap_or(Value::Null);
            let score = if scored { es_score(score) } else { Value::Null };
            let mut hit = json!({"_index": "plone", "_id": id, "_score": score});
            if !matches!(request.source, SourceFilter::Nothing) {
                let kept: Map<String, Value> =
                    source.into_iter().filter(|(key, _)| request.source.keeps(key)).collect();
                hit["_source"] = Value::Object(kept);
            }
            if request.highlight.is_some() {
                let mut marked = Map::new();
                for (name, field, generator, marks) in &fragments {
                    let mut snippet = generator.snippet_from_doc(&stored);
                    snippet.set_snippet_prefix_postfix(&marks.pre, &marks.post);
                    if !snippet.is_empty() {
                        let text = stored.get_first(*field).and_then(|v| v.as_str()).unwrap_or_default();
                        marked.insert(name.clone(), json!([crate::fragments::closed_html(&snippet, text)]));
                    }
                }
                if !marked.is_empty() {
                    hit["highlight"] = Value::Object(marked);
                }
            }
            if let Some(values) = sort_values {
                hit["sort"] = values;
            }
            hits.push(hit);
        }
        let max_score = max_score.map_or(Value::Null, es_score);
        let mut found_hits = Map::new();
        if let Some(limit) = request.track_total_hits {
            let relation = if total > limit { "gte" } else { "eq" };
            found_hits.insert("total".into(), json!({"value": total.min(limit), "relation": relation}));
        }
        found_hits.insert("max_score".into(), max_score);
        found_hits.insert("hits".into(), Value::Array(hits));
        let mut answer = json!({"timed_out": false, "hits": found_hits});
        if let Some(aggregations) = &request.aggregations {
            let mut aggregations = aggregations.clone();
            custom_columns(&mut aggregations, &mapping, "")?;
            let mut budget = crate::tantivy_filter_aggs::MAX_FILTER_BUCKETS;
            answer["aggregations"] = self.aggregate_all(&searcher, &query, &aggregations, &mapping, &mut budget)?;
            date_term_keys(
                request.aggregations.as_ref().unwrap_or(&Value::Null),
                &mut answer["aggregations"],
                &mapping,
            );
        }
        Ok(answer)
    }

    /// Aggregations tantivy answers itself (Elasticsearch's request and answer forms).
    pub(crate) fn aggregate(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        aggregations: &Value,
    ) -> Result<Value, QueryError> {
        let aggregations_asked = aggregations;
        let mut aggregations = aggregations.clone();
        bound_sizes(&mut aggregations);
        let aggs: Aggregations =
            serde_json::from_value(aggregations).map_err(|e| QueryError::content(e.to_string()))?;
        check_ranges(&aggs)?;
        let limits = AggregationLimitsGuard::new(Some(AGGREGATION_MEMORY), Some(AGGREGATION_BUCKETS));
        let collector = AggregationCollector::from_aggs(aggs, AggContextParams::new(limits, self.index_tokenizers()));
        let results = searcher.search(query, &collector).map_err(|e| QueryError::execution(e.to_string()))?;
        let mut answer = serde_json::to_value(results).map_err(|e| QueryError::illegal(e.to_string()))?;
        range_keys(aggregations_asked, &mut answer);
        Ok(answer)
    }

    /// A hit's `_source`: what the index keeps of the object.
    fn source(
        &self,
        columns: &mut StrColumns<'_>,
        address: DocAddress,
        stored: &TantivyDocument,
    ) -> tantivy::Result<Map<String, Value>> {
        let f = &self.fields;
        let text = |field| stored.get_first(field).and_then(|v| v.as_str()).unwrap_or_default().to_owned();
        let mut source = Map::new();
        if let Some(declared) = &self.declared {
            // A declared mapping's own values (sub-fields repeat their parent's).
            for (name, field) in declared.iter().filter(|(name, field)| field.source == **name) {
                let mut values: Vec<Value> = stored
                    .get_all(field.field)
                    .filter_map(|v| serde_json::to_value(tantivy::schema::OwnedValue::from(v)).ok())
                    .collect();
                match values.len() {
                    0 => {}
                    1 => {
                        source.insert(name.clone(), values.remove(0));
                    }
                    _ => {
                        source.insert(name.clone(), Value::Array(values));
                    }
                }
            }
            source.insert("UID".into(), json!(columns.value(address, "UID")?.unwrap_or_default()));
            return Ok(source);
        }
        source.insert("path".into(), json!(text(f.own_path)));
        source.insert("title".into(), json!(text(f.title)));
        source.insert("Description".into(), json!(text(f.description)));
        source.insert("SearchableText".into(), json!(text(f.searchable_text)));
        for field in [f.custom_text, f.custom_keyword] {
            if let Some(object) = stored.get_first(field)
                && let Ok(Value::Object(values)) = serde_json::to_value(tantivy::schema::OwnedValue::from(object))
            {
                source.extend(values);
            }
        }
        for name in ["UID", "portal_type", "review_state"] {
            source.insert(name.into(), json!(columns.value(address, name)?.unwrap_or_default()));
        }
        Ok(source)
    }
}

/// Terms buckets of a date field are keyed as Elasticsearch keys them: milliseconds, with the
/// date written out in `key_as_string` (tantivy keys them with the RFC 3339 text).
fn date_term_keys(asked: &Value, answer: &mut Value, mapping: &dsl::Mapping<'_>) {
    let Some(asked) = asked.as_object() else { return };
    for (name, body) in asked {
        let Some(result) = answer.get_mut(name) else { continue };
        let is_date = body.pointer("/terms/field").and_then(Value::as_str).is_some_and(|field| {
            matches!(
                dsl::field(mapping, field),
                Ok(dsl::Kind::Typed(crate::declared::DeclaredField { kind: crate::declared::DeclaredType::Date, .. }))
                    | Ok(dsl::Kind::CustomTyped(_, _, dsl::CustomKind::Date))
            )
        });
        let sub = body.get("aggs").or_else(|| body.get("aggregations"));
        for bucket in result.get_mut("buckets").and_then(Value::as_array_mut).into_iter().flatten() {
            let at =
                bucket.get("key").and_then(Value::as_str).and_then(|k| chrono::DateTime::parse_from_rfc3339(k).ok());
            if let (true, Some(at)) = (is_date, at) {
                bucket["key"] = json!(at.timestamp_millis());
                bucket["key_as_string"] = json!(at.to_utc().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string());
            }
            if let Some(sub) = sub {
                date_term_keys(sub, bucket, mapping);
            }
        }
    }
}

/// Range buckets without a key of their own are keyed `from-to` with the bounds written as
/// Java writes doubles (`*-50.0`, `50.0-150.0`), as in Elasticsearch; tantivy writes `*-50`.
fn range_keys(asked: &Value, answer: &mut Value) {
    let Some(asked) = asked.as_object() else { return };
    for (name, body) in asked {
        let Some(result) = answer.get_mut(name) else { continue };
        let sub = body.get("aggs").or_else(|| body.get("aggregations"));
        let ranges = body.pointer("/range/ranges").and_then(Value::as_array);
        for (index, bucket) in result.get_mut("buckets").and_then(Value::as_array_mut).into_iter().flatten().enumerate()
        {
            let named = ranges.and_then(|r| r.get(index)).is_some_and(|r| r.get("key").is_some());
            if ranges.is_some() && !named {
                let bound = |key: &str| bucket.get(key).and_then(Value::as_f64).map_or("*".to_owned(), java_double);
                bucket["key"] = json!(format!("{}-{}", bound("from"), bound("to")));
            }
            if let Some(sub) = sub {
                range_keys(sub, bucket);
            }
        }
    }
}

/// A double as Java's `Double.toString` writes common values: `50.0`, `0.5`, `1.0E10` aside.
fn java_double(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e7 { format!("{x:.1}") } else { x.to_string() }
}

/// Refuses a `range` aggregation without ranges, at any depth, as Elasticsearch does: tantivy
/// reads the first range unchecked and panics.
fn check_ranges(aggregations: &Aggregations) -> Result<(), QueryError> {
    for (name, aggregation) in aggregations {
        if let AggregationVariants::Range(range) = &aggregation.agg
            && range.ranges.is_empty()
        {
            return Err(QueryError::illegal(format!("No [ranges] specified for the [{name}] aggregation")));
        }
        check_ranges(&aggregation.sub_aggregation)?;
    }
    Ok(())
}

/// Caps `size` and `shard_size` of terms aggregations at the bucket limit: Elasticsearch takes
/// any `int` (clients send `2147483647` for "all"), and tantivy's arithmetic on such sizes
/// overflows.
fn bound_sizes(aggregations: &mut Value) {
    match aggregations {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match value {
                    Value::Number(n) if ["size", "shard_size", "segment_size"].contains(&key.as_str()) => {
                        if n.as_u64().is_none_or(|n| n > u64::from(AGGREGATION_BUCKETS)) && n.as_i64() != Some(0) {
                            *value = json!(AGGREGATION_BUCKETS);
                        }
                    }
                    other => bound_sizes(other),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(bound_sizes),
        _ => {}
    }
}

/// A score as Elasticsearch writes it: the shortest decimal that reads back as the same 32-bit
/// float (`0.2876821`, not `0.28768208622932434`).
pub(crate) fn es_score(score: f32) -> Value {
    score.to_string().parse::<f64>().ok().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
}
