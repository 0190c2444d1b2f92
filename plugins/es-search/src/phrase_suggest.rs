//! The phrase suggester of `@raw-es-search`: the text again with misspelled words (words of
//! `field` that find nothing) replaced by their corrections, at most `max_errors` of them in
//! one suggestion (1 by default), best first. A suggestion's score is its corrections' scores
//! multiplied; equal scores go in the order of their text, as Elasticsearch orders them.
//! Words are compared as the standard analyzer writes them (lowercased), as Elasticsearch's
//! suggestions are.

use crate::dsl::QueryError;
use crate::engine::{RawRequest, SearchEngine, Suggestion};
use serde_json::{Value, json};

/// Corrections asked per word.
const PER_WORD: usize = 5;
/// The most candidate phrases weighed for one suggester.
const MAX_CANDIDATES: usize = 1_000;

/// A phrase suggester's options.
#[derive(Clone, Debug)]
pub struct Phrase {
    field: Option<String>,
    pre: String,
    post: String,
    max_errors: f64,
}

impl Phrase {
    /// `{field, max_errors, highlight: {pre_tag, post_tag}}`.
    pub fn parse(options: &Value) -> Phrase {
        let tag = |key: &str| options.pointer(&format!("/highlight/{key}")).and_then(Value::as_str).unwrap_or_default();
        Phrase {
            field: options.get("field").and_then(Value::as_str).map(str::to_owned),
            pre: tag("pre_tag").to_owned(),
            post: tag("post_tag").to_owned(),
            max_errors: options.get("max_errors").and_then(Value::as_f64).unwrap_or(1.0).max(0.0),
        }
    }

    /// The options for `text`, at most `size`.
    pub fn suggest(
        &self,
        engine: &dyn SearchEngine,
        text: &str,
        size: usize,
        base: &RawRequest,
    ) -> Result<Vec<Value>, QueryError> {
        let found: Vec<Suggestion> = match &self.field {
            Some(field) => engine.suggest_field(field, text, base, 2, PER_WORD)?,
            None => engine.suggest(text, &base.filters, 2, PER_WORD)?,
        };
        let typed: Vec<&str> = text.split_whitespace().collect();
        let words: Vec<String> = typed.iter().map(|w| w.to_lowercase()).collect();
        // Each word's corrections (word, score), none for words that find something.
        let corrections: Vec<Vec<(String, f32)>> = typed
            .iter()
            .map(|word| {
                let options = found.iter().find(|s| s.text == *word).map(|s| s.options.as_slice()).unwrap_or_default();
                options.iter().map(|o| (o.text.clone(), o.score)).collect()
            })
            .collect();
        // `max_errors` below 1 is a share of the words, from 1 a number of them.
        let errors =
            if self.max_errors < 1.0 { (self.max_errors * words.len() as f64).ceil() } else { self.max_errors };
        let mut candidates: Vec<(f32, Vec<Option<String>>)> = Vec::new();
        expand(&corrections, 0, errors as usize, (1.0, vec![None; words.len()]), &mut candidates);
        let mut options: Vec<(f32, String, String)> = candidates
            .into_iter()
            .filter(|(_, changes)| changes.iter().any(Option::is_some))
            .map(|(score, changes)| {
                let plain: Vec<&str> =
                    changes.iter().zip(&words).map(|(c, w)| c.as_deref().unwrap_or(w.as_str())).collect();
                let marked: Vec<String> = changes
                    .iter()
                    .zip(&words)
                    .map(|(c, w)| c.as_ref().map_or_else(|| w.clone(), |c| format!("{}{c}{}", self.pre, self.post)))
                    .collect();
                (score, plain.join(" "), marked.join(" "))
            })
            .collect();
        options.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        options.dedup_by(|a, b| a.1 == b.1);
        let highlight = !self.pre.is_empty() || !self.post.is_empty();
        Ok(options
            .into_iter()
            .take(size)
            .map(|(score, text, marked)| {
                let mut option = json!({"text": text, "score": score});
                if highlight {
                    option["highlighted"] = json!(marked);
                }
                option
            })
            .collect())
    }
}

/// Every phrase with up to `errors` of the words from `at` on corrected, with its score.
fn expand(
    corrections: &[Vec<(String, f32)>],
    at: usize,
    errors: usize,
    (score, changes): (f32, Vec<Option<String>>),
    out: &mut Vec<(f32, Vec<Option<String>>)>,
) {
    if out.len() >= MAX_CANDIDATES {
        return;
    }
    let Some(options) = corrections.get(at) else {
        out.push((score, changes));
        return;
    };
    if errors > 0 {
        for (word, word_score) in options {
            let mut changed = changes.clone();
            changed[at] = Some(word.clone());
            expand(corrections, at + 1, errors - 1, (score * word_score, changed), out);
        }
    }
    expand(corrections, at + 1, errors, (score, changes), out);
}
