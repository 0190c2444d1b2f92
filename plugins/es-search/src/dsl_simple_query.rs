//! `simple_query_string`: the forgiving syntax of search boxes, read as Lucene's
//! `SimpleQueryParser` reads it. Words, `"phrases"~slop`, `word*` prefixes, `word~N` fuzzy
//! words, `-` (not), `+` (and), `|` (or) and `( … )` groups; whitespace means
//! `default_operator` (`or` unless told otherwise). Operators apply left to right without
//! precedence: each change of operator makes what came before one clause of the next. A
//! negated word means "everything but", joined like any other clause, so `foo -bar` with the
//! default `or` finds what has `foo` or lacks `bar`, and `foo +-bar` what has one and lacks the
//! other, as in Elasticsearch. It never fails on syntax: stray quotes and brackets count as
//! nothing. The expression becomes query DSL over `fields` (default: every full-text field of
//! a declared mapping, the site's `SearchableText`), which `dsl` translates.

use crate::dsl::{Kind, Mapping, QueryError, field};
use crate::simple_query_flags::{AND, ESCAPE, FUZZY, NEAR, NOT, OR, PHRASE, PRECEDENCE, PREFIX, WHITESPACE, flags};
use serde_json::{Value, json};

/// The longest query text, in bytes.
const MAX_QUERY: usize = 4_096;
/// How deep brackets may nest.
const MAX_DEPTH: usize = 16;

/// `{"simple_query_string": {"query", "fields", "default_operator", "flags",
/// "minimum_should_match"}}` as query DSL.
pub fn to_dsl(mapping: &Mapping<'_>, body: &Value) -> Result<Value, QueryError> {
    let text = body
        .get("query")
        .and_then(Value::as_str)
        .ok_or_else(|| QueryError::parsing("[simple_query_string] requires 'query'"))?;
    if text.len() > MAX_QUERY {
        return Err(QueryError::illegal(format!("the query is longer than {MAX_QUERY} bytes")));
    }
    let fields: Vec<String> = match body.get("fields").and_then(Value::as_array) {
        Some(fields) if !fields.is_empty() => fields.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => match mapping.declared {
            Some((declared, _)) => declared
                .iter()
                .filter(|(_, d)| matches!(d.kind, crate::declared::DeclaredType::Text(_)))
                .map(|(name, _)| name.clone())
                .collect(),
            None => vec!["SearchableText".to_owned()],
        },
    };
    let and = body.get("default_operator").and_then(Value::as_str).is_some_and(|o| o.eq_ignore_ascii_case("and"));
    // Every word is asked in every field.
    let words = text.split(|c: char| is_space(c) || "|+-()\"".contains(c)).filter(|w| !w.is_empty()).count();
    if words.saturating_mul(fields.len()) > crate::dsl::MAX_CLAUSES {
        return Err(crate::dsl::too_many_clauses());
    }
    let context = Context { mapping, fields, and, flags: flags(body.get("flags"))? };
    let chars: Vec<char> = text.chars().collect();
    let mut top = parse(&chars, &context, 0);
    if let (Some(minimum), Some(Value::Object(bool_query))) =
        (body.get("minimum_should_match"), top.as_mut().and_then(|t| t.get_mut("bool")))
        && bool_query.contains_key("should")
    {
        bool_query.insert("minimum_should_match".into(), minimum.clone());
    }
    Ok(top.unwrap_or_else(|| json!({"match_none": {}})))
}

struct Context<'a> {
    mapping: &'a Mapping<'a>,
    fields: Vec<String>,
    and: bool,
    flags: u32,
}

impl Context<'_> {
    fn allows(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }
}

/// The query tree as Lucene's parser grows it: the top so far, and the operators around it.
#[derive(Default)]
struct State {
    top: Option<Value>,
    /// The clauses of `top` when it is a boolean this parser made, with their occurrence.
    clauses: Option<Vec<(bool, Value)>>,
    previous: Option<bool>,
    current: Option<bool>,
    not: u32,
}

impl State {
    /// Lucene's `buildQueryTree`: `branch` joins the tree with the current operator (the
    /// default one when none was given); a change of operator makes the tree so far one clause.
    fn add(&mut self, branch: Value, default_and: bool) {
        let branch = if self.not % 2 == 1 {
            json!({"bool": {"must_not": [branch], "should": [{"match_all": {}}]}})
        } else {
            branch
        };
        if self.top.is_none() && self.clauses.is_none() {
            self.top = Some(branch);
        } else {
            let must = self.current.unwrap_or(default_and);
            if self.previous != Some(must) {
                let old = self.finish();
                self.clauses = Some(old.into_iter().map(|q| (must, q)).collect());
                self.top = None;
            }
            self.clauses.get_or_insert_with(Vec::new).push((must, branch));
            self.previous = Some(must);
        }
        if self.clauses.is_none() {
            self.previous = self.current;
        }
        self.current = None;
    }

