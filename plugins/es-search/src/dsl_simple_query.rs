//! `simple_query_string`: the forgiving syntax of search boxes. Words, `"phrases"`, `word*`
//! prefixes, `-excluded`, `+` (and), `|` (or) and `( … )` groups; whitespace means
//! `default_operator` (`or` unless told otherwise). It never fails on syntax: stray quotes,
//! brackets and operators count as text or are dropped, as in Elasticsearch. The expression
//! becomes the query DSL over `fields` (default: SearchableText), which `dsl` translates.

use crate::dsl::QueryError;
use serde_json::{Value, json};

/// The longest query text, in bytes.
const MAX_QUERY: usize = 4_096;
/// How deep brackets may nest.
const MAX_DEPTH: usize = 16;

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Phrase(String),
    Open,
    Close,
    And,
    Or,
    Not,
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '(' => out.push(Token::Open),
            ')' => out.push(Token::Close),
            '+' => out.push(Token::And),
            '|' => out.push(Token::Or),
            '-' if chars.peek().is_some_and(|n| !n.is_whitespace()) => out.push(Token::Not),
            '"' => {
                let phrase: String = chars.by_ref().take_while(|c| *c != '"').collect();
                out.push(Token::Phrase(phrase));
            }
            c => {
                let mut word = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || "()|+\"".contains(n) {
                        break;
                    }
                    word.push(n);
                    chars.next();
                }
                out.push(Token::Word(word));
            }
        }
    }
    out
}

/// `{"simple_query_string": {"query", "fields", "default_operator"}}` as query DSL.
pub fn to_dsl(body: &Value) -> Result<Value, QueryError> {
    let text = body
        .get("query")
        .and_then(Value::as_str)
        .ok_or_else(|| QueryError::parsing("[simple_query_string] requires 'query'"))?;
    if text.len() > MAX_QUERY {
        return Err(QueryError::illegal(format!("the query is longer than {MAX_QUERY} bytes")));
    }
    let fields: Vec<Value> = match body.get("fields").and_then(Value::as_array) {
        Some(fields) if !fields.is_empty() => fields.clone(),
        _ => vec![json!("SearchableText")],
    };
    let and = body.get("default_operator").and_then(Value::as_str).is_some_and(|o| o.eq_ignore_ascii_case("and"));
    let tokens = tokens(text);
    let mut at = 0;
    Ok(group(&tokens, &mut at, &Context { fields: &fields, and }, 0))
}

struct Context<'a> {
    fields: &'a [Value],
    and: bool,
}

/// A sequence up to a closing bracket (or the end): `|` separates alternatives, within which
/// terms are joined by `+` or the default operator.
fn group(tokens: &[Token], at: &mut usize, context: &Context<'_>, depth: usize) -> Value {
    let mut alternatives: Vec<Vec<(bool, bool, Value)>> = vec![Vec::new()];
    let mut negate = false;
    let mut forced_and = false;
    while let Some(token) = tokens.get(*at) {
        *at += 1;
        let clause = match token {
            Token::Close => break,
            Token::Or => {
                alternatives.push(Vec::new());
                continue;
            }
            Token::And => {
                forced_and = true;
                continue;
            }
            Token::Not => {
                negate = true;
                continue;
            }
            Token::Open if depth < MAX_DEPTH => group(tokens, at, context, depth + 1),
            Token::Open => continue,
            Token::Word(word) => term(word, context),
            Token::Phrase(phrase) => {
                json!({"multi_match": {"query": phrase, "type": "phrase", "fields": context.fields}})
            }
        };
        if let Some(current) = alternatives.last_mut() {
            current.push((std::mem::take(&mut negate), std::mem::take(&mut forced_and), clause));
        }
    }
    let parts: Vec<Value> =
        alternatives.into_iter().filter(|a| !a.is_empty()).map(|a| conjunction(a, context)).collect();
    match parts.len() {
        0 => json!({"match_none": {}}),
        1 => parts.into_iter().next().unwrap_or(Value::Null),
        _ => json!({"bool": {"should": parts, "minimum_should_match": 1}}),
    }
}

/// Terms of one alternative: required ones (`+`, or all with `and`), optional ones, excluded.
fn conjunction(clauses: Vec<(bool, bool, Value)>, context: &Context<'_>) -> Value {
    let (mut must, mut should, mut must_not) = (Vec::new(), Vec::new(), Vec::new());
    for (negated, forced, clause) in clauses {
        if negated {
            must_not.push(clause);
        } else if context.and || forced {
            must.push(clause);
        } else {
            should.push(clause);
        }
    }
    // `a + b`: the `+` binds the term before it too.
    if !must.is_empty() && !context.and && should.len() == 1 && must.len() == 1 {
        must.append(&mut should);
    }
    let mut bool_query = serde_json::Map::new();
    let minimum = if must.is_empty() && !should.is_empty() { 1 } else { 0 };
    for (key, list) in [("must", must), ("should", should), ("must_not", must_not)] {
        if !list.is_empty() {
            bool_query.insert(key.into(), Value::Array(list));
        }
    }
    if minimum > 0 {
        bool_query.insert("minimum_should_match".into(), json!(minimum));
    }
    json!({"bool": bool_query})
}

fn term(word: &str, context: &Context<'_>) -> Value {
    match word.strip_suffix('*') {
        Some(stem) if !stem.is_empty() => {
            json!({"multi_match": {"query": stem, "type": "bool_prefix", "fields": context.fields}})
        }
        _ => json!({"multi_match": {"query": word.trim_end_matches('*'), "fields": context.fields}}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_syntax_reads_forgivingly() {
        let dsl = |q: &str| to_dsl(&json!({"query": q})).ok();
        let word = |w: &str| json!({"multi_match": {"query": w, "fields": ["SearchableText"]}});
        assert_eq!(dsl("Rosen"), Some(json!({"bool": {"should": [word("Rosen")], "minimum_should_match": 1}})));
        assert_eq!(
            dsl("Rosen -Tulpen"),
            Some(json!({"bool": {"should": [word("Rosen")], "must_not": [word("Tulpen")], "minimum_should_match": 1}}))
        );
        assert_eq!(dsl("Rosen + Garten"), Some(json!({"bool": {"must": [word("Garten"), word("Rosen")]}})));
        let or = dsl("Rosen | Tulpen").unwrap_or_default();
        assert_eq!(or["bool"]["should"].as_array().map(Vec::len), Some(2));
        for broken in ["\"offen", "((Rosen", "Rosen)", "| + -", ""] {
            assert!(dsl(broken).is_some(), "{broken}");
        }
    }
}
