//! "Did you mean": indexed words a few edits away from a typed word that finds nothing,
//! offered only when they find something the caller may see. Words are looked up in the
//! language the search asks for (German when it asks for none or for several).

use crate::dsl::{self, QueryError};
use crate::dsl_fields::Kind;
use crate::engine::{EngineError, Filters, RawRequest, SuggestOption, Suggestion};
use crate::tantivy_engine::TantivyEngine;
use crate::text_languages::TextLanguage;
use tantivy::Term;
use tantivy::collector::Count;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::{TextAnalyzer, TokenStream};

/// At most this many indexed words are looked at per suggested word.
const SUGGEST_SCAN: usize = 50_000;

impl TantivyEngine {
    /// How many documents the filters let through contain `term` in the text.
    fn visible_count(
        &self,
        searcher: &tantivy::Searcher,
        text_field: Field,
        term: &str,
        filters: &Filters,
    ) -> Result<usize, EngineError> {
        let term = Term::from_field_text(text_field, term);
        let mut clauses: Vec<(Occur, Box<dyn Query>)> =
            vec![(Occur::Must, Box::new(TermQuery::new(term, IndexRecordOption::Basic)))];
        self.filters(filters, &mut clauses);
        Ok(searcher.search(&BooleanQuery::new(clauses), &Count)?)
    }

    /// See [`crate::engine::SearchEngine::suggest`].
    pub(crate) fn did_you_mean(
        &self,
        text: &str,
        filters: &Filters,
        max_edits: usize,
        size: usize,
    ) -> Result<Vec<Suggestion>, EngineError> {
        let language = match filters.languages.as_slice() {
            [one] => TextLanguage::of(one),
            _ => TextLanguage::German,
        };
        let [_, _, text_field] = self.fields.text_fields(language);
        self.corrections(text_field, language.analyzer(), text, filters, max_edits, size)
    }

    /// See [`crate::engine::SearchEngine::suggest_field`]: a declared text field's own words,
    /// analysed as that field is; any other field is the site's text.
    pub(crate) fn did_you_mean_in(
        &self,
        field: &str,
        text: &str,
        request: &RawRequest,
        max_edits: usize,
        size: usize,
    ) -> Result<Vec<Suggestion>, QueryError> {
        let schema = self.declared_schema();
        let mapping = self.raw_mapping(&request.custom, schema.as_ref());
        let found = match dsl::field(&mapping, field) {
            Ok(Kind::Text(text_field, analyzer)) if self.declared.is_some() => {
                self.corrections(text_field, analyzer.analyzer(), text, &request.filters, max_edits, size)
            }
            _ => self.did_you_mean(text, &request.filters, max_edits, size),
        };
        found.map_err(|e| QueryError::execution(e.to_string()))
    }

    /// The corrections of the words of `text` as `analyzer` cuts them, from `text_field`'s words.
    fn corrections(
        &self,
        text_field: Field,
        mut analyzer: TextAnalyzer,
        text: &str,
        filters: &Filters,
        max_edits: usize,
        size: usize,
    ) -> Result<Vec<Suggestion>, EngineError> {
        let searcher = self.reader.searcher();
        let mut stream = analyzer.token_stream(text);
        let mut words = Vec::new();
        while stream.advance() {
            words.push(stream.token().text.clone());
        }
        let typed: Vec<&str> = text.split_whitespace().collect();
        let mut out = Vec::new();
        for (index, word) in words.iter().enumerate() {
            if self.visible_count(&searcher, text_field, word, filters)? > 0 {
                continue;
            }
            // Candidates share the first letter: typos rarely start a word.
            let first: String = word.chars().take(1).collect();
            let mut upper = first.clone();
            upper.push(char::MAX);
            let mut candidates: Vec<(usize, String)> = Vec::new();
            for segment in searcher.segment_readers() {
                let inverted = segment.inverted_index(text_field)?;
                let mut terms = inverted
                    .terms()
                    .range()
                    .ge(first.as_bytes())
                    .lt(upper.as_bytes())
                    .into_stream()
                    .map_err(|e| EngineError::new(e.to_string()))?;
                let mut scanned = 0;
                while terms.advance() && scanned < SUGGEST_SCAN {
                    scanned += 1;
                    let Ok(candidate) = std::str::from_utf8(terms.key()) else { continue };
                    let distance = edits(word, candidate);
                    if distance > 0 && distance <= max_edits && !candidates.iter().any(|(_, c)| c == candidate) {
                        candidates.push((distance, candidate.to_owned()));
                    }
                }
            }
            candidates.sort();
            let mut options = Vec::new();
            for (distance, candidate) in candidates {
                if options.len() >= size {
                    break;
                }
                if self.visible_count(&searcher, text_field, &candidate, filters)? > 0 {
                    let length = word.chars().count().max(1) as f32;
                    options.push(SuggestOption { text: candidate, score: 1.0 - distance as f32 / length });
                }
            }
            let shown = typed.get(index).map_or_else(|| word.clone(), |t| (*t).to_owned());
            out.push(Suggestion { text: shown, options });
        }
        Ok(out)
    }
}

/// The edit distance of two words (Levenshtein, on characters).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod suggest_tests {
    use super::*;
    use crate::engine::{IndexDoc, SearchEngine};

    #[test]
    fn did_you_mean_offers_visible_words_only() {
        let engine = TantivyEngine::open(None).unwrap();
        let doc = |uid: &str, text: &str, allowed: &str| IndexDoc {
            uid: uid.into(),
            paths: vec![format!("/P/{uid}")],
            searchable_text: text.into(),
            allowed: vec![allowed.into()],
            effective: i64::MIN,
            expires: i64::MAX,
            ..IndexDoc::default()
        };
        engine.index(&[doc("a", "Rathaus Marktplatz", "Anonymous"), doc("b", "Ratgeber", "Manager")]).unwrap();
        engine.commit(1).unwrap();
        let anonymous = Filters { allowed: Some(vec!["Anonymous".into()]), ..Filters::default() };
        let found = engine.suggest("Rathuas", &anonymous, 2, 5).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].text, "Rathuas");
        let options: Vec<&str> = found[0].options.iter().map(|o| o.text.as_str()).collect();
        assert_eq!(options, ["rathaus"], "the private word is not offered");
        assert!(engine.suggest("Rathaus", &anonymous, 2, 5).unwrap().is_empty(), "found words need no help");
        assert_eq!(edits("kitten", "sitting"), 3);
    }
}