    /// The tree as one query.
    fn finish(&mut self) -> Option<Value> {
        if let Some(clauses) = self.clauses.take() {
            let (must, should): (Vec<_>, Vec<_>) = clauses.into_iter().partition(|(must, _)| *must);
            let list = |items: Vec<(bool, Value)>| Value::Array(items.into_iter().map(|(_, q)| q).collect());
            let mut bool_query = serde_json::Map::new();
            if !must.is_empty() {
                bool_query.insert("must".into(), list(must));
            }
            if !should.is_empty() {
                bool_query.insert("should".into(), list(should));
            }
            return Some(json!({ "bool": bool_query }));
        }
        self.top.take()
    }
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// Lucene's `SimpleQueryParser.parse` over `chars`.
fn parse(chars: &[char], context: &Context<'_>, depth: usize) -> Option<Value> {
    let mut state = State::default();
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        match c {
            '(' if context.allows(PRECEDENCE) => {
                at = group(chars, at, context, depth, &mut state);
            }
            '"' if context.allows(PHRASE) => at = phrase(chars, at, context, &mut state),
            '+' if context.allows(AND) => {
                if state.current.is_none() && (state.top.is_some() || state.clauses.is_some()) {
                    state.current = Some(true);
                }
                at += 1;
            }
            '|' if context.allows(OR) => {
                if state.current.is_none() && (state.top.is_some() || state.clauses.is_some()) {
                    state.current = Some(false);
                }
                at += 1;
            }
            '-' if context.allows(NOT) => {
                state.not += 1;
                at += 1;
                continue;
            }
            c if is_space(c) && context.allows(WHITESPACE) => at += 1,
            _ => at = word(chars, at, context, &mut state),
        }
        state.not = 0;
    }
    state.finish()
}

