//! Elasticsearch's query DSL translated to tantivy queries, for search patterns, filter records
//! and `@raw-es-search`: `bool` (with `minimum_should_match`; `filter` clauses score nothing),
//! `constant_score`, `dis_max`, `match`, `match_phrase`, `match_phrase_prefix`,
//! `match_bool_prefix`, `multi_match`, `term`, `terms`, `range`, `exists`, `prefix`, `wildcard`,
//! `regexp`, `ids`, `query_string`, `simple_query_string`, `match_all`, `match_none`, and
//! `boost` on any of them. Relevance is
//! BM25 scaled to Elasticsearch's scores. Everything else is refused in Elasticsearch's words.

pub use crate::dsl_fields::{Analyzer, CustomFields, CustomKind, Mapping, custom_fields};
pub(crate) use crate::dsl_fields::{Kind, field, terms};
use crate::dsl_patterns::Pattern;
pub use crate::query_error::QueryError;
use crate::{dsl_match, dsl_patterns, dsl_query_string, dsl_simple_query, dsl_values};
use serde_json::{Map, Value};
use tantivy::Term;
use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, EmptyQuery, Occur, Query, TermQuery,
    TermSetQuery,
};
use tantivy::schema::IndexRecordOption;

/// The most term clauses one query text may make over all its fields (Elasticsearch's
/// `indices.query.bool.max_clause_count`): a text's words times the fields they are asked in.
pub(crate) const MAX_CLAUSES: usize = 4_096;

/// Elasticsearch's refusal of a query with more clauses than [`MAX_CLAUSES`].
pub(crate) fn too_many_clauses() -> QueryError {
    QueryError::illegal(format!("maxClauseCount is set to {MAX_CLAUSES}")).on_shard()
}

/// How deep clauses may nest (a bound on what a record can make a search do).
const MAX_DEPTH: usize = 16;

/// tantivy's BM25 multiplies each term's weight by `k1 + 1` (2.2), a constant Lucene dropped in
/// version 8; scaling it back gives the scores Elasticsearch gives.
const LUCENE_BM25: f32 = 1.0 / 2.2;

/// A relevance-scored (BM25) query, scaled to Elasticsearch's scores.
pub(crate) fn bm25(query: Box<dyn Query>) -> Box<dyn Query> {
    Box::new(BoostQuery::new(query, LUCENE_BM25))
}

/// Up to this many terms, a term set is a disjunction of term queries.
const SMALL_TERM_SET: usize = 64;

/// Documents holding any of `terms`, adding nothing to the score (a filter). A small set (the
/// usual case: a caller's few security tokens, a type or two) is a disjunction of term lookups;
/// tantivy's term set query builds an automaton first, which costs more than the whole search.
pub fn any_term(terms: Vec<Term>) -> Box<dyn Query> {
    if terms.len() > SMALL_TERM_SET {
        return Box::new(TermSetQuery::new(terms));
    }
    let lookups = terms
        .into_iter()
        .map(|term| (Occur::Should, Box::new(TermQuery::new(term, IndexRecordOption::Basic)) as Box<dyn Query>))
        .collect();
    Box::new(ConstScoreQuery::new(Box::new(BooleanQuery::new(lookups)), 0.0))
}

/// Translates one clause.
pub fn translate(mapping: &Mapping<'_>, clause: &Value) -> Result<Box<dyn Query>, QueryError> {
    translate_at(mapping, clause, 0)
}

