//! Relevance from what the caller may see. BM25 weighs a word by how many documents contain
//! it; counted over the whole index, a caller's own document would score lower for a word the
//! more documents they may not see contain it, and comparing scores would tell them the words
//! of private text. So a caller whose visibility is restricted is scored with statistics of
//! their own, all counted over the documents they may see (`allowed` tokens, publication
//! window): how many there are, how many contain each word, and how long each field is on
//! average. Managers, who see everything, get the index's statistics.

use std::collections::HashMap;
use std::sync::Mutex;
use tantivy::collector::Count;
use tantivy::query::{Bm25StatisticsProvider, BooleanQuery, EnableScoring, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Searcher, Term};

/// BM25 statistics over the documents `visible` matches.
pub struct CallerStatistics<'s> {
    searcher: &'s Searcher,
    visible: Box<dyn Query>,
    /// How many documents the caller may see.
    documents: u64,
    /// Document frequencies already counted during this search.
    frequencies: Mutex<HashMap<Term, u64>>,
    /// Fields' token totals already summed during this search.
    tokens: Mutex<HashMap<Field, u64>>,
}

impl<'s> CallerStatistics<'s> {
    /// Statistics for a caller who sees what `visible` matches.
    pub fn new(searcher: &'s Searcher, visible: Box<dyn Query>) -> tantivy::Result<CallerStatistics<'s>> {
        let documents = searcher.search(visible.as_ref(), &Count)? as u64;
        Ok(CallerStatistics { searcher, visible, documents, frequencies: Mutex::default(), tokens: Mutex::default() })
    }
}

impl Bm25StatisticsProvider for CallerStatistics<'_> {
    /// The sum of the field's lengths (its field norms) over the visible documents: one pass
    /// over them per field and search.
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        let mut known = self.tokens.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(total) = known.get(&field) {
            return Ok(*total);
        }
        let weight = self.visible.weight(EnableScoring::disabled_from_searcher(self.searcher))?;
        let mut total = 0u64;
        for segment in self.searcher.segment_readers() {
            // A field that keeps no lengths (keywords) counts as one token per document.
            let Ok(lengths) = segment.get_fieldnorms_reader(field) else {
                known.insert(field, self.documents);
                return Ok(self.documents);
            };
            let alive = segment.alive_bitset();
            weight.for_each_no_score(segment, &mut |docs| {
                for &doc in docs {
                    if alive.is_none_or(|alive| alive.is_alive(doc)) {
                        total += u64::from(lengths.fieldnorm(doc));
                    }
                }
            })?;
        }
        known.insert(field, total);
        Ok(total)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        Ok(self.documents)
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        let mut known = self.frequencies.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(count) = known.get(term) {
            return Ok(*count);
        }
        let with_term = BooleanQuery::new(vec![
            (Occur::Must, Box::new(TermQuery::new(term.clone(), IndexRecordOption::Basic)) as Box<dyn Query>),
            (Occur::Must, self.visible.box_clone()),
        ]);
        let count = self.searcher.search(&with_term, &Count)? as u64;
        known.insert(term.clone(), count);
        Ok(count)
    }
}