/// `( … )`: the group's query as one clause; an unclosed bracket is skipped, an empty group
/// is nothing.
fn group(chars: &[char], open: usize, context: &Context<'_>, depth: usize, state: &mut State) -> usize {
    let start = open + 1;
    let (mut at, mut nesting, mut escaped) = (start, 1, false);
    while let Some(&c) = chars.get(at) {
        if !escaped {
            match c {
                '\\' if context.allows(ESCAPE) => {
                    escaped = true;
                    at += 1;
                    continue;
                }
                '(' => nesting += 1,
                ')' => {
                    nesting -= 1;
                    if nesting == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        escaped = false;
        at += 1;
    }
    if at >= chars.len() {
        return start;
    }
    if at > start
        && depth < MAX_DEPTH
        && let Some(inner) = parse(&chars[start..at], context, depth + 1)
    {
        state.add(inner, context.and);
    } else if at == start {
        state.current = None;
    }
    at + 1
}

/// `"…"` with an optional `~slop`; an unclosed quote is skipped.
fn phrase(chars: &[char], open: usize, context: &Context<'_>, state: &mut State) -> usize {
    let start = open + 1;
    let mut text = String::new();
    let mut at = start;
    let mut escaped = false;
    while let Some(&c) = chars.get(at) {
        if !escaped && c == '\\' && context.allows(ESCAPE) {
            escaped = true;
            at += 1;
            continue;
        }
        if !escaped && c == '"' {
            break;
        }
        escaped = false;
        text.push(c);
        at += 1;
    }
    if at >= chars.len() {
        return start;
    }
    at += 1;
    let mut slop = 0;
    if chars.get(at) == Some(&'~') && context.allows(NEAR) {
        let (n, next) = digits(chars, at + 1);
        slop = n.unwrap_or(0);
        at = next;
    }
    let queries = context
        .fields
        .iter()
        .map(|f| boosted(f, |name| json!({"match_phrase": {name: {"query": text, "slop": slop}}})))
        .collect();
    state.add(most_fields(queries), context.and);
    at
}

fn digits(chars: &[char], mut at: usize) -> (Option<u32>, usize) {
    let mut number = String::new();
    while let Some(&c) = chars.get(at).filter(|c| c.is_ascii_digit()) {
        number.push(c);
        at += 1;
    }
    (number.parse().ok(), at)
}

/// A word up to whitespace or an operator, with `*` (prefix) or `~N` (fuzzy) after it.
fn word(chars: &[char], start: usize, context: &Context<'_>, state: &mut State) -> usize {
    let mut at = start;
    let mut text = String::new();
    let mut escaped = false;
    let mut last_escaped = false;
    while let Some(&c) = chars.get(at) {
        if !escaped {
            if c == '\\' && context.allows(ESCAPE) {
                escaped = true;
                at += 1;
                continue;
            }
            let operator = (c == '"' && context.allows(PHRASE))
                || (c == '|' && context.allows(OR))
                || (c == '+' && context.allows(AND))
                || ((c == '(' || c == ')') && context.allows(PRECEDENCE))
                || (c == '~' && context.allows(FUZZY))
                || (is_space(c) && context.allows(WHITESPACE));
            if operator {
                break;
            }
        }
        last_escaped = escaped;
        escaped = false;
        text.push(c);
        at += 1;
    }
    let mut fuzziness = None;
    if chars.get(at) == Some(&'~') && context.allows(FUZZY) {
        let (n, next) = digits(chars, at + 1);
        fuzziness = Some(n.unwrap_or(2).min(2));
        at = next;
    }
    if text.is_empty() {
        // A stray `)` or `~` is nothing, but it is passed.
        return at.max(start + 1);
    }
    let operator = if context.and { "and" } else { "or" };
    let query = match (text.strip_suffix('*'), fuzziness) {
        (Some(stem), None) if context.allows(PREFIX) && !last_escaped => {
            let queries: Vec<Value> =
                context.fields.iter().map(|f| boosted(f, |name| prefix(context.mapping, name, stem))).collect();
            json!({"dis_max": {"queries": queries, "tie_breaker": 1.0}})
        }
        (_, Some(edits)) => {
            let queries: Vec<Value> = context
                .fields
                .iter()
                .map(|f| boosted(f, |name| json!({"match": {name: {"query": text, "fuzziness": edits}}})))
                .collect();
            json!({"dis_max": {"queries": queries, "tie_breaker": 1.0}})
        }
        _ => {
            let queries: Vec<Value> = context
                .fields
                .iter()
                .map(|f| boosted(f, |name| json!({"match": {name: {"query": text, "operator": operator}}})))
                .collect();
            most_fields(queries)
        }
    };
    state.add(query, context.and);
    at
}

/// A prefix normalised as the field's analyzer normalises a term (lowercased), not stemmed.
fn prefix(mapping: &Mapping<'_>, name: &str, stem: &str) -> Value {
    let value = match field(mapping, name) {
        Ok(Kind::Text(_, analyzer)) => analyzer.normalize(stem),
        _ => stem.to_owned(),
    };
    json!({"prefix": {name: {"value": value}}})
}

/// The query of one field of `fields` (`name^boost`).
fn boosted(name: &str, make: impl Fn(&str) -> Value) -> Value {
    match name.split_once('^') {
        Some((name, boost)) => json!({"bool": {"must": [make(name)], "boost": boost.parse::<f64>().unwrap_or(1.0)}}),
        None => make(name),
    }
}

/// The fields' queries summed (Elasticsearch's `most_fields`).
fn most_fields(mut queries: Vec<Value>) -> Value {
    if queries.len() == 1 {
        return queries.remove(0);
    }
    json!({"bool": {"should": queries}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dsl(q: &str, and: bool) -> Value {
        let fields = crate::schema::schema().1;
        let custom = crate::dsl::CustomFields::new();
        let mapping = Mapping { fields: &fields, custom: &custom, unmapped_matches_nothing: true, declared: None };
        let body = json!({"query": q, "fields": ["f"], "default_operator": if and { "and" } else { "or" }});
        to_dsl(&mapping, &body).unwrap_or_default()
    }

    fn word(w: &str, and: bool) -> Value {
        json!({"match": {"f": {"query": w, "operator": if and { "and" } else { "or" }}}})
    }

    fn not(q: Value) -> Value {
        json!({"bool": {"must_not": [q], "should": [{"match_all": {}}]}})
    }

    #[test]
    fn operators_apply_left_to_right_as_in_lucene() {
        assert_eq!(dsl("foo", false), word("foo", false));
        assert_eq!(dsl("foo -bar", false), json!({"bool": {"should": [word("foo", false), not(word("bar", false))]}}));
        assert_eq!(dsl("foo +-bar", false), json!({"bool": {"must": [word("foo", false), not(word("bar", false))]}}));
        assert_eq!(dsl("foo -bar", true), json!({"bool": {"must": [word("foo", true), not(word("bar", true))]}}));
        let (a, b, c) = (word("a", false), word("b", false), word("c", false));
        let or = json!({"bool": {"should": [a, b]}});
        assert_eq!(dsl("a | b + c", false), json!({"bool": {"must": [or, c]}}));
        assert_eq!(dsl("a | b", true), json!({"bool": {"should": [word("a", true), word("b", true)]}}));
        for broken in ["\"offen", "((Rosen", "Rosen)", "| + -", ""] {
            assert!(dsl(broken, false).is_object(), "{broken}");
        }
    }
}