fn translate_at(fields: &Mapping<'_>, clause: &Value, depth: usize) -> Result<Box<dyn Query>, QueryError> {
    if depth > MAX_DEPTH {
        return Err(QueryError::parsing(format!("clauses nest deeper than {MAX_DEPTH}")));
    }
    let object = clause.as_object().ok_or_else(|| QueryError::parsing("a clause is an object with one key"))?;
    if object.len() > 1 {
        // Elasticsearch's AbstractQueryBuilder.parseInnerQueryBuilder, word for word: clients
        // and tests match this text.
        let first = object.keys().next().map(String::as_str).unwrap_or_default();
        return Err(QueryError::parsing(format!(
            "[{first}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]"
        )));
    }
    let (name, body) = object.iter().next().ok_or_else(|| QueryError::parsing("an empty clause"))?;
    let query: Box<dyn Query> = match name.as_str() {
        "bool" => boolean(fields, body, depth)?,
        "match" => dsl_match::match_query(fields, body)?,
        "match_phrase" => dsl_match::match_phrase(fields, body)?,
        "match_phrase_prefix" => dsl_match::match_phrase_prefix(fields, body)?,
        "match_bool_prefix" => dsl_match::match_bool_prefix(fields, body)?,
        "multi_match" => dsl_match::multi_match(fields, body)?,
        "term" => term(fields, body)?,
        "terms" => {
            let (field_name, values) = single(body)?;
            let values = values
                .as_array()
                .ok_or_else(|| QueryError::parsing(format!("[terms] query does not support [{field_name}]")))?;
            let kind = field(fields, field_name)?;
            let mut found = Vec::with_capacity(values.len());
            for value in values {
                let text = value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_string());
                match &kind {
                    // Not analysed: the value meets the indexed words as it is.
                    Kind::Text(f, _) => found.push(Term::from_field_text(*f, &text)),
                    Kind::Date(_) => {
                        return Err(QueryError::parsing(format!("terms needs a keyword field, not '{field_name}'")));
                    }
                    other => found.extend(terms(other, &text).into_iter().map(|(_, t)| t)),
                }
            }
            // Elasticsearch scores a terms match 1 (times its boost).
            Box::new(ConstScoreQuery::new(any_term(found), 1.0))
        }
        "range" => dsl_values::range(fields, body)?,
        "constant_score" => {
            let filter = body
                .get("filter")
                .ok_or_else(|| QueryError::parsing("[constant_score] requires a 'filter' element"))?;
            let boost = body.get("boost").and_then(Value::as_f64).unwrap_or(1.0) as f32;
            return Ok(Box::new(ConstScoreQuery::new(translate_at(fields, filter, depth + 1)?, boost)));
        }
        "ids" => dsl_values::ids(fields, body)?,
        "query_string" => translate_at(fields, &dsl_query_string::to_dsl(fields, body)?, depth + 1)?,
        "dis_max" => dis_max(fields, body, depth)?,
        "simple_query_string" => translate_at(fields, &dsl_simple_query::to_dsl(fields, body)?, depth + 1)?,
        "match_none" => Box::new(EmptyQuery),
        "exists" => dsl_values::exists(fields, body)?,
        "prefix" => dsl_patterns::pattern(fields, body, Pattern::Prefix)?,
        "wildcard" => dsl_patterns::pattern(fields, body, Pattern::Wildcard)?,
        "regexp" => dsl_patterns::pattern(fields, body, Pattern::Regexp)?,
        "match_all" => Box::new(AllQuery),
        other => return Err(QueryError::parsing(format!("unknown query [{other}]"))),
    };
    let boost = body.as_object().and_then(|b| b.values().find_map(|v| v.get("boost"))).or_else(|| body.get("boost"));
    Ok(match boost.and_then(Value::as_f64) {
        Some(boost) => Box::new(BoostQuery::new(query, boost as f32)),
        None => query,
    })
}

/// `{field: options}` (or `{field: "text"}`).
pub(crate) fn single(body: &Value) -> Result<(&str, &Value), QueryError> {
    let object = body.as_object().ok_or_else(|| QueryError::parsing("expected {field: …}"))?;
    let (name, options) =
        object.iter().find(|(k, _)| k.as_str() != "boost").ok_or_else(|| QueryError::parsing("expected {field: …}"))?;
    Ok((name, options))
}

