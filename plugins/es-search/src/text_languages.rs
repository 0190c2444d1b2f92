//! The languages the index analyses text in: German (the chain of [`crate::analysis`], for
//! German content and for content in no language or in another one), French, Italian and
//! English. Each of the last three is what Elasticsearch's analyzer of that name does as far
//! as tantivy's filters go: words, lowercase, the language's Snowball stop words, its Snowball
//! stemmer (Elasticsearch's `french` also strips elisions and uses a lighter stemmer; its
//! `english` also strips possessives: `l'école` and `teacher's` are one token here).
//!
//! On a multilingual site each object's title, description and text go into the fields of its
//! language (`Title_fr`, `SearchableText_fr`…; German into `Title`, `SearchableText`), so a
//! query in one language meets only that language's stems; a query in no language asks every
//! language's fields.

use serde_json::Value;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU8, Ordering};
use tantivy::tokenizer::{
    Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
};

/// A language of text analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TextLanguage {
    /// German, and every language without an analysis of its own.
    German,
    /// French.
    French,
    /// Italian.
    Italian,
    /// English.
    English,
}

/// The full-text fields each language has a copy of.
pub const LOCALIZED_FIELDS: [&str; 3] = ["Title", "Description", "SearchableText"];

/// Words longer than this (in bytes) are not indexed: they are not words.
const LONGEST_WORD: usize = 256;

static FRENCH: LazyLock<TextAnalyzer> = LazyLock::new(|| snowball(Language::French));
static ITALIAN: LazyLock<TextAnalyzer> = LazyLock::new(|| snowball(Language::Italian));
static ENGLISH: LazyLock<TextAnalyzer> = LazyLock::new(|| snowball(Language::English));

fn snowball(language: Language) -> TextAnalyzer {
    let builder = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(LONGEST_WORD))
        .filter(LowerCaser);
    match StopWordFilter::new(language) {
        Some(stop) => builder.filter(stop).filter(Stemmer::new(language)).build(),
        None => builder.filter(Stemmer::new(language)).build(),
    }
}

impl TextLanguage {
    /// Every language, German first.
    pub const ALL: [TextLanguage; 4] =
        [TextLanguage::German, TextLanguage::French, TextLanguage::Italian, TextLanguage::English];

    /// The analysis for content in the language `code` (`fr`, `fr-CH`; German for any other).
    pub fn of(code: &str) -> TextLanguage {
        match code.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase().as_str() {
            "fr" => TextLanguage::French,
            "it" => TextLanguage::Italian,
            "en" => TextLanguage::English,
            _ => TextLanguage::German,
        }
    }

