//! The embedded engine: a tantivy index on disk (or in memory), one writer, a reader
//! reloaded after each commit so a committed change is visible at once.

use crate::caller_statistics::CallerStatistics;
use crate::declared::Declared;
use crate::dsl;
use crate::engine::{
    EngineError, Filters, Hit, INDEX_RULES, IndexDoc, SearchEngine, SearchRequest, SearchResponse, Suggestion,
    TypedValue,
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
use tantivy::schema::{IndexRecordOption, OwnedValue, Value};
use tantivy::snippet::SnippetGenerator;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term, doc};

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

/// Custom field values as one JSON object (several values of a name become a list).
fn custom_object(values: Vec<(String, OwnedValue)>) -> std::collections::BTreeMap<String, OwnedValue> {
    let mut object: std::collections::BTreeMap<String, Vec<OwnedValue>> = std::collections::BTreeMap::new();
    for (name, value) in values {
        object.entry(name).or_default().push(value);
    }
    object
        .into_iter()
        .map(|(name, mut values)| {
            let value = if values.len() == 1 { values.remove(0) } else { OwnedValue::Array(values) };
            (name, value)
        })
        .collect()
}

/// A typed custom value as the JSON field indexes it (numbers and dates as fast values).
fn typed(value: TypedValue) -> OwnedValue {
    match value {
        TypedValue::Integer(n) => OwnedValue::I64(n),
        TypedValue::Float(x) => OwnedValue::F64(x),
        TypedValue::Boolean(b) => OwnedValue::Bool(b),
        TypedValue::Date(seconds) => OwnedValue::Date(tantivy::DateTime::from_timestamp_secs(seconds)),
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
            let [title, description, searchable_text] = f.text_fields(language);
            let mut document = doc!(
                f.uid => d.uid.as_str(),
                f.own_path => d.paths.first().map_or("", String::as_str),
                f.portal_type => d.portal_type.as_str(),
                f.review_state => d.review_state.as_str(),
                f.language => d.language.as_str(),
                title => d.title.as_str(),
                description => d.description.as_str(),
                searchable_text => d.searchable_text.as_str(),
                f.created => d.created,
                f.modified => d.modified,
                f.effective => d.effective,
                f.expires => d.expires,
            );
            for path in &d.paths {
                document.add_text(f.path, path);
            }
            for subject in &d.subjects {
                document.add_text(f.subject, subject);
            }
            for token in &d.allowed {
                document.add_text(f.allowed, token);
            }
            let text = |values: &[(String, String)]| -> Vec<(String, OwnedValue)> {
                values.iter().map(|(name, value)| (name.clone(), OwnedValue::Str(value.clone()))).collect()
            };
            let mut whole = text(&d.custom_keyword);
            whole.extend(d.custom_typed.iter().map(|(name, value)| (name.clone(), typed(*value))));
            for (field, values) in [(f.custom_text, text(&d.custom_text)), (f.custom_keyword, whole)] {
                if !values.is_empty() {
                    document.add_object(field, custom_object(values));
                }
            }
            writer.add_document(document)?;
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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn an_index_committed_under_other_rules_has_no_position() {
        let dir = tempfile::tempdir().unwrap();
        let engine = TantivyEngine::open(Some(dir.path())).unwrap();
        engine.commit(41).unwrap();
        drop(engine);
        assert_eq!(TantivyEngine::open(Some(dir.path())).unwrap().position().unwrap(), Some(41));
        assert_eq!(position_of(&format!("41@{}", INDEX_RULES - 1)), None);
        assert_eq!(position_of("41"), None, "before the rules were kept");
    }

    fn doc(uid: &str, title: &str, text: &str, allowed: &[&str]) -> IndexDoc {
        IndexDoc {
            uid: uid.into(),
            paths: vec!["/Plone".into(), format!("/Plone/{uid}")],
            portal_type: "Document".into(),
            title: title.into(),
            searchable_text: format!("{title} {text}"),
            allowed: allowed.iter().map(|a| (*a).to_owned()).collect(),
            effective: i64::MIN,
            expires: i64::MAX,
            ..IndexDoc::default()
        }
    }

    fn search(engine: &TantivyEngine, text: &str, allowed: Option<&[&str]>) -> Vec<String> {
        let filters =
            Filters { allowed: allowed.map(|a| a.iter().map(|t| (*t).to_owned()).collect()), ..Filters::default() };
        let query = serde_json::json!({"match": {"SearchableText": {"query": text, "operator": "and"}}});
        let request = SearchRequest { query: Some(query), filters, size: 10, ..SearchRequest::default() };
        engine.search(&request).unwrap().hits.into_iter().map(|h| h.uid).collect()
    }

    #[test]
    fn german_forms_find_each_other_and_security_filters() {
        let engine = TantivyEngine::open(None).unwrap();
        engine
            .index(&[
                doc("a", "Alte Häuser", "am Fluss", &["Anonymous"]),
                doc("b", "Die Strasse", "Herr Müller wohnt hier", &["Anonymous"]),
                doc("c", "Ärzte", "geheim", &["Manager"]),
            ])
            .unwrap();
        engine.commit(3).unwrap();
        assert_eq!(engine.position().unwrap(), Some(3));
        for query in ["Haus", "Hauses", "häusern"] {
            assert_eq!(search(&engine, query, None), ["a"], "{query}");
        }
        assert_eq!(search(&engine, "Straße Mueller", None), ["b"]);
        assert_eq!(search(&engine, "ÄRZTE", None), ["c"]);
        assert_eq!(search(&engine, "ärzte", Some(&["Anonymous"])), Vec::<String>::new());
        assert!(search(&engine, "der die das", None).is_empty());
        engine.delete(&["a".into()]).unwrap();
        engine.commit(4).unwrap();
        assert!(search(&engine, "Haus", None).is_empty());
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod subtree_tests {
    use super::*;

    #[test]
    fn a_subtree_goes_by_its_roots_path() {
        let engine = TantivyEngine::open(None).unwrap();
        let doc = |uid: &str, paths: &[&str]| IndexDoc {
            uid: uid.into(),
            paths: paths.iter().map(|p| (*p).to_owned()).collect(),
            title: "Garten".into(),
            effective: i64::MIN,
            expires: i64::MAX,
            ..IndexDoc::default()
        };
        engine.index(&[doc("g", &["/P/g", "/P"]), doc("d", &["/P/g/d", "/P/g", "/P"])]).unwrap();
        engine.commit(1).unwrap();
        assert_eq!(engine.path_of("g").unwrap().as_deref(), Some("/P/g"));
        engine.delete_under("/P/g").unwrap();
        engine.commit(2).unwrap();
        let query = serde_json::json!({"match": {"Title": "Garten"}});
        let request = SearchRequest { query: Some(query), size: 10, ..SearchRequest::default() };
        assert_eq!(engine.search(&request).unwrap().total, 0);
    }
}
