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
    /// The text with each word that finds nothing replaced by its best correction.
    Phrase { pre: String, post: String },
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
            let tag =
                |key: &str| phrase.pointer(&format!("/highlight/{key}")).and_then(Value::as_str).unwrap_or_default();
            (phrase, Kind::Phrase { pre: tag("pre_tag").to_owned(), post: tag("post_tag").to_owned() })
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
            Kind::Phrase { pre, post } => {
                answer.insert(suggester.name.clone(), phrase(engine, suggester, base, (pre, post))?);
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
        size: suggester.size,
        sort: Vec::new(),
        aggregations: None,
        highlight: None,
        source: SourceFilter::All,
        track_total_hits: None,
        ..base.clone()
    };
    let found = engine.raw(&request)?;
    let options: Vec<Value> = found["hits"]["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|hit| {
            let mut option = hit.clone();
            option["text"] = completed_text(&hit["_source"], field, &suggester.text);
            option
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    let options: Vec<Value> =
        options.into_iter().filter(|option| !skip_duplicates || seen.insert(option["text"].to_string())).collect();
    let length = suggester.text.chars().count();
    Ok(json!([{"text": suggester.text, "offset": 0, "length": length, "options": options}]))
}

/// The value of `field` that completes `prefix` (the first of several), or the title.
fn completed_text(source: &Value, field: &str, prefix: &str) -> Value {
    let wanted = prefix.to_lowercase();
    let values: Vec<&Value> = match source.get(field) {
        Some(Value::Array(values)) => values.iter().collect(),
        Some(value) => vec![value],
        None => return source["title"].clone(),
    };
    let starts = |v: &&&Value| v.as_str().is_some_and(|s| s.to_lowercase().starts_with(&wanted));
    values.iter().find(starts).or(values.first()).map_or(Value::Null, |v| (*v).clone())
}

/// The whole text corrected word by word, with the corrections marked when tags are given.
fn phrase(
    engine: &dyn SearchEngine,
    suggester: &TermSuggester,
    base: &RawRequest,
    (pre, post): (&str, &str),
) -> Result<Value, QueryError> {
    let found = engine.suggest(&suggester.text, &base.filters, 2, 1)?;
    let (mut text, mut marked, mut score, mut changed) = (String::new(), String::new(), 1.0_f32, false);
    for (index, word) in suggester.text.split_whitespace().enumerate() {
        let separator = if index == 0 { "" } else { " " };
        let best = found.iter().find(|s| s.text == word).and_then(|s| s.options.first());
        match best {
            Some(option) => {
                changed = true;
                score *= option.score;
                text.push_str(&format!("{separator}{}", option.text));
                marked.push_str(&format!("{separator}{pre}{}{post}", option.text));
            }
            None => {
                text.push_str(&format!("{separator}{word}"));
                marked.push_str(&format!("{separator}{word}"));
            }
        }
    }
    let mut options = Vec::new();
    if changed {
        let mut option = json!({"text": text, "score": score});
        if !pre.is_empty() || !post.is_empty() {
            option["highlighted"] = json!(marked);
        }
        options.push(option);
    }
    let length = suggester.text.chars().count();
    Ok(json!([{"text": suggester.text, "offset": 0, "length": length, "options": options}]))
}
