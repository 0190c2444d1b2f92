//! The full-text queries of the query DSL: `match`, `match_phrase`, `match_phrase_prefix`,
//! `match_bool_prefix` and `multi_match`, with the options Elasticsearch reads on them:
//! `operator`, `minimum_should_match`, `analyzer` (the words analysed by another analyzer than
//! the field's), `fuzziness` and `zero_terms_query`.

use crate::dsl::{Analyzer, Kind, Mapping, QueryError, bm25, field, single};
use crate::dsl_fields::analysed_terms;
use crate::dsl_patterns::{Pattern, automaton};
use serde_json::Value;
use tantivy::Term;
use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, DisjunctionMaxQuery, EmptyQuery, FuzzyTermQuery, Occur, PhrasePrefixQuery,
    PhraseQuery, Query, TermQuery,
};
use tantivy::schema::IndexRecordOption;

/// The longest text of one `match`-like clause: every word becomes a term lookup.
const MAX_QUERY_TEXT: usize = 10_000;

/// How the words of one clause become a query.
#[derive(Default)]
struct Options {
    /// `operator: and`: every word is required.
    all: bool,
    /// `analyzer`: analyse the text so, not as the field does.
    analyzer: Option<Analyzer>,
    /// `fuzziness`: `None` for exact terms, `Some(None)` for `AUTO` (by word length).
    fuzziness: Option<Option<u8>>,
    /// `fuzzy_transpositions` (default true): a swap of two letters is one edit.
    transpositions: bool,
    /// `minimum_should_match`, as given.
    minimum: Option<Value>,
}

fn options(body: &Value) -> Result<Options, QueryError> {
    let analyzer = match body.get("analyzer").and_then(Value::as_str) {
        None => None,
        Some(name) => Some(
            Analyzer::named(name)
                .ok_or_else(|| QueryError::illegal(format!("failed to find analyzer [{name}]")).on_shard())?,
        ),
    };
    let fuzziness = match body.get("fuzziness") {
        None => None,
        Some(Value::String(auto)) if auto.to_ascii_uppercase().starts_with("AUTO") => Some(None),
        Some(value) => {
            let edits = value.as_u64().or_else(|| value.as_str()?.parse().ok());
            let edits = edits.ok_or_else(|| QueryError::parsing(format!("invalid fuzziness [{value}]")))?;
            Some(Some(u8::try_from(edits.min(2)).unwrap_or(2)))
        }
    };
    Ok(Options {
        all: body.get("operator").and_then(Value::as_str).is_some_and(|o| o.eq_ignore_ascii_case("and")),
        analyzer,
        fuzziness,
        transpositions: body.get("fuzzy_transpositions").and_then(Value::as_bool).unwrap_or(true),
        minimum: body.get("minimum_should_match").cloned(),
    })
}

/// The text of a clause: `{field: "text"}` or `{field: {query: "text", …}}`.
pub(crate) fn query_text(options: &Value) -> Result<String, QueryError> {
    let text = match options {
        Value::Object(map) => map.get("query").unwrap_or(&Value::Null),
        other => other,
    };
    match text {
        Value::String(s) if s.chars().count() > MAX_QUERY_TEXT => {
            Err(QueryError::illegal(format!("a query text is at most {MAX_QUERY_TEXT} characters")))
        }
        Value::String(s) => Ok(s.clone()),
        Value::Number(_) | Value::Bool(_) => Ok(text.to_string()),
        _ => Err(QueryError::parsing("a match needs a query text")),
    }
}

/// `{"match": {field: text | {query, operator, …}}}`.
pub fn match_query(fields: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let (name, settings) = single(body)?;
    let text = query_text(settings)?;
    let options = options(settings)?;
    let kind = field(fields, name)?;
    let terms = analysed_terms(&kind, &text, options.analyzer);
    // Only stop words: nothing, unless `zero_terms_query` asks for everything.
    if terms.is_empty() && settings.get("zero_terms_query").and_then(Value::as_str) == Some("all") {
        return Ok(Box::new(AllQuery));
    }
    words(terms.into_iter().map(|(_, t)| t).collect(), &options, false)
}

/// A term required or optional: a fuzzy lookup when fuzziness is asked for.
fn word(term: Term, options: &Options) -> Box<dyn Query> {
    let length = term.value().as_str().map_or(0, |w| w.chars().count());
    let edits = match options.fuzziness {
        None => 0,
        Some(Some(edits)) => edits,
        Some(None) => match length {
            0..=2 => 0,
            3..=5 => 1,
            _ => 2,
        },
    };
    if edits == 0 {
        return bm25(Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)));
    }
    Box::new(FuzzyTermQuery::new(term, edits, options.transpositions))
}

/// The words of a clause joined by its operator, the last one a prefix for `bool_prefix`.
fn words(terms: Vec<Term>, options: &Options, last_is_prefix: bool) -> Result<Box<dyn Query>, QueryError> {
    if terms.is_empty() {
        return Ok(Box::new(EmptyQuery));
    }
    let occur = if options.all { Occur::Must } else { Occur::Should };
    let count = terms.len();
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::with_capacity(count);
    for (index, term) in terms.into_iter().enumerate() {
        let query = match term.value().as_str() {
            Some(prefix) if last_is_prefix && index + 1 == count => {
                automaton(term.field(), prefix, Pattern::Prefix, false)?
            }
            _ => word(term, options),
        };
        clauses.push((occur, query));
    }
    match (&options.minimum, options.all) {
        (Some(minimum), false) => {
            let minimum = crate::dsl_values::minimum_should_match(minimum, count)?;
            Ok(Box::new(BooleanQuery::with_minimum_required_clauses(clauses, minimum)))
        }
        _ => Ok(Box::new(BooleanQuery::new(clauses))),
    }
}

