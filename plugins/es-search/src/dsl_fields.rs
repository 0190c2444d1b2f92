//! What the query DSL's field names mean in an index: the site index's fixed fields, the
//! custom fields (`wcs.backend.search.custom_fields`), or a declared mapping's fields, each with
//! how its values become terms.

use crate::analysis::german;
use crate::declared::{Declared, DeclaredField, DeclaredType};
use crate::query_error::QueryError;
use crate::schema::Fields;
use crate::text_languages::TextLanguage;
use serde_json::Value;
use std::collections::BTreeMap;
use tantivy::Term;
use tantivy::schema::Field;
use tantivy::tokenizer::TokenStream;

/// A field as the DSL names it: full-text (German analysis), keyword, date (seconds), or one
/// of the custom fields (`wcs.backend.search.custom_fields`), kept under their name in a JSON
/// field.
#[derive(Clone)]
pub(crate) enum Kind {
    Text(Field, Analyzer),
    Keyword(Field),
    Date(Field),
    CustomText(Field, String),
    CustomKeyword(Field, String),
    CustomTyped(Field, String, CustomKind),
    /// A number, boolean or date field of a declared mapping (`wcs search eval`).
    Typed(DeclaredField),
    /// A field the index does not have: it matches nothing.
    Unmapped,
}

/// How a full-text field's words are analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Analyzer {
    /// Elasticsearch's `standard` analyzer (the default of a declared mapping's text fields).
    Standard,
    /// `whitespace`: words between spaces, as written.
    Whitespace,
    /// `keyword`: the whole text as one term.
    Keyword,
    /// A language's analysis: the site index's text fields (German in the unsuffixed ones,
    /// French, Italian and English in their own) and a declared mapping's `german` fields.
    Language(TextLanguage),
}

impl Analyzer {
    /// The German analysis, of the site index's unsuffixed text fields.
    pub const GERMAN: Analyzer = Analyzer::Language(TextLanguage::German);

    /// The analyzer Elasticsearch calls `name` (in a mapping, or a query's `analyzer`), if it
    /// is one the engine has.
    pub fn named(name: &str) -> Option<Analyzer> {
        Some(match name {
            "standard" | "default" | "simple" => Analyzer::Standard,
            "whitespace" => Analyzer::Whitespace,
            "keyword" => Analyzer::Keyword,
            other => Analyzer::Language(TextLanguage::ALL.into_iter().find(|l| l.elasticsearch_analyzer() == other)?),
        })
    }

    /// The name it is registered under in an index.
    pub fn name(self) -> &'static str {
        match self {
            Analyzer::Standard => crate::standard_analysis::STANDARD,
            Analyzer::Whitespace => crate::standard_analysis::WHITESPACE,
            Analyzer::Keyword => "raw",
            Analyzer::Language(language) => language.analyzer_name(),
        }
    }

    /// The analyzer.
    pub fn analyzer(self) -> tantivy::tokenizer::TextAnalyzer {
        match self {
            Analyzer::Standard => crate::standard_analysis::standard(),
            Analyzer::Whitespace => crate::standard_analysis::whitespace(),
            Analyzer::Keyword => tantivy::tokenizer::TextAnalyzer::from(tantivy::tokenizer::RawTokenizer::default()),
            Analyzer::Language(language) => language.analyzer(),
        }
    }

    /// `text` as the analyzer normalises a term it does not split (Lucene's `normalize`:
    /// lowercased, and German spelling folded for German), for wildcard terms.
    pub fn normalize(self, text: &str) -> String {
        match self {
            Analyzer::Whitespace | Analyzer::Keyword => text.to_owned(),
            Analyzer::Language(TextLanguage::German) => crate::analysis::normalize(&text.to_lowercase()),
            Analyzer::Standard | Analyzer::Language(_) => text.to_lowercase(),
        }
    }
}

/// How the custom fields are indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomKind {
    /// Words, with German analysis.
    Text,
    /// Whole values (tags, codes).
    Keyword,
    /// Whole numbers (`integer`, `long`).
    Integer,
    /// Numbers (`float`, `double`).
    Float,
    /// true or false.
    Boolean,
    /// Dates (ISO 8601 or seconds), kept to the second.
    Date,
}

/// The custom fields by name (`wcs.backend.search.custom_fields`: `{name: {"type": "text" |
/// "keyword"}}`).
pub type CustomFields = BTreeMap<String, CustomKind>;

/// Reads the custom fields record; entries of another shape are left out.
pub fn custom_fields(record: &Value) -> CustomFields {
    record
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, spec)| {
            let kind = match spec.get("type").and_then(Value::as_str) {
                Some("text") => CustomKind::Text,
                Some("keyword") => CustomKind::Keyword,
                Some("integer" | "long") => CustomKind::Integer,
                Some("float" | "double") => CustomKind::Float,
                Some("boolean") => CustomKind::Boolean,
                Some("date") => CustomKind::Date,
                _ => return None,
            };
            Some((name.clone(), kind))
        })
        .collect()
}

/// What the DSL's field names mean: the fixed fields and the custom ones.
pub struct Mapping<'a> {
    /// The fixed fields.
    pub fields: &'a Fields,
    /// The custom fields.
    pub custom: &'a CustomFields,
    /// Whether a field the index lacks matches nothing (as in Elasticsearch, for raw queries)
    /// rather than being an error (for settings, where it is a mistake to report).
    pub unmapped_matches_nothing: bool,
    /// The fields of a declared mapping (`wcs search eval`): when given, the only names known,
    /// with the index's schema (which `query_string` parses against).
    pub declared: Option<(&'a Declared, &'a tantivy::schema::Schema)>,
}

