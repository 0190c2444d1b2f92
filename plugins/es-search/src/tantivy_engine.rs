//! The embedded engine: a tantivy index on disk (or in memory), one writer, a reader
//! reloaded after each commit so a committed change is visible at once.

use crate::caller_statistics::CallerStatistics;
use crate::declared::Declared;
use crate::dsl;
use crate::engine::{
    EngineError, Filters, Hit, INDEX_RULES, IndexDoc, SearchEngine, SearchRequest, SearchResponse, Suggestion,
};
use crate::index_dir;
use crate::schema::{Fields, register_analyzers, schema};
use crate::str_columns::StrColumns;
use crate::text_languages::{LanguagesHeld, TextLanguage};
use std::ops::Bound;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use tantivy::aggregation::agg_req::Aggregations;
use tantivy::aggregation::{AggContextParams, AggregationCollector, AggregationLimitsGuard};
use tantivy::collector::{Collector, Count, TopDocs};
use tantivy::query::{BooleanQuery, ConstScoreQuery, DisjunctionMaxQuery, Occur, Query, RangeQuery, TermQuery};
use tantivy::schema::{IndexRecordOption, Value};
use tantivy::snippet::SnippetGenerator;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};

/// Memory for the writer's buffers (tantivy needs at least 15 MB per indexing thread).
const WRITER_MEMORY: usize = 64 * 1024 * 1024;

/// Bounds of one search's aggregations (they come from configuration, but stay bounded).
const AGGREGATION_MEMORY: u64 = 64 * 1024 * 1024;
const AGGREGATION_BUCKETS: u32 = 10_000;

/// The tantivy engine.
pub struct TantivyEngine {
    index: Index,
    pub(crate) fields: Fields,
    writer: Mutex<IndexWriter>,
    pub(crate) reader: IndexReader,
    /// The fields of a declared mapping (`wcs search eval`); `None` for the site index.
    pub(crate) declared: Option<Declared>,
    /// The change-feed position searches see: set once the reader has reloaded, so whoever
    /// waits for a position finds it searchable (the index's own metadata says so earlier).
    searchable: AtomicI64,
    /// The languages it holds text in.
    languages: LanguagesHeld,
}

/// No position yet.
const NO_POSITION: i64 = -1;

/// The position a commit's payload (`position@rules`) holds, when it was written under the
/// current [`INDEX_RULES`].
fn position_of(payload: &str) -> Option<i64> {
    let (position, rules) = payload.split_once('@')?;
    (rules.parse::<u32>().ok()? == INDEX_RULES).then(|| position.parse().ok())?
}

impl TantivyEngine {
    /// Opens (or creates) the index in `dir`, or in memory without one.
    pub fn open(dir: Option<&Path>) -> Result<TantivyEngine, EngineError> {
        let (schema, fields) = schema();
        let index = match dir {
            Some(dir) => index_dir::open_or_replace(dir, schema)?,
            None => Index::create_in_ram(schema),
        };
        register_analyzers(&index);
        // One indexing thread: the indexer commits small batches, and every commit starts each
        // thread's segment writer afresh, with a term table of several megabytes to allocate
        // and zero; a second thread doubled that cost for batches too small to share.
        let writer =
            index.writer_with_num_threads(1, WRITER_MEMORY).map_err(|err| index_dir::writer_error(err, dir))?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let position = index.load_metas()?.payload.as_deref().and_then(position_of).unwrap_or(NO_POSITION);
        let searchable = AtomicI64::new(position);
        let languages = LanguagesHeld::of_index(&reader.searcher(), &fields);
        Ok(TantivyEngine { index, fields, writer: Mutex::new(writer), reader, declared: None, searchable, languages })
    }

    /// A throw-away index in memory with the fields an Elasticsearch mapping declares
    /// (`{"properties": {…}}`), for `wcs search eval`.
    pub fn with_mapping(mappings: &serde_json::Value) -> Result<TantivyEngine, dsl::QueryError> {
        let planned = crate::declared::plan(mappings)?;
        let (schema, fields, declared) =
            crate::schema::schema_with(|builder| crate::declared::add_fields(builder, planned));
        let index = Index::create_in_ram(schema);
        register_analyzers(&index);
        let failed = |e: tantivy::TantivyError| dsl::QueryError::execution(e.to_string());
        // One indexing thread: documents keep the order they were given in, as on one shard.
        let writer = index.writer_with_num_threads(1, WRITER_MEMORY).map_err(failed)?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into().map_err(failed)?;
        let searchable = AtomicI64::new(NO_POSITION);
        let languages = LanguagesHeld::default();
        Ok(TantivyEngine {
            index,
            fields,
            writer: Mutex::new(writer),
            reader,
            declared: Some(declared),
            searchable,
            languages,
        })
    }

    /// The index's schema.
    pub(crate) fn index_schema(&self) -> tantivy::schema::Schema {
        self.index.schema()
    }

