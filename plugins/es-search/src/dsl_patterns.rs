//! Term-level pattern queries of the query DSL: `prefix`, `wildcard` and `regexp`, with
//! `case_insensitive`, and the wildcard terms of `query_string`. Patterns are matched against
//! whole indexed terms by an automaton, as Lucene does. On a full-text field a wildcard pattern
//! is normalised as the field's analyzer normalises (lowercased, German spelling folded) but
//! not stemmed, so `BA*` finds `bar`; a prefix or regular expression is taken as written.

use crate::dsl::{Kind, Mapping, QueryError, field, single};
use serde_json::Value;
use tantivy::query::{ConstScoreQuery, EmptyQuery, Query, RegexQuery};
use tantivy::schema::Field;

/// The longest pattern, in bytes (each becomes an automaton).
pub const MAX_PATTERN: usize = 256;

/// What a whole-value pattern is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// The value starts with the text.
    Prefix,
    /// `*` any characters, `?` one.
    Wildcard,
    /// A regular expression over the whole value.
    Regexp,
}

impl Pattern {
    fn name(self) -> &'static str {
        match self {
            Pattern::Prefix => "prefix",
            Pattern::Wildcard => "wildcard",
            Pattern::Regexp => "regexp",
        }
    }
}

/// `{"prefix" | "wildcard" | "regexp": {field: value | {value, case_insensitive}}}`, scored 1
/// (Elasticsearch's constant-score rewrite).
pub fn pattern(mapping: &Mapping<'_>, body: &Value, kind: Pattern) -> Result<Box<dyn Query>, QueryError> {
    let (name, options) = single(body)?;
    let value = options.get("value").or_else(|| options.get("wildcard")).unwrap_or(options);
    let value = value.as_str().ok_or_else(|| {
        QueryError::parsing(format!("[{}] query malformed, no start_object after query name", kind.name()))
    })?;
    let case_insensitive = options.get("case_insensitive").and_then(Value::as_bool).unwrap_or(false);
    let (f, normalise) = match field(mapping, name)? {
        // On a full-text field the pattern meets the indexed words, as in Elasticsearch.
        Kind::Text(f, analyzer) => (f, Some(analyzer)),
        Kind::Keyword(f) => (f, None),
        Kind::Unmapped => return Ok(Box::new(EmptyQuery)),
        _ => {
            return Err(QueryError::illegal(format!(
                "Can only use {} queries on keyword and text fields - not on [{name}]",
                kind.name()
            ))
            .on_shard());
        }
    };
    let value = match normalise {
        Some(analyzer) if kind == Pattern::Wildcard => analyzer.normalize(value),
        _ => value.to_owned(),
    };
    Ok(Box::new(ConstScoreQuery::new(automaton(f, &value, kind, case_insensitive)?, 1.0)))
}

/// The query of the terms of `f` that `value` matches as a pattern of `kind`.
pub fn automaton(f: Field, value: &str, kind: Pattern, case_insensitive: bool) -> Result<Box<dyn Query>, QueryError> {
    if value.len() > MAX_PATTERN {
        return Err(QueryError::illegal(format!("the pattern is longer than {MAX_PATTERN} bytes")));
    }
    let mut regex = String::from(if case_insensitive { "(?i)" } else { "" });
    match kind {
        Pattern::Prefix => regex.push_str(&format!("{}.*", regex::escape(value))),
        Pattern::Wildcard => regex.push_str(&wildcard_regex(value)),
        Pattern::Regexp => regex.push_str(value),
    }
    let query = RegexQuery::from_pattern(&regex, f).map_err(|e| QueryError::parsing(format!("[regexp] {e}")))?;
    Ok(Box::new(query))
}

/// Lucene's wildcard syntax as a regular expression: `*` any run, `?` one character, `\`
/// escapes the next one.
fn wildcard_regex(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            '\\' => out.push_str(&regex::escape(&chars.next().map(String::from).unwrap_or_default())),
            other => out.push_str(&regex::escape(&other.to_string())),
        }
    }
    out
}

/// Whether a `query_string` term is a wildcard term (`foo*`, `f?o`), which tantivy's parser
/// does not read.
pub fn is_wildcard_term(term: &str) -> bool {
    let mut escaped = false;
    term.chars().any(|c| {
        let wild = !escaped && (c == '*' || c == '?');
        escaped = !escaped && c == '\\';
        wild
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_become_anchored_expressions() {
        assert_eq!(wildcard_regex("ba*"), "ba.*");
        assert_eq!(wildcard_regex("f?o\\*"), "f.o\\*");
        assert!(is_wildcard_term("shor*") && is_wildcard_term("f?o") && !is_wildcard_term("a\\*b"));
    }
}
