//! The suggesters of `@raw-es-search`: `{"suggest": {"text"?, <name>: {"text"?, "term": {…}
//! | "completion": {…}}}}`. The term suggester answers per word as Elasticsearch does
//! (`[{text, offset, length, options: [{text, score}]}]`) from words the caller may see; the
//! completion suggester offers the objects whose `field` (default `title`) starts with the
//! text (`options: [{text, _index, _id, _score, _source}]`), again only visible ones; the
//! phrase suggester offers the text with every word that finds nothing replaced by its best
//! correction (`options: [{text, highlighted?, score}]`, one candidate).

use crate::dsl::QueryError;
use crate::engine::{RawRequest, SearchEngine, SourceFilter};
use serde_json::{Map, Value, json};

/// Suggestions per word at most.
const MAX_SIZE: usize = 50;
/// The most documents a completion's options are chosen from.
const MAX_COMPLETION_CANDIDATES: usize = 1_000;
/// The longest text to suggest for: every word is looked up with edits.
const MAX_TEXT: usize = 1_000;

/// One named suggester.
#[derive(Clone, Debug)]
pub struct TermSuggester {
    name: String,
    text: String,
    size: usize,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    /// Indexed words within this many edits, of `field` when one is named.
    Term { max_edits: usize, field: Option<String> },
    /// Objects whose field starts with the text (each text once with `skip_duplicates`).
    Completion { field: String, skip_duplicates: bool },
    /// The text with words that find nothing replaced by their corrections.
    Phrase(crate::phrase_suggest::Phrase),
}

/// The suggesters of a request's `suggest` object.
pub fn parse(spec: &Value) -> Result<Vec<TermSuggester>, QueryError> {
    let spec = spec.as_object().ok_or_else(|| QueryError::parsing("[suggest] must be an object"))?;
    let global = spec.get("text").and_then(Value::as_str);
    let mut suggesters = Vec::new();
    for (name, body) in spec.iter().filter(|(name, _)| name.as_str() != "text") {
        let text = body.get("text").and_then(Value::as_str).or(global);
        let text = text.ok_or_else(|| {
            QueryError::illegal(format!("The required text option is missing for suggestion [{name}]"))
        })?;
        if text.chars().count() > MAX_TEXT {
            return Err(QueryError::illegal(format!("a suggestion text is at most {MAX_TEXT} characters")));
        }
        let (options, kind) = if let Some(term) = body.get("term") {
            let max_edits = term.get("max_edits").and_then(Value::as_u64).unwrap_or(2);
            let field = term.get("field").and_then(Value::as_str).map(str::to_owned);
            (term, Kind::Term { max_edits: usize::try_from(max_edits).unwrap_or(2).clamp(1, 2), field })
        } else if let Some(phrase) = body.get("phrase") {
            (phrase, Kind::Phrase(crate::phrase_suggest::Phrase::parse(phrase)))
        } else if let Some(completion) = body.get("completion") {
            let field = completion.get("field").and_then(Value::as_str).unwrap_or("title").to_owned();
            let skip_duplicates = completion.get("skip_duplicates").and_then(Value::as_bool).unwrap_or(false);
            (completion, Kind::Completion { field, skip_duplicates })
        } else {
            let kind = body.as_object().and_then(|b| b.keys().find(|k| *k != "text")).map_or("?", String::as_str);
            return Err(QueryError::illegal(format!("the [{kind}] suggester is not supported by the embedded engine")));
        };
        let size = options.get("size").and_then(Value::as_u64).unwrap_or(5);
        suggesters.push(TermSuggester {
            name: name.clone(),
            text: text.to_owned(),
            size: usize::try_from(size).unwrap_or(5).min(MAX_SIZE),
            kind,
        });
    }
    Ok(suggesters)
}