    /// The index's analyzers, which term aggregations on text fields use.
    pub(crate) fn index_tokenizers(&self) -> tantivy::tokenizer::TokenizerManager {
        self.index.tokenizers().clone()
    }

    pub(crate) fn writer(&self) -> std::sync::MutexGuard<'_, IndexWriter> {
        self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn filters(&self, filters: &Filters, clauses: &mut Vec<(Occur, Box<dyn Query>)>) {
        let f = &self.fields;
        let set = |field, values: &[String]| -> Box<dyn Query> {
            dsl::any_term(values.iter().map(|v| Term::from_field_text(field, v)).collect())
        };
        if !filters.portal_types.is_empty() {
            clauses.push((Occur::Must, set(f.portal_type, &filters.portal_types)));
        }
        if !filters.review_states.is_empty() {
            clauses.push((Occur::Must, set(f.review_state, &filters.review_states)));
        }
        if !filters.subjects.is_empty() {
            clauses.push((Occur::Must, set(f.subject, &filters.subjects)));
        }
        if !filters.languages.is_empty() {
            clauses.push((Occur::Must, set(f.language, &filters.languages)));
        }
        // Filters never score (as in Elasticsearch's filter context): relevance is the query's.
        let unscored = |query: Box<dyn Query>| -> Box<dyn Query> { Box::new(ConstScoreQuery::new(query, 0.0)) };
        for path in &filters.subtrees {
            let term = Term::from_field_text(f.path, path);
            clauses.push((Occur::Must, unscored(Box::new(TermQuery::new(term, IndexRecordOption::Basic)))));
        }
        self.visibility(filters, clauses);
    }

    /// The clauses of what the caller may see: their `allowed` tokens and the publication
    /// window (when they are restricted to it).
    fn visibility(&self, filters: &Filters, clauses: &mut Vec<(Occur, Box<dyn Query>)>) {
        let f = &self.fields;
        if let Some(tokens) = &filters.allowed {
            let terms = tokens.iter().map(|v| Term::from_field_text(f.allowed, v)).collect();
            clauses.push((Occur::Must, dsl::any_term(terms)));
        }
        if let Some(now) = filters.active_at {
            let up_to_now = RangeQuery::new(Bound::Unbounded, Bound::Included(Term::from_field_i64(f.effective, now)));
            let after_now = RangeQuery::new(Bound::Excluded(Term::from_field_i64(f.expires, now)), Bound::Unbounded);
            clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(Box::new(up_to_now), 0.0))));
            clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(Box::new(after_now), 0.0))));
        }
    }

    /// Runs a scored search: for a caller who may not see everything, relevance comes from
    /// the documents they may see ([`CallerStatistics`]), so scores tell nothing of the rest.
    pub(crate) fn scored<C: Collector>(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        collector: &C,
        filters: &Filters,
    ) -> tantivy::Result<C::Fruit> {
        let mut visible = Vec::new();
        self.visibility(filters, &mut visible);
        if visible.is_empty() {
            return searcher.search(query, collector);
        }
        let statistics = CallerStatistics::new(searcher, Box::new(BooleanQuery::new(visible)))?;
        searcher.search_with_statistics_provider(query, collector, &statistics)
    }
}

