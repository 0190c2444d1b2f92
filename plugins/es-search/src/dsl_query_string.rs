//! `query_string`: Lucene's classic query syntax (`Title:garten AND NOT portal_type:Folder`,
//! phrases, `+`/`-`, ranges, boosts, `foo*` wildcards, `~` fuzziness) read as Lucene's classic
//! query parser reads it, clause by clause with its rules for `AND`/`OR` and the default
//! operator, and made into query DSL that [`crate::dsl`] translates, so every term is analysed
//! as the field's `match` would be: German word forms meet, and wildcard terms are normalised
//! (lowercased) but not stemmed. A term over several fields is the best field's match
//! (`dis_max`, Elasticsearch's `best_fields`).

use crate::dsl::{Kind, Mapping, QueryError, field};
use crate::dsl_patterns::is_wildcard_term;
use crate::query_syntax::{Token, tokens, unescape};
use serde_json::{Value, json};

/// The longest query text, in bytes.
const MAX_QUERY: usize = 4_096;
/// How deep groups may nest.
const MAX_GROUPS: usize = 8;

/// `{"query_string": {"query", "default_field" | "fields", "default_operator", "lenient"}}` as
/// query DSL.
pub fn to_dsl(mapping: &Mapping<'_>, body: &Value) -> Result<Value, QueryError> {
    let text = body
        .get("query")
        .and_then(Value::as_str)
        .ok_or_else(|| QueryError::parsing("[query_string] requires 'query'"))?;
    if text.len() > MAX_QUERY {
        return Err(QueryError::illegal(format!("the query is longer than {MAX_QUERY} bytes")));
    }
    let fields: Vec<String> =
        match (body.get("fields").and_then(Value::as_array), body.get("default_field").and_then(Value::as_str)) {
            (Some(fields), _) => fields.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            (None, Some(one)) => vec![one.to_owned()],
            (None, None) => vec!["*".to_owned()],
        };
    let failed = |reason: String| QueryError::shard(format!("Failed to parse query [{text}]: {reason}"));
    let parser = Parser {
        mapping,
        tokens: tokens(text).map_err(failed)?,
        at: 0,
        and: body.get("default_operator").and_then(Value::as_str).is_some_and(|o| o.eq_ignore_ascii_case("and")),
        lenient: body.get("lenient").and_then(Value::as_bool).unwrap_or(false),
        clauses: std::cell::Cell::new(0),
    };
    parser.parse(&expand(mapping, &fields)).map_err(|e| match e {
        Failure::Syntax(reason) => failed(reason),
        Failure::Query(refused) => refused,
    })
}

/// `*` is every full-text field (`index.query.default_field`); names may carry `^boost`.
fn expand(mapping: &Mapping<'_>, fields: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for name in fields {
        if name != "*" {
            let (pattern, boost) = name.split_once('^').map_or((name.as_str(), None), |(p, b)| (p, Some(b)));
            for found in crate::dsl_fields::expand(mapping, pattern) {
                out.push(boost.map_or(found.clone(), |b| format!("{found}^{b}")));
            }
            continue;
        }
        match mapping.declared {
            Some((declared, _)) => out.extend(
                declared
                    .iter()
                    .filter(|(_, d)| matches!(d.kind, crate::declared::DeclaredType::Text(_)))
                    .map(|(name, _)| name.clone()),
            ),
            None => out.extend(["SearchableText", "Title", "Description"].map(str::to_owned)),
        }
    }
    out
}

enum Failure {
    Syntax(String),
    Query(QueryError),
}

impl From<QueryError> for Failure {
    fn from(refused: QueryError) -> Self {
        Failure::Query(refused)
    }
}

/// How a clause is introduced.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Conjunction {
    None,
    And,
    Or,
}

/// What a clause must do: be there, not be there, or may be there.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Occur {
    Must,
    Should,
    MustNot,
}

struct Parser<'a> {
    mapping: &'a Mapping<'a>,
    tokens: Vec<Token>,
    at: usize,
    and: bool,
    lenient: bool,
    /// The clauses made so far, bounded by [`crate::dsl::MAX_CLAUSES`].
    clauses: std::cell::Cell<usize>,
}

