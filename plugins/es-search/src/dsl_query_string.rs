//! `query_string`: Lucene's query syntax (`Title:garten AND NOT portal_type:Folder`, phrases,
//! `+`/`-`, ranges, boosts), parsed by tantivy's query parser with the index's own analysis, so
//! German word forms meet as they do everywhere else. Field names in the text are the index's
//! (`Title`, `Description`, `SearchableText`, `portal_type`, `review_state`, `Subject`, …).

use crate::analysis::{GERMAN, german};
use crate::dsl::{Kind, Mapping, QueryError, field};
use crate::schema::schema;
use crate::standard_analysis::{STANDARD, standard};
use serde_json::Value;
use std::sync::LazyLock;
use tantivy::query::{AllQuery, BooleanQuery, Occur, Query, QueryParser};
use tantivy::schema::{Field, Schema};
use tantivy::tokenizer::TokenizerManager;

/// The longest query text, in bytes.
const MAX_QUERY: usize = 4_096;

/// The schema and analyzers the parser needs, built once.
static PARSING: LazyLock<(Schema, TokenizerManager)> = LazyLock::new(|| {
    let tokenizers = TokenizerManager::default();
    tokenizers.register(GERMAN, german());
    tokenizers.register(STANDARD, standard());
    (schema().0, tokenizers)
});

/// `{"query_string": {"query", "default_field" | "fields", "default_operator"}}`.
pub fn query_string(mapping: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let text = body
        .get("query")
        .and_then(Value::as_str)
        .ok_or_else(|| QueryError::parsing("[query_string] requires 'query'"))?;
    if text.len() > MAX_QUERY {
        return Err(QueryError::illegal(format!("the query is longer than {MAX_QUERY} bytes")));
    }
    let named: Vec<&str> =
        match (body.get("fields").and_then(Value::as_array), body.get("default_field").and_then(Value::as_str)) {
            (Some(fields), _) => fields.iter().filter_map(Value::as_str).collect(),
            (None, Some(one)) => vec![one],
            (None, None) => vec!["*"],
        };
    let mut defaults: Vec<(Field, f32)> = Vec::new();
    for name in named {
        let (name, boost) = match name.split_once('^') {
            Some((name, boost)) => (name, boost.parse::<f32>().unwrap_or(1.0)),
            None => (name, 1.0),
        };
        if name == "*" {
            match mapping.declared {
                // Every full-text field of a declared mapping (`index.query.default_field: *`).
                Some((declared, _)) => defaults.extend(
                    declared
                        .values()
                        .filter(|d| matches!(d.kind, crate::declared::DeclaredType::Text(_)))
                        .map(|d| (d.field, 1.0)),
                ),
                None => {
                    let f = mapping.fields;
                    defaults.extend([(f.searchable_text, 1.0), (f.title, 1.0), (f.description, 1.0)]);
                }
            }
            continue;
        }
        match field(mapping, name)? {
            Kind::Text(f, _) | Kind::Keyword(f) | Kind::Date(f) => defaults.push((f, boost)),
            Kind::Unmapped => {}
            _ => {
                return Err(QueryError::illegal(format!(
                    "[query_string] cannot search custom field [{name}] by default"
                )));
            }
        }
    }
    let (site_schema, tokenizers) = &*PARSING;
    let schema = mapping.declared.map_or(site_schema, |(_, schema)| schema);
    let mut parser = QueryParser::new(schema.clone(), defaults.iter().map(|(f, _)| *f).collect(), tokenizers.clone());
    for (f, boost) in defaults {
        parser.set_field_boost(f, boost);
    }
    if body.get("default_operator").and_then(Value::as_str).is_some_and(|o| o.eq_ignore_ascii_case("and")) {
        parser.set_conjunction_by_default();
    }
    let query =
        parser.parse_query(text).map_err(|e| QueryError::shard(format!("Failed to parse query [{text}]: {e}")))?;
    Ok(crate::dsl::bm25(with_negations_meant(query)))
}

/// tantivy's parser turns `a AND NOT b` into `+a +(-b)`, and a clause of exclusions alone
/// matches nothing there; in Lucene it means "everything but". So every such clause gets
/// "everything" to exclude from, at any depth.
fn with_negations_meant(query: Box<dyn Query>) -> Box<dyn Query> {
    let Some(boolean) = query.downcast_ref::<BooleanQuery>() else { return query };
    let mut clauses: Vec<(Occur, Box<dyn Query>)> =
        boolean.clauses().iter().map(|(occur, sub)| (*occur, with_negations_meant(sub.box_clone()))).collect();
    if !clauses.is_empty() && clauses.iter().all(|(occur, _)| *occur == Occur::MustNot) {
        clauses.push((Occur::Must, Box::new(AllQuery)));
    }
    Box::new(BooleanQuery::new(clauses))
}