/// `{"dis_max": {"queries": [...], "tie_breaker"}}`: the best clause's score, plus the others'
/// times the tie breaker.
fn dis_max(fields: &Mapping<'_>, body: &Value, depth: usize) -> Result<Box<dyn Query>, QueryError> {
    let queries = body
        .get("queries")
        .and_then(Value::as_array)
        .ok_or_else(|| QueryError::parsing("[dis_max] requires 'queries' field with at least one clause"))?;
    let disjuncts = queries.iter().map(|q| translate_at(fields, q, depth + 1)).collect::<Result<Vec<_>, _>>()?;
    let tie_breaker = body.get("tie_breaker").and_then(Value::as_f64).unwrap_or(0.0) as f32;
    Ok(Box::new(DisjunctionMaxQuery::with_tie_breaker(disjuncts, tie_breaker)))
}

/// `{"term": {field: value | {value, case_insensitive}}}`: the value as the index holds it.
fn term(fields: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let (field_name, options) = single(body)?;
    let value = options.get("value").unwrap_or(options);
    let value = value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_string());
    let kind = field(fields, field_name)?;
    if options.get("case_insensitive").and_then(Value::as_bool) == Some(true)
        && let Kind::Keyword(f) = kind
    {
        let exact = crate::dsl_patterns::automaton(f, &regex::escape(&value), Pattern::Regexp, true)?;
        return Ok(Box::new(ConstScoreQuery::new(exact, 1.0)));
    }
    let terms = terms(&kind, &value);
    if terms.is_empty() {
        return Ok(Box::new(EmptyQuery));
    }
    let lookups =
        terms.into_iter().map(|(_, t)| (Occur::Must, bm25(Box::new(TermQuery::new(t, IndexRecordOption::WithFreqs)))));
    Ok(Box::new(BooleanQuery::new(lookups.collect())))
}

fn boolean(fields: &Mapping<'_>, body: &Value, depth: usize) -> Result<Box<dyn Query>, QueryError> {
    let object = body.as_object().ok_or_else(|| QueryError::parsing("bool takes an object"))?;
    let clauses = |key: &str| -> Vec<&Value> {
        match object.get(key) {
            Some(Value::Array(items)) => items.iter().collect(),
            Some(item) => vec![item],
            None => Vec::new(),
        }
    };
    let required = !clauses("must").is_empty() || !clauses("filter").is_empty();
    let mut subqueries: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for (key, occur) in
        [("must", Occur::Must), ("filter", Occur::Must), ("must_not", Occur::MustNot), ("should", Occur::Should)]
    {
        for clause in clauses(key) {
            let query = translate_at(fields, clause, depth + 1)?;
            // Filters (and exclusions) only select, as in Elasticsearch's filter context.
            let query: Box<dyn Query> =
                if key == "filter" { Box::new(ConstScoreQuery::new(query, 0.0)) } else { query };
            subqueries.push((occur, query));
        }
    }
    let should = clauses("should").len();
    if let Some(minimum) = object.get("minimum_should_match") {
        let minimum = dsl_values::minimum_should_match(minimum, should)?;
        return Ok(Box::new(BooleanQuery::with_minimum_required_clauses(subqueries, minimum)));
    }
    if required || subqueries.iter().any(|(o, _)| *o != Occur::MustNot) {
        Ok(Box::new(BooleanQuery::new(subqueries)))
    } else {
        // Only exclusions: everything else.
        subqueries.push((Occur::Must, Box::new(AllQuery)));
        Ok(Box::new(BooleanQuery::new(subqueries)))
    }
}

/// Replaces every string that is (or contains) `placeholder` with `text`, at the JSON level,
/// so user input can never change the query's structure.
pub fn substitute(template: &Value, placeholder: &str, text: &str) -> Value {
    match template {
        Value::String(s) if s.contains(placeholder) => Value::String(s.replace(placeholder, text)),
        Value::Array(items) => Value::Array(items.iter().map(|v| substitute(v, placeholder, text)).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), substitute(v, placeholder, text))).collect::<Map<_, _>>())
        }
        other => other.clone(),
    }
}