    /// The language's code.
    pub fn code(self) -> &'static str {
        match self {
            TextLanguage::German => "de",
            TextLanguage::French => "fr",
            TextLanguage::Italian => "it",
            TextLanguage::English => "en",
        }
    }

    /// What its fields' names end in: nothing for German (the fields every index has).
    pub fn suffix(self) -> &'static str {
        match self {
            TextLanguage::German => "",
            TextLanguage::French => "_fr",
            TextLanguage::Italian => "_it",
            TextLanguage::English => "_en",
        }
    }

    /// The name its analyzer is registered under (Elasticsearch's analyzer of the language).
    pub fn analyzer_name(self) -> &'static str {
        match self {
            TextLanguage::German => crate::analysis::GERMAN,
            TextLanguage::French => "fr_es",
            TextLanguage::Italian => "it_es",
            TextLanguage::English => "en_es",
        }
    }

    /// Elasticsearch's name of the analyzer.
    pub fn elasticsearch_analyzer(self) -> &'static str {
        match self {
            TextLanguage::German => "german",
            TextLanguage::French => "french",
            TextLanguage::Italian => "italian",
            TextLanguage::English => "english",
        }
    }

    /// The analyzer (a clone shares the stop words).
    pub fn analyzer(self) -> TextAnalyzer {
        match self {
            TextLanguage::German => crate::analysis::german(),
            TextLanguage::French => FRENCH.clone(),
            TextLanguage::Italian => ITALIAN.clone(),
            TextLanguage::English => ENGLISH.clone(),
        }
    }

    /// The name of this language's copy of a full-text field (`SearchableText_fr`).
    pub fn field_name(self, field: &str) -> String {
        format!("{field}{}", self.suffix())
    }

    /// The language whose copy of a full-text field `name` is (`SearchableText_fr` → French,
    /// with `SearchableText`); `None` for other names.
    pub fn of_field(name: &str) -> Option<(TextLanguage, &'static str)> {
        TextLanguage::ALL.iter().find_map(|language| {
            LOCALIZED_FIELDS.iter().find(|field| language.field_name(field) == name).map(|field| (*language, *field))
        })
    }

    /// `query` (the query DSL) asking this language's copies of the full-text fields where it
    /// names the German ones: object keys (`{"match": {"SearchableText": …}}`) and the
    /// entries of `fields` lists (`"Title^2"`).
    pub fn localize(self, query: &Value) -> Value {
        if self == TextLanguage::German {
            return query.clone();
        }
        let rename = |name: &str| -> Option<String> {
            let (field, boost) = name.split_once('^').map_or((name, None), |(f, b)| (f, Some(b)));
            let field = match field {
                "title" => "Title",
                "description" => "Description",
                other => other,
            };
            LOCALIZED_FIELDS.contains(&field).then(|| match boost {
                Some(boost) => format!("{}^{boost}", self.field_name(field)),
                None => self.field_name(field),
            })
        };
        match query {
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, value)| {
                        let value = if key == "fields" || key == "default_field" {
                            rename_strings(value, &rename)
                        } else {
                            self.localize(value)
                        };
                        (rename(key).unwrap_or_else(|| key.clone()), value)
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(|item| self.localize(item)).collect()),
            other => other.clone(),
        }
    }
}

/// The languages an index holds text in (German always), noted as documents come in and
/// read from the index when it opens: a search in no language asks these only, so a site in
/// one language asks its own fields alone. A language whose documents were all deleted stays
/// noted; asking its empty fields costs next to nothing.
#[derive(Debug, Default)]
pub struct LanguagesHeld(AtomicU8);

impl LanguagesHeld {
    /// The languages whose fields hold any text in an index as it is.
    pub fn of_index(searcher: &tantivy::Searcher, fields: &crate::schema::Fields) -> LanguagesHeld {
        let held = LanguagesHeld::default();
        for language in TextLanguage::ALL {
            let [_, _, text] = fields.text_fields(language);
            let holds_any = searcher
                .segment_readers()
                .iter()
                .any(|segment| segment.inverted_index(text).is_ok_and(|inverted| inverted.terms().num_terms() > 0));
            if holds_any {
                held.note(language);
            }
        }
        held
    }

    /// Notes that the index holds text in `language`.
    pub fn note(&self, language: TextLanguage) {
        self.0.fetch_or(1 << language as u8, Ordering::Relaxed);
    }

    /// The languages a search's words are analysed in: those it filters by (`codes`), else
    /// every language held.
    pub fn asked(&self, codes: &[String]) -> Vec<TextLanguage> {
        let held = self.0.load(Ordering::Relaxed);
        let mut languages: Vec<TextLanguage> = if codes.is_empty() {
            TextLanguage::ALL
                .into_iter()
                .filter(|l| *l == TextLanguage::German || held & (1 << *l as u8) != 0)
                .collect()
        } else {
            codes.iter().map(|code| TextLanguage::of(code)).collect()
        };
        languages.sort();
        languages.dedup();
        languages
    }
}