/// `{"match_phrase": {field: text | {query, slop, analyzer}}}`.
pub fn match_phrase(fields: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let (name, settings) = single(body)?;
    let slop = settings.get("slop").and_then(Value::as_u64).unwrap_or(0);
    let analyzer = options(settings)?.analyzer;
    Ok(phrase(&field(fields, name)?, &query_text(settings)?, u32::try_from(slop).unwrap_or(0), analyzer))
}

fn phrase(kind: &Kind, text: &str, slop: u32, analyzer: Option<Analyzer>) -> Box<dyn Query> {
    let terms = analysed_terms(kind, text, analyzer);
    match terms.len() {
        0 => Box::new(EmptyQuery),
        1 => bm25(Box::new(TermQuery::new(terms[0].1.clone(), IndexRecordOption::WithFreqs))),
        _ => bm25(Box::new(PhraseQuery::new_with_offset_and_slop(terms, slop))),
    }
}

/// `{"match_phrase_prefix": {field: text | {query}}}`: the last word is a prefix.
pub fn match_phrase_prefix(fields: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let (name, settings) = single(body)?;
    let analyzer = options(settings)?.analyzer;
    Ok(phrase_prefix(&field(fields, name)?, &query_text(settings)?, analyzer))
}

fn phrase_prefix(kind: &Kind, text: &str, analyzer: Option<Analyzer>) -> Box<dyn Query> {
    let terms = analysed_terms(kind, text, analyzer);
    if terms.is_empty() {
        return Box::new(EmptyQuery);
    }
    let mut query = PhrasePrefixQuery::new_with_offset(terms);
    query.set_max_expansions(50);
    bm25(Box::new(query))
}

/// `{"match_bool_prefix": {field: text | {query, operator, …}}}`: every word a term, the last
/// a prefix (what a search-as-you-type box sends).
pub fn match_bool_prefix(fields: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let (name, settings) = single(body)?;
    let options = options(settings)?;
    let terms = analysed_terms(&field(fields, name)?, &query_text(settings)?, options.analyzer);
    words(terms.into_iter().map(|(_, t)| t).collect(), &options, true)
}

/// `{"multi_match": {query, fields, type, …}}`: `best_fields` (the best field's score),
/// `most_fields` (the fields' scores summed), `phrase`, `phrase_prefix` and `bool_prefix`.
pub fn multi_match(fields: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let text = query_text(body)?;
    let kind_of_match = body.get("type").and_then(Value::as_str).unwrap_or("best_fields");
    if !["best_fields", "most_fields", "phrase", "phrase_prefix", "bool_prefix"].contains(&kind_of_match) {
        return Err(QueryError::parsing(format!(
            "failed to parse [multi_match] query type [{kind_of_match}]. unknown type."
        )));
    }
    if kind_of_match == "bool_prefix" {
        for refused in ["slop", "cutoff_frequency"] {
            if body.get(refused).is_some() {
                return Err(QueryError::parsing(format!("[{refused}] not allowed for type [bool_prefix]")));
            }
        }
    }
    let options = options(body)?;
    let slop = u32::try_from(body.get("slop").and_then(Value::as_u64).unwrap_or(0)).unwrap_or(0);
    let names =
        body.get("fields").and_then(Value::as_array).ok_or_else(|| QueryError::parsing("multi_match needs fields"))?;
    let mut disjuncts: Vec<Box<dyn Query>> = Vec::new();
    let named = names.iter().filter_map(Value::as_str).flat_map(|name| {
        let (pattern, boost) = match name.split_once('^') {
            Some((pattern, boost)) => (pattern, boost.parse::<f32>().unwrap_or(1.0)),
            None => (name, 1.0),
        };
        crate::dsl_fields::expand(fields, pattern).into_iter().map(move |name| (name, boost))
    });
    let named: Vec<(String, f32)> = named.collect();
    // Every word is asked in every field.
    if text.split_whitespace().count().saturating_mul(named.len()) > crate::dsl::MAX_CLAUSES {
        return Err(crate::dsl::too_many_clauses());
    }
    for (name, boost) in named {
        let kind = field(fields, &name)?;
        let query = match kind_of_match {
            "phrase" => phrase(&kind, &text, slop, options.analyzer),
            "phrase_prefix" => phrase_prefix(&kind, &text, options.analyzer),
            other => {
                let terms = analysed_terms(&kind, &text, options.analyzer).into_iter().map(|(_, t)| t).collect();
                words(terms, &options, other == "bool_prefix")?
            }
        };
        disjuncts.push(Box::new(BoostQuery::new(query, boost)));
    }
    if kind_of_match == "most_fields" {
        return Ok(Box::new(BooleanQuery::new(disjuncts.into_iter().map(|q| (Occur::Should, q)).collect())));
    }
    Ok(Box::new(DisjunctionMaxQuery::new(disjuncts)))
}