impl Parser<'_> {
    fn parse(mut self, fields: &[String]) -> Result<Value, Failure> {
        let query = self.query(fields, 0)?;
        match self.tokens.get(self.at) {
            None => Ok(query),
            Some(token) => Err(Failure::Syntax(format!("Cannot parse: unexpected {token:?}"))),
        }
    }

    /// Clauses up to a closing bracket, combined as Lucene's `QueryParser.addClause` does.
    fn query(&mut self, fields: &[String], depth: usize) -> Result<Value, Failure> {
        let mut clauses: Vec<(Occur, Value)> = Vec::new();
        loop {
            let conjunction = match self.tokens.get(self.at) {
                None | Some(Token::Close) => break,
                Some(Token::And) => Conjunction::And,
                Some(Token::Or) => Conjunction::Or,
                _ => Conjunction::None,
            };
            if conjunction != Conjunction::None {
                self.at += 1;
            }
            let prohibited = match self.tokens.get(self.at) {
                Some(Token::Prohibited | Token::Not) => true,
                Some(Token::Required) => false,
                _ => {
                    let clause = self.clause(fields, depth)?;
                    self.add(&mut clauses, conjunction, None, clause);
                    continue;
                }
            };
            self.at += 1;
            let clause = self.clause(fields, depth)?;
            self.add(&mut clauses, conjunction, Some(prohibited), clause);
        }
        Ok(boolean(clauses))
    }

    /// Lucene's rules: `AND` makes the clause before required too; with the default operator
    /// AND, `OR` makes it optional; `-` prohibits, `+` requires, and a bare clause takes the
    /// default operator.
    fn add(&self, clauses: &mut Vec<(Occur, Value)>, conjunction: Conjunction, modifier: Option<bool>, query: Value) {
        if let Some((occur, _)) = clauses.last_mut()
            && *occur != Occur::MustNot
        {
            match conjunction {
                Conjunction::And => *occur = Occur::Must,
                Conjunction::Or if self.and => *occur = Occur::Should,
                _ => {}
            }
        }
        let prohibited = modifier == Some(true);
        let required = if self.and {
            !prohibited && conjunction != Conjunction::Or
        } else {
            modifier == Some(false) || (conjunction == Conjunction::And && !prohibited)
        };
        let occur = match (required, prohibited) {
            (_, true) => Occur::MustNot,
            (true, false) => Occur::Must,
            (false, false) => Occur::Should,
        };
        clauses.push((occur, query));
    }

    /// `[field:] (term | phrase | range | regex | ( query ))` with a boost after it.
    fn clause(&mut self, fields: &[String], depth: usize) -> Result<Value, Failure> {
        let mut own = None;
        if let Some(Token::Field(name)) = self.tokens.get(self.at) {
            own = Some(vec![name.clone()]);
            self.at += 1;
        }
        let fields = own.as_deref().unwrap_or(fields);
        let token = self.tokens.get(self.at).cloned().ok_or_else(|| Failure::Syntax("Encountered <EOF>".into()))?;
        self.at += 1;
        let mut query = match token {
            Token::Open if depth < MAX_GROUPS => {
                let inner = self.query(fields, depth + 1)?;
                if self.tokens.get(self.at) != Some(&Token::Close) {
                    return Err(Failure::Syntax("Encountered <EOF>, expected \")\"".into()));
                }
                self.at += 1;
                inner
            }
            Token::Open => return Err(Failure::Syntax(format!("groups nest deeper than {MAX_GROUPS}"))),
            Token::Term(term) => {
                let fuzziness = self.tilde();
                self.over(fields, |name| self.term(name, &term, fuzziness))?
            }
            Token::Phrase(phrase) => {
                let slop = self.tilde().flatten().unwrap_or(0);
                self.over(fields, |name| Ok(json!({"match_phrase": {name: {"query": phrase, "slop": slop}}})))?
            }
            Token::Range(lower_inclusive, lower, upper, upper_inclusive) => self.over(fields, |name| {
                let mut bounds = serde_json::Map::new();
                if lower != "*" {
                    bounds.insert(if lower_inclusive { "gte" } else { "gt" }.into(), json!(lower));
                }
                if upper != "*" {
                    bounds.insert(if upper_inclusive { "lte" } else { "lt" }.into(), json!(upper));
                }
                Ok(json!({"range": {name: bounds}}))
            })?,
            Token::Regex(pattern) => self.over(fields, |name| Ok(json!({"regexp": {name: {"value": pattern}}})))?,
            other => return Err(Failure::Syntax(format!("Encountered {other:?}"))),
        };
        if let Some(Token::Boost(boost)) = self.tokens.get(self.at) {
            query = json!({"bool": {"must": [query], "boost": boost}});
            self.at += 1;
        }
        Ok(query)
    }

    /// `~` or `~N` after a term or phrase: `Some(None)` for `~` alone.
    fn tilde(&mut self) -> Option<Option<u32>> {
        let Some(Token::Tilde(n)) = self.tokens.get(self.at) else { return None };
        let n = *n;
        self.at += 1;
        Some(n)
    }

    /// The clause over every field: one field's query, or the best of several.
    fn over(&self, fields: &[String], make: impl Fn(&str) -> Result<Value, Failure>) -> Result<Value, Failure> {
        self.clauses.set(self.clauses.get() + fields.len());
        if self.clauses.get() > crate::dsl::MAX_CLAUSES {
            return Err(Failure::Query(crate::dsl::too_many_clauses()));
        }
        let mut queries = Vec::new();
        for name in fields {
            let (name, boost) = match name.split_once('^') {
                Some((name, boost)) => (name, boost.parse::<f64>().unwrap_or(1.0)),
                None => (name.as_str(), 1.0),
            };
            let query = make(name)?;
            queries.push(if boost == 1.0 { query } else { json!({"bool": {"must": [query], "boost": boost}}) });
        }
        Ok(match queries.len() {
            0 => json!({"match_none": {}}),
            1 => queries.remove(0),
            _ => json!({"dis_max": {"queries": queries}}),
        })
    }

    /// One term on one field: `*` (the field exists), a wildcard, a comparison (`>=5`), a fuzzy
    /// term, or the words of the term as the field analyses them.
    fn term(&self, name: &str, term: &str, fuzziness: Option<Option<u32>>) -> Result<Value, Failure> {
        if name == "_exists_" {
            return Ok(json!({"exists": {"field": unescape(term)}}));
        }
        if term == "*" {
            return Ok(json!({"exists": {"field": name}}));
        }
        if is_wildcard_term(term) {
            return Ok(json!({"wildcard": {name: {"value": term}}}));
        }
        let text = unescape(term);
        for (operator, bound) in [(">=", "gte"), ("<=", "lte"), (">", "gt"), ("<", "lt")] {
            if let Some(value) = text.strip_prefix(operator) {
                return Ok(json!({"range": {name: {bound: value}}}));
            }
        }
        let kind = field(self.mapping, name)?;
        if let Kind::Typed(declared) = &kind
            && crate::declared::term(declared, &json!(text)).is_none()
        {
            if self.lenient {
                return Ok(json!({"match_none": {}}));
            }
            return Err(Failure::Query(QueryError::shard(format!(
                "failed to create query: For input string: \"{text}\""
            ))));
        }
        let operator = if self.and { "and" } else { "or" };
        let mut options = json!({"query": text, "operator": operator});
        if let Some(edits) = fuzziness {
            options["fuzziness"] = edits.map_or(json!("AUTO"), |n| json!(n.min(2)));
        }
        Ok(json!({"match": {name: options}}))
    }
}

/// The clauses as one `bool`; one that only excludes excludes from everything, as
/// Elasticsearch's query parser makes it.
fn boolean(clauses: Vec<(Occur, Value)>) -> Value {
    if let [(Occur::Should | Occur::Must, _)] = clauses.as_slice() {
        return clauses.into_iter().next().map_or(Value::Null, |(_, q)| q);
    }
    if clauses.is_empty() {
        return json!({"match_none": {}});
    }
    let (mut must, mut should, mut must_not) = (Vec::new(), Vec::new(), Vec::new());
    for (occur, query) in clauses {
        match occur {
            Occur::Must => must.push(query),
            Occur::Should => should.push(query),
            Occur::MustNot => must_not.push(query),
        }
    }
    if must.is_empty() && should.is_empty() {
        must.push(json!({"match_all": {}}));
    }
    json!({"bool": {"must": must, "should": should, "must_not": must_not}})
}