fn rename_strings(value: &Value, rename: &dyn Fn(&str) -> Option<String>) -> Value {
    match value {
        Value::String(name) => Value::String(rename(name).unwrap_or_else(|| name.clone())),
        Value::Array(items) => Value::Array(items.iter().map(|item| rename_strings(item, rename)).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::analysis::tokens;
    use crate::engine::{Filters, Highlight, IndexDoc, SearchEngine, SearchRequest};
    use crate::tantivy_engine::TantivyEngine;
    use serde_json::json;

    #[test]
    fn each_language_stems_its_own_words_and_drops_its_stop_words() {
        assert_eq!(tokens(TextLanguage::French.analyzer(), "Les maisons de la ville"), ["maison", "vill"]);
        assert_eq!(tokens(TextLanguage::Italian.analyzer(), "Le case della città"), ["cas", "citt"]);
        assert_eq!(tokens(TextLanguage::English.analyzer(), "The houses of the town"), ["hous", "town"]);
        assert_eq!(TextLanguage::of("fr-CH"), TextLanguage::French);
        assert_eq!(TextLanguage::of(""), TextLanguage::German);
        assert_eq!(TextLanguage::of("rm"), TextLanguage::German);
    }

    #[test]
    fn a_query_is_localized_by_its_field_names() {
        let query = json!({"bool": {"should": [
            {"match": {"SearchableText": {"query": "maisons"}}},
            {"multi_match": {"query": "maisons", "fields": ["Title^2", "description", "Subject"]}},
            {"term": {"portal_type": "Document"}},
        ]}});
        assert_eq!(
            TextLanguage::French.localize(&query),
            json!({"bool": {"should": [
                {"match": {"SearchableText_fr": {"query": "maisons"}}},
                {"multi_match": {"query": "maisons", "fields": ["Title_fr^2", "Description_fr", "Subject"]}},
                {"term": {"portal_type": "Document"}},
            ]}})
        );
        assert_eq!(TextLanguage::German.localize(&query), query);
        assert_eq!(TextLanguage::of_field("Title_it"), Some((TextLanguage::Italian, "Title")));
        assert_eq!(TextLanguage::of_field("SearchableText"), Some((TextLanguage::German, "SearchableText")));
        assert_eq!(TextLanguage::of_field("Subject"), None);
    }

    fn search(engine: &TantivyEngine, text: &str, languages: &[&str]) -> Vec<(String, Option<String>)> {
        let filters = Filters { languages: languages.iter().map(|l| (*l).to_owned()).collect(), ..Filters::default() };
        let query = json!({"match": {"SearchableText": {"query": text, "operator": "and"}}});
        let highlight = Highlight { pre: "<b>".into(), post: "</b>".into(), max_chars: 100, whole: false };
        let request = SearchRequest {
            query: Some(query),
            filters,
            size: 10,
            highlight: Some(highlight),
            ..SearchRequest::default()
        };
        engine.search(&request).unwrap().hits.into_iter().map(|h| (h.uid, h.fragment)).collect()
    }

    #[test]
    fn each_object_is_found_by_the_stems_of_its_language_only() {
        let engine = TantivyEngine::open(None).unwrap();
        let doc = |uid: &str, language: &str, text: &str| IndexDoc {
            uid: uid.into(),
            paths: vec!["/Plone".into()],
            language: language.into(),
            searchable_text: text.into(),
            effective: i64::MIN,
            expires: i64::MAX,
            ..IndexDoc::default()
        };
        engine
            .index(&[
                doc("de", "de", "Die alten Häuser am See"),
                doc("fr", "fr", "Les maisons du lac"),
                doc("en", "en", "The houses by the lake"),
                doc("neutral", "", "Häuser ohne Sprache"),
            ])
            .unwrap();
        engine.commit(1).unwrap();
        let uids = |hits: Vec<(String, Option<String>)>| hits.into_iter().map(|(uid, _)| uid).collect::<Vec<_>>();
        assert_eq!(
            search(&engine, "maison", &["fr"]),
            [("fr".to_owned(), Some("Les <b>maisons</b> du lac".to_owned()))]
        );
        assert_eq!(uids(search(&engine, "maison", &[])), ["fr"], "no language asks every language");
        assert!(search(&engine, "maison", &["de"]).is_empty(), "German does not meet French stems");
        assert_eq!(uids(search(&engine, "house", &["en"])), ["en"]);
        assert!(search(&engine, "house", &["fr"]).is_empty());
        let mut german = uids(search(&engine, "haus", &[]));
        german.sort();
        assert_eq!(german, ["de", "neutral"], "content in no language is analysed in German");
        assert_eq!(uids(search(&engine, "haus", &["de"])), ["de"]);
        assert_eq!(
            engine.suggest("maisonz", &Filters { languages: vec!["fr".into()], ..Filters::default() }, 2, 3).unwrap()
                [0]
            .options[0]
                .text,
            "maison",
            "suggestions come from the language asked"
        );
    }
}
