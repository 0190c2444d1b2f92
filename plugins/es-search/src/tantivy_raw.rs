//! Raw queries on the embedded engine (`@raw-es-search`): the query DSL ANDed with the caller's
//! filters, paging, one sort key, aggregations, answered in Elasticsearch's `_search` shape.

use crate::dsl::{self, QueryError};
use crate::engine::{RawRequest, SortKey, SourceFilter};
use crate::str_columns::StrColumns;
use crate::tantivy_engine::TantivyEngine;
use serde_json::{Map, Value, json};
use tantivy::aggregation::agg_req::Aggregations;
use tantivy::aggregation::{AggContextParams, AggregationCollector, AggregationLimitsGuard};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, Occur, Query, QueryClone, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::schema::Value as _;
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, Searcher, TantivyDocument, Term};

/// Bounds of one raw query's aggregations.
const AGGREGATION_MEMORY: u64 = 64 * 1024 * 1024;
const AGGREGATION_BUCKETS: u32 = 10_000;

/// Aggregations name custom fields as clients know them (`price`); the index keeps them in its
/// JSON fields (`custom_keyword.price`).
fn custom_columns(aggregations: &mut Value, custom: &crate::dsl::CustomFields) {
    match aggregations {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match value {
                    Value::String(name) if key == "field" => {
                        if let Some(kind) = custom.get(name.as_str()) {
                            let json_field =
                                if *kind == crate::dsl::CustomKind::Text { "custom_text" } else { "custom_keyword" };
                            *name = format!("{json_field}.{name}");
                        }
                    }
                    other => custom_columns(other, custom),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| custom_columns(item, custom)),
        _ => {}
    }
}