/// The `suggest` answer; `base` is the request's own search (its filters and custom fields).
pub fn run(engine: &dyn SearchEngine, suggesters: &[TermSuggester], base: &RawRequest) -> Result<Value, QueryError> {
    let mut answer = Map::new();
    for suggester in suggesters {
        let (max_edits, field) = match &suggester.kind {
            Kind::Term { max_edits, field } => (*max_edits, field.as_deref()),
            Kind::Completion { field, skip_duplicates } => {
                let options = completion(engine, suggester, field, *skip_duplicates, base)?;
                answer.insert(suggester.name.clone(), options);
                continue;
            }
            Kind::Phrase(phrase) => {
                let options = phrase.suggest(engine, &suggester.text, suggester.size, base)?;
                let length = suggester.text.chars().count();
                let entry = json!([{"text": suggester.text, "offset": 0, "length": length, "options": options}]);
                answer.insert(suggester.name.clone(), entry);
                continue;
            }
        };
        let found = match field {
            Some(field) => engine.suggest_field(field, &suggester.text, base, max_edits, suggester.size)?,
            None => engine.suggest(&suggester.text, &base.filters, max_edits, suggester.size)?,
        };
        let mut entries = Vec::new();
        let mut offset = 0;
        for word in suggester.text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            let at = suggester.text[offset..].find(word).map_or(offset, |i| offset + i);
            offset = at + word.len();
            let options: Vec<Value> = found
                .iter()
                .find(|s| s.text == word)
                .map(|s| s.options.iter().map(|o| json!({"text": o.text, "score": o.score})).collect())
                .unwrap_or_default();
            let chars_before = suggester.text[..at].chars().count();
            entries.push(
                json!({"text": word, "offset": chars_before, "length": word.chars().count(), "options": options}),
            );
        }
        answer.insert(suggester.name.clone(), Value::Array(entries));
    }
    Ok(Value::Object(answer))
}

/// The objects whose `field` starts with the suggester's text, best first.
fn completion(
    engine: &dyn SearchEngine,
    suggester: &TermSuggester,
    field: &str,
    skip_duplicates: bool,
    base: &RawRequest,
) -> Result<Value, QueryError> {
    let request = RawRequest {
        query: json!({"match_phrase_prefix": {field: suggester.text}}),
        from: 0,
        // Weights order the options, not relevance: the heaviest may rank low.
        size: MAX_COMPLETION_CANDIDATES,
        sort: Vec::new(),
        aggregations: None,
        highlight: None,
        source: SourceFilter::All,
        track_total_hits: None,
        ..base.clone()
    };
    let found = engine.raw(&request)?;
    let mut options: Vec<(i64, Value)> = found["hits"]["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|hit| {
            let (text, weight) = completed_text(&hit["_source"], field, &suggester.text);
            let mut option = hit.clone();
            option["text"] = text;
            // A completion's score is its input's weight, as in Elasticsearch.
            option["_score"] = json!(weight);
            (weight, option)
        })
        .collect();
    // Heaviest first; equal weights keep the index's order.
    options.sort_by_key(|option| std::cmp::Reverse(option.0));
    let mut seen = std::collections::HashSet::new();
    let options: Vec<Value> = options
        .into_iter()
        .map(|(_, option)| option)
        .filter(|option| !skip_duplicates || seen.insert(option["text"].to_string()))
        .take(suggester.size)
        .collect();
    let length = suggester.text.chars().count();
    Ok(json!([{"text": suggester.text, "offset": 0, "length": length, "options": options}]))
}

/// The input of `field` that completes `prefix` (the heaviest of several) with its weight
/// (1 without one), or the title.
fn completed_text(source: &Value, field: &str, prefix: &str) -> (Value, i64) {
    let wanted = prefix.to_lowercase();
    let values: Vec<&Value> = match source.get(field) {
        Some(Value::Array(values)) => values.iter().collect(),
        Some(value) => vec![value],
        None => return (source["title"].clone(), 1),
    };
    // Each value is an input, a list of inputs, or `{input, weight}`.
    let mut inputs: Vec<(&Value, i64)> = Vec::new();
    for value in values {
        let weight = value.get("weight").and_then(Value::as_i64).unwrap_or(1);
        match value.get("input").unwrap_or(value) {
            Value::Array(many) => inputs.extend(many.iter().map(|input| (input, weight))),
            one => inputs.push((one, weight)),
        }
    }
    let starts = |input: &Value| input.as_str().is_some_and(|s| s.to_lowercase().starts_with(&wanted));
    let best = inputs.iter().filter(|(input, _)| starts(input)).fold(None, |best: Option<(&Value, i64)>, &(i, w)| {
        if best.is_some_and(|(_, b)| b >= w) { best } else { Some((i, w)) }
    });
    best.or(inputs.first().copied()).map_or((Value::Null, 1), |(input, weight)| (input.clone(), weight))
}