pub(crate) fn field(mapping: &Mapping<'_>, name: &str) -> Result<Kind, QueryError> {
    let fields = mapping.fields;
    if let Some((declared, _)) = mapping.declared {
        return Ok(match declared.get(name) {
            Some(d) => match d.kind {
                DeclaredType::Text(analyzer) => Kind::Text(d.field, analyzer),
                DeclaredType::Completion => Kind::Text(d.field, Analyzer::Standard),
                DeclaredType::Keyword => Kind::Keyword(d.field),
                _ => Kind::Typed(d.clone()),
            },
            None if name == "_id" => Kind::Keyword(fields.uid),
            None => Kind::Unmapped,
        });
    }
    if let Some(kind) = mapping.custom.get(name) {
        return Ok(match kind {
            CustomKind::Text => Kind::CustomText(fields.custom_text, name.to_owned()),
            CustomKind::Keyword => Kind::CustomKeyword(fields.custom_keyword, name.to_owned()),
            typed => Kind::CustomTyped(fields.custom_keyword, name.to_owned(), *typed),
        });
    }
    Ok(match name {
        "SearchableText" => Kind::Text(fields.searchable_text, Analyzer::GERMAN),
        "Title" | "title" => Kind::Text(fields.title, Analyzer::GERMAN),
        "Description" | "description" => Kind::Text(fields.description, Analyzer::GERMAN),
        "portal_type" => Kind::Keyword(fields.portal_type),
        "review_state" => Kind::Keyword(fields.review_state),
        "Subject" => Kind::Keyword(fields.subject),
        "path" => Kind::Keyword(fields.path),
        "UID" => Kind::Keyword(fields.uid),
        "allowedRolesAndUsers" => Kind::Keyword(fields.allowed),
        "Language" => Kind::Keyword(fields.language),
        "created" => Kind::Date(fields.created),
        "modified" => Kind::Date(fields.modified),
        "effective" => Kind::Date(fields.effective),
        "expires" => Kind::Date(fields.expires),
        localized if let Some((language, field)) = TextLanguage::of_field(localized) => {
            let [title, description, text] = fields.text_fields(language);
            let analysed = match field {
                "Title" => title,
                "Description" => description,
                _ => text,
            };
            Kind::Text(analysed, Analyzer::Language(language))
        }
        _ if mapping.unmapped_matches_nothing => Kind::Unmapped,
        other => return Err(QueryError::parsing(format!("unknown field '{other}'"))),
    })
}

/// The terms of `text` in `field`: analysed for full-text fields, as they are for keywords.
pub(crate) fn terms(kind: &Kind, text: &str) -> Vec<(usize, Term)> {
    analysed_terms(kind, text, None)
}

/// [`terms`], with full-text words analysed by `analyzer` instead of the field's own when one
/// is given (a query's `analyzer`).
pub(crate) fn analysed_terms(kind: &Kind, text: &str, analyzer: Option<Analyzer>) -> Vec<(usize, Term)> {
    let analysed = |make: &dyn Fn(&str) -> Term| {
        let mut analyzer = match (analyzer, kind) {
            (Some(chosen), _) => chosen.analyzer(),
            (None, Kind::Text(_, analyzer)) => analyzer.analyzer(),
            _ => german(),
        };
        let mut stream = analyzer.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            let token = stream.token();
            out.push((token.position, make(&token.text)));
        }
        out
    };
    let in_json = |field: Field, path: &str, value: &str| {
        let mut term = Term::from_field_json_path(field, path, false);
        term.append_type_and_str(value);
        term
    };
    match kind {
        Kind::Text(field, _) => analysed(&|t| Term::from_field_text(*field, t)),
        Kind::Keyword(field) => vec![(0, Term::from_field_text(*field, text))],
        Kind::CustomText(field, path) => analysed(&|t| in_json(*field, path, t)),
        Kind::CustomKeyword(field, path) => vec![(0, in_json(*field, path, text))],
        Kind::CustomTyped(field, path, typed) => {
            crate::dsl_values::typed_term(*field, path, *typed, &Value::String(text.to_owned()))
                .into_iter()
                .map(|t| (0, t))
                .collect()
        }
        Kind::Typed(declared) => {
            crate::declared::term(declared, &Value::String(text.to_owned())).into_iter().map(|t| (0, t)).collect()
        }
        Kind::Date(_) | Kind::Unmapped => Vec::new(),
    }
}

/// The fields a name of a query's `fields` stands for: itself, or, for a pattern (`text*`, `*`),
/// every full-text field whose name it matches.
pub(crate) fn expand(mapping: &Mapping<'_>, pattern: &str) -> Vec<String> {
    if !pattern.contains('*') {
        return vec![pattern.to_owned()];
    }
    let matches = |name: &str| crate::engine::glob(pattern, name);
    match mapping.declared {
        Some((declared, _)) => declared
            .iter()
            .filter(|(name, d)| matches!(d.kind, DeclaredType::Text(_)) && matches(name))
            .map(|(name, _)| name.clone())
            .collect(),
        None => {
            ["SearchableText", "Title", "Description"].into_iter().filter(|n| matches(n)).map(str::to_owned).collect()
        }
    }
}