impl TantivyEngine {
    /// Runs a raw query.
    pub(crate) fn run_raw(&self, request: &RawRequest) -> Result<Value, QueryError> {
        let mapping = dsl::Mapping { fields: &self.fields, custom: &request.custom, unmapped_matches_nothing: true };
        let text_query = dsl::translate(&mapping, &request.query)?;
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, text_query.box_clone())];
        self.filters(&request.filters, &mut clauses);
        let query = BooleanQuery::new(clauses);
        let searcher = self.reader.searcher();
        let failed = |e: tantivy::TantivyError| QueryError::execution(e.to_string());
        let top = TopDocs::with_limit(request.size.max(1)).and_offset(request.from);
        let (addresses, total): (Vec<(Value, DocAddress)>, usize) = match &request.sort {
            SortKey::Score => {
                let (found, total) = searcher.search(&query, &(top.order_by_score(), Count)).map_err(failed)?;
                (found.into_iter().map(|(score, a)| (json!(score), a)).collect(), total)
            }
            SortKey::Date(field, order) => match self.missing_date(field) {
                Some((handle, missing)) => {
                    let page = (request.from, request.size);
                    self.dates_missing_last(&searcher, &query, (field, handle, missing), *order, page)
                        .map_err(failed)?
                }
                None => {
                    let collector = top.order_by_fast_field::<i64>(field, *order);
                    let (found, total) = searcher.search(&query, &(collector, Count)).map_err(failed)?;
                    (found.into_iter().map(|(value, a)| (json!(value), a)).collect(), total)
                }
            },
            SortKey::Keyword(field, order) => {
                let collector = top.order_by_string_fast_field(field, *order);
                let (found, total) = searcher.search(&query, &(collector, Count)).map_err(failed)?;
                (found.into_iter().map(|(value, a)| (json!(value), a)).collect(), total)
            }
        };
        let mut fragments = Vec::new();
        if let Some((names, marks)) = &request.highlight {
            for name in names {
                // Only full-text fields have fragments; Elasticsearch skips the others too.
                if let Ok(dsl::Kind::Text(field)) = dsl::field(&mapping, name) {
                    let mut generator =
                        SnippetGenerator::create(&searcher, text_query.as_ref(), field).map_err(failed)?;
                    generator.set_max_num_chars(marks.max_chars);
                    fragments.push((name.clone(), generator));
                }
            }
        }
        let mut hits = Vec::with_capacity(addresses.len());
        let mut columns = StrColumns::new(&searcher);
        for (key, address) in addresses.into_iter().take(request.size) {
            let stored: TantivyDocument = searcher.doc(address).map_err(failed)?;
            let source = self.source(&mut columns, address, &stored).map_err(failed)?;
            let id = source.get("UID").cloned().unwrap_or(Value::Null);
            let mut hit = json!({"_index": "plone", "_id": id});
            if !matches!(request.source, SourceFilter::Nothing) {
                let kept: Map<String, Value> =
                    source.into_iter().filter(|(key, _)| request.source.keeps(key)).collect();
                hit["_source"] = Value::Object(kept);
            }
            if let Some((_, marks)) = &request.highlight {
                let mut marked = Map::new();
                for (name, generator) in &fragments {
                    let mut snippet = generator.snippet_from_doc(&stored);
                    snippet.set_snippet_prefix_postfix(&marks.pre, &marks.post);
                    if !snippet.is_empty() {
                        marked.insert(name.clone(), json!([snippet.to_html()]));
                    }
                }
                if !marked.is_empty() {
                    hit["highlight"] = Value::Object(marked);
                }
            }
            match request.sort {
                SortKey::Score => hit["_score"] = key,
                SortKey::Date(..) | SortKey::Keyword(..) => {
                    hit["_score"] = Value::Null;
                    hit["sort"] = json!([key]);
                }
            }
            hits.push(hit);
        }
        let mut answer = json!({"timed_out": false, "hits": {"hits": hits}});
        if let Some(limit) = request.track_total_hits {
            let relation = if total > limit { "gte" } else { "eq" };
            answer["hits"]["total"] = json!({"value": total.min(limit), "relation": relation});
        }
        if let Some(aggregations) = &request.aggregations {
            let mut aggregations = aggregations.clone();
            custom_columns(&mut aggregations, &request.custom);
            let mut budget = crate::tantivy_filter_aggs::MAX_FILTER_BUCKETS;
            answer["aggregations"] = self.aggregate_all(&searcher, &query, &aggregations, &mapping, &mut budget)?;
        }
        Ok(answer)
    }

    /// The date fields some objects lack, with the value the index holds for them instead.
    fn missing_date(&self, name: &str) -> Option<(tantivy::schema::Field, i64)> {
        match name {
            "effective" => Some((self.fields.effective, i64::MIN)),
            "expires" => Some((self.fields.expires, i64::MAX)),
            _ => None,
        }
    }

    /// A page sorted by a date some objects lack: those come last whatever the order, as in
    /// Elasticsearch, with its stand-in sort value (the largest for ascending order, the
    /// smallest for descending).
    fn dates_missing_last(
        &self,
        searcher: &Searcher,
        query: &BooleanQuery,
        (name, field, missing): (&str, tantivy::schema::Field, i64),
        order: tantivy::Order,
        (from, size): (usize, usize),
    ) -> tantivy::Result<(Vec<(Value, DocAddress)>, usize)> {
        let lacking = || -> Box<dyn Query> {
            Box::new(TermQuery::new(Term::from_field_i64(field, missing), IndexRecordOption::Basic))
        };
        let having = BooleanQuery::new(vec![(Occur::Must, query.box_clone()), (Occur::MustNot, lacking())]);
        let without = BooleanQuery::new(vec![(Occur::Must, query.box_clone()), (Occur::Must, lacking())]);
        let (present, absent) = (searcher.search(&having, &Count)?, searcher.search(&without, &Count)?);
        let mut page: Vec<(Value, DocAddress)> = Vec::new();
        if from < present && size > 0 {
            let collector = TopDocs::with_limit(size).and_offset(from).order_by_fast_field::<i64>(name, order);
            page.extend(searcher.search(&having, &collector)?.into_iter().map(|(value, a)| (json!(value), a)));
        }
        let wanted = size - page.len();
        if wanted > 0 && absent > 0 {
            let skip = from.saturating_sub(present);
            let stand_in = if order == tantivy::Order::Asc { i64::MAX } else { i64::MIN };
            let collector = TopDocs::with_limit(wanted).and_offset(skip).order_by_score();
            page.extend(searcher.search(&without, &collector)?.into_iter().map(|(_, a)| (json!(stand_in), a)));
        }
        Ok((page, present + absent))
    }

    /// Aggregations tantivy answers itself (Elasticsearch's request and answer forms).
    pub(crate) fn aggregate(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        aggregations: &Value,
    ) -> Result<Value, QueryError> {
        let aggs: Aggregations =
            serde_json::from_value(aggregations.clone()).map_err(|e| QueryError::content(e.to_string()))?;
        let limits = AggregationLimitsGuard::new(Some(AGGREGATION_MEMORY), Some(AGGREGATION_BUCKETS));
        let collector = AggregationCollector::from_aggs(aggs, AggContextParams::new(limits, self.index_tokenizers()));
        let results = searcher.search(query, &collector).map_err(|e| QueryError::execution(e.to_string()))?;
        serde_json::to_value(results).map_err(|e| QueryError::illegal(e.to_string()))
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
