//! Raw queries on the embedded engine (`@raw-es-search`): the query DSL ANDed with the caller's
//! filters, paging, sorting, aggregations, highlighting, answered in Elasticsearch's `_search`
//! shape.

use crate::dsl::{self, QueryError};
use crate::engine::{RawRequest, SourceFilter};
use crate::sort_collector::{SortBy, SortCollector};
use crate::str_columns::StrColumns;
use crate::tantivy_engine::TantivyEngine;
use crate::tantivy_highlight::Highlighter;
use serde_json::{Map, Value, json};
use tantivy::aggregation::agg_req::Aggregations;
use tantivy::aggregation::{AggContextParams, AggregationCollector, AggregationLimitsGuard};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, Occur, Query, QueryClone};
use tantivy::schema::Value as _;
use tantivy::{DocAddress, Searcher, TantivyDocument};

/// The memory one raw query's aggregations may take.
const AGGREGATION_MEMORY: u64 = 64 * 1024 * 1024;

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
        let highlighter = match &request.highlight {
            Some(fields) => Some(Highlighter::new(&searcher, text_query.as_ref(), &mapping, fields)?),
            None => None,
        };
        let mut hits = Vec::with_capacity(found.len());
        let mut columns = StrColumns::new(&searcher);
        let max_score = if scored { found.iter().map(|(_, score, _)| *score).reduce(f32::max) } else { None };
        for (sort_values, score, address) in found.into_iter().take(request.size) {
            let stored: TantivyDocument = searcher.doc(address).map_err(failed)?;
            let source = self.source(&mut columns, address, &stored).map_err(failed)?;
            let id = source.get("UID").cloned().unwrap_or(Value::Null);
            let score = if scored { es_score(score) } else { Value::Null };
            let mut hit = json!({"_index": "plone", "_id": id, "_score": score});
            if !request.docvalue_fields.is_empty() {
                hit["fields"] = self.docvalues(&stored, &request.docvalue_fields)?;
            }
            if !matches!(request.source, SourceFilter::Nothing) {
                let kept: Map<String, Value> =
                    source.into_iter().filter(|(key, _)| request.source.keeps(key)).collect();
                hit["_source"] = Value::Object(kept);
            }
            if let Some(marked) = highlighter.as_ref().and_then(|h| h.mark(&stored)) {
                hit["highlight"] = marked;
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
            let mut budget = crate::tantivy_filter_aggs::MAX_FILTER_BUCKETS;
            answer["aggregations"] = self.aggregate_all(&searcher, &query, aggregations, &mapping, &mut budget)?;
        }
        Ok(answer)
    }

    /// Aggregations tantivy answers itself, asked and answered in Elasticsearch's forms.
    pub(crate) fn aggregate(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        asked: &Value,
        mapping: &dsl::Mapping<'_>,
    ) -> Result<Value, QueryError> {
        let prepared = crate::agg_request::prepare(asked, mapping)?;
        let aggs: Aggregations = serde_json::from_value(prepared).map_err(|e| QueryError::content(e.to_string()))?;
        let limits = AggregationLimitsGuard::new(Some(AGGREGATION_MEMORY), Some(crate::agg_request::MAX_BUCKETS));
        let collector = AggregationCollector::from_aggs(aggs, AggContextParams::new(limits, self.index_tokenizers()));
        let makes_buckets = asked.to_string().contains("histogram");
        let results = searcher.search(query, &collector).map_err(|e| too_many_buckets(e, makes_buckets))?;
        let mut answer = serde_json::to_value(results).map_err(|e| QueryError::illegal(e.to_string()))?;
        crate::agg_answer::finish(asked, &mut answer, mapping);
        Ok(answer)
    }

    /// A hit's `fields` for `docvalue_fields`: each declared field's values (dates written as
    /// Elasticsearch writes them, numbers in their `format` when one is given).
    fn docvalues(&self, stored: &TantivyDocument, asked: &[(String, Option<String>)]) -> Result<Value, QueryError> {
        use crate::declared::DeclaredType;
        let mut fields = Map::new();
        for (name, format) in asked {
            let Some(field) = self.declared.as_ref().and_then(|d| d.get(name)) else { continue };
            if matches!(field.kind, DeclaredType::Text(_) | DeclaredType::Completion) {
                return Err(crate::raw_sort::text_field(name));
            }
            let values: Vec<Value> = stored
                .get_all(field.field)
                .filter_map(|v| serde_json::to_value(tantivy::schema::OwnedValue::from(v)).ok())
                .map(|value| match (field.kind, format.as_deref(), value.as_f64()) {
                    (DeclaredType::Date, _, _) => {
                        let millis = value.as_str().and_then(|t| crate::date_formats::millis(&json!(t), None));
                        millis.and_then(crate::date_formats::iso_text).map_or(value, Value::String)
                    }
                    (DeclaredType::Integer | DeclaredType::Float, Some(pattern), Some(number)) => {
                        crate::java_format::decimal(number, pattern).map_or(value, Value::String)
                    }
                    _ => value,
                })
                .collect();
            if !values.is_empty() {
                fields.insert(name.clone(), Value::Array(values));
            }
        }
        Ok(Value::Object(fields))
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
                if let Some(weights) = field.weights {
                    // A completion's inputs with their weights, as the document gave them.
                    let weights = stored.get_all(weights).filter_map(|w| w.as_i64());
                    values = values.into_iter().zip(weights).map(|(i, w)| json!({"input": i, "weight": w})).collect();
                }
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

/// tantivy's refusal of an aggregation that makes more buckets than the limit, in
/// Elasticsearch's words (a histogram's buckets may exhaust the memory bound before their
/// number is counted); other failures as they come.
fn too_many_buckets(error: tantivy::TantivyError, makes_buckets: bool) -> QueryError {
    let text = error.to_string();
    let lower = text.to_lowercase();
    if !(lower.contains("bucket") || (makes_buckets && lower.contains("memory limit"))) {
        return QueryError::execution(text);
    }
    QueryError {
        es_type: "too_many_buckets_exception",
        ..QueryError::illegal(format!(
            "Trying to create too many buckets. Must be less than or equal to: [{}]. This limit can be set by \
             changing the [search.max_buckets] cluster level setting.",
            crate::agg_request::MAX_BUCKETS
        ))
    }
    .on_shard()
}

/// A score as Elasticsearch writes it: the shortest decimal that reads back as the same 32-bit
/// float (`0.2876821`, not `0.28768208622932434`).
pub(crate) fn es_score(score: f32) -> Value {
    score.to_string().parse::<f64>().ok().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
}
