//! The term suggester of `@raw-es-search`: `{"suggest": {"text"?, <name>: {"text"?, "term":
//! {"field", "size", "max_edits"}}}}`, answered per word as Elasticsearch does
//! (`[{text, offset, length, options: [{text, score}]}]`), from words the caller may see.
//! Phrase and completion suggesters are refused.

use crate::dsl::QueryError;
use crate::engine::{Filters, SearchEngine};
use serde_json::{Map, Value, json};

/// Suggestions per word at most.
const MAX_SIZE: usize = 50;
/// The longest text to suggest for: every word is looked up with edits.
const MAX_TEXT: usize = 1_000;

/// One named term suggester.
#[derive(Clone, Debug)]
pub struct TermSuggester {
    name: String,
    text: String,
    size: usize,
    max_edits: usize,
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
        let Some(term) = body.get("term") else {
            let kind = body.as_object().and_then(|b| b.keys().find(|k| *k != "text")).map_or("?", String::as_str);
            return Err(QueryError::illegal(format!("the [{kind}] suggester is not supported by the embedded engine")));
        };
        let number = |key: &str, default: u64| term.get(key).and_then(Value::as_u64).unwrap_or(default);
        suggesters.push(TermSuggester {
            name: name.clone(),
            text: text.to_owned(),
            size: usize::try_from(number("size", 5)).unwrap_or(5).min(MAX_SIZE),
            max_edits: usize::try_from(number("max_edits", 2)).unwrap_or(2).clamp(1, 2),
        });
    }
    Ok(suggesters)
}

/// The `suggest` answer.
pub fn run(engine: &dyn SearchEngine, suggesters: &[TermSuggester], filters: &Filters) -> Result<Value, QueryError> {
    let mut answer = Map::new();
    for suggester in suggesters {
        let found = engine
            .suggest(&suggester.text, filters, suggester.max_edits, suggester.size)
            .map_err(|e| QueryError { es_type: "search_phase_execution_exception", reason: e.0 })?;
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