impl SearchEngine for TantivyEngine {
    fn name(&self) -> &'static str {
        "tantivy"
    }

    fn index(&self, docs: &[IndexDoc]) -> Result<(), EngineError> {
        let f = &self.fields;
        let writer = self.writer();
        for d in docs {
            writer.delete_term(Term::from_field_text(f.uid, &d.uid));
            let language = TextLanguage::of(&d.language);
            self.languages.note(language);
            writer.add_document(crate::tantivy_document::document(f, d, language))?;
        }
        Ok(())
    }

    fn delete(&self, uids: &[String]) -> Result<(), EngineError> {
        let writer = self.writer();
        for uid in uids {
            writer.delete_term(Term::from_field_text(self.fields.uid, uid));
        }
        Ok(())
    }

    fn delete_under(&self, path: &str) -> Result<(), EngineError> {
        self.writer().delete_term(Term::from_field_text(self.fields.path, path));
        Ok(())
    }

    fn suggest(
        &self,
        text: &str,
        filters: &Filters,
        max_edits: usize,
        size: usize,
    ) -> Result<Vec<Suggestion>, EngineError> {
        self.did_you_mean(text, filters, max_edits, size)
    }

    fn raw(&self, request: &crate::engine::RawRequest) -> Result<serde_json::Value, crate::dsl::QueryError> {
        self.run_raw(request)
    }

    fn suggest_field(
        &self,
        field: &str,
        text: &str,
        request: &crate::engine::RawRequest,
        max_edits: usize,
        size: usize,
    ) -> Result<Vec<Suggestion>, crate::dsl::QueryError> {
        self.did_you_mean_in(field, text, request, max_edits, size)
    }

    fn path_of(&self, uid: &str) -> Result<Option<String>, EngineError> {
        let searcher = self.reader.searcher();
        let query = TermQuery::new(Term::from_field_text(self.fields.uid, uid), IndexRecordOption::Basic);
        let found = searcher.search(&query, &TopDocs::with_limit(1).order_by_score())?;
        let Some((_, address)) = found.first() else { return Ok(None) };
        let stored: TantivyDocument = searcher.doc(*address)?;
        Ok(stored.get_first(self.fields.own_path).and_then(|v| v.as_str()).map(str::to_owned))
    }

    fn clear(&self) -> Result<(), EngineError> {
        self.writer().delete_all_documents()?;
        Ok(())
    }

    fn commit(&self, position: i64) -> Result<(), EngineError> {
        let mut writer = self.writer();
        let mut prepared = writer.prepare_commit()?;
        prepared.set_payload(&format!("{position}@{INDEX_RULES}"));
        prepared.commit()?;
        drop(writer);
        self.reader.reload()?;
        self.searchable.store(position, Ordering::Release);
        Ok(())
    }

    fn documents(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    fn position(&self) -> Result<Option<i64>, EngineError> {
        let position = self.searchable.load(Ordering::Acquire);
        Ok((position != NO_POSITION).then_some(position))
    }

    fn search(&self, request: &SearchRequest) -> Result<SearchResponse, EngineError> {
        let Some(text) = &request.query else { return Ok(SearchResponse::default()) };
        let f = &self.fields;
        let mapping =
            dsl::Mapping { fields: f, custom: &request.custom, unmapped_matches_nothing: false, declared: None };
        let searcher = self.reader.searcher();
        let mut localized = Vec::new();
        for language in self.languages.asked(&request.filters.languages) {
            localized.push((language, dsl::translate(&mapping, &language.localize(text))?));
        }
        let text_query: Box<dyn Query> = match localized.as_slice() {
            [(_, one)] => one.box_clone(),
            many => Box::new(DisjunctionMaxQuery::new(many.iter().map(|(_, q)| q.box_clone()).collect())),
        };
        let mut words: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, text_query)];
        for clause in &request.clauses {
            words.push((Occur::Must, dsl::translate(&mapping, clause)?));
        }
        self.filters(&request.filters, &mut words);
        let query = BooleanQuery::new(words);
        let mut snippets = match &request.highlight {
            Some(highlight) => {
                let mut generators = Vec::with_capacity(localized.len());
                for (language, language_query) in &localized {
                    let [_, _, text_field] = f.text_fields(*language);
                    let mut generator = SnippetGenerator::create(&searcher, &**language_query, text_field)?;
                    generator.set_max_num_chars(highlight.max_chars.max(1));
                    generators.push((*language, generator));
                }
                Some((generators, highlight))
            }
            None => None,
        };
        let top = TopDocs::with_limit(request.size.max(1)).and_offset(request.start).order_by_score();
        let (found, total, aggregations) = match &request.aggregations {
            Some(json) => {
                let aggs: Aggregations =
                    serde_json::from_value(json.clone()).map_err(|e| EngineError::new(format!("aggregations: {e}")))?;
                let limits = AggregationLimitsGuard::new(Some(AGGREGATION_MEMORY), Some(AGGREGATION_BUCKETS));
                let collector = AggregationCollector::from_aggs(
                    aggs,
                    AggContextParams::new(limits, self.index.tokenizers().clone()),
                );
                let (found, total, results) =
                    self.scored(&searcher, &query, &(top, Count, collector), &request.filters)?;
                let results = serde_json::to_value(results).map_err(|e| EngineError::new(e.to_string()))?;
                (found, total, results)
            }
            None => {
                let (found, total) = self.scored(&searcher, &query, &(top, Count), &request.filters)?;
                (found, total, serde_json::Value::Null)
            }
        };
        let mut hits = Vec::with_capacity(found.len());
        let mut columns = StrColumns::new(&searcher);
        for (score, address) in found.into_iter().take(request.size) {
            let Some(uid) = columns.value(address, "UID")? else { continue };
            let fragment = match snippets.as_mut() {
                Some((generators, highlight)) => {
                    // Only highlighting needs the stored text, in the fields of its language.
                    let language = TextLanguage::of(&columns.value(address, "Language")?.unwrap_or_default());
                    match generators.iter_mut().find(|(l, _)| *l == language) {
                        Some((_, generator)) => {
                            let stored: TantivyDocument = searcher.doc(address)?;
                            let mut snippet = generator.snippet_from_doc(&stored);
                            snippet.set_snippet_prefix_postfix(&highlight.pre, &highlight.post);
                            (!snippet.is_empty()).then(|| snippet.to_html())
                        }
                        None => None,
                    }
                }
                None => None,
            };
            hits.push(Hit { uid, score, fragment });
        }
        Ok(SearchResponse { total, hits, aggregations })
    }
}

#[cfg(test)]
#[path = "tantivy_engine_tests.rs"]
mod tests;
