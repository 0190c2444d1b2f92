//! `exceptions.toml`: the examples that do not apply, the differences kept on purpose, and the
//! examples still pending, each with its reason; and the report that holds the run against it.

use crate::compare::{Differences, NOT_IN_PLONE, ignored};
use crate::scenario::Outcome;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize, Default)]
pub struct Exceptions {
    /// Examples that cannot apply to this server (Plone's add-on profiles, ZODB internals).
    #[serde(default)]
    pub not_applicable: BTreeMap<String, String>,
    /// Differences kept on purpose, by example.
    #[serde(default)]
    pub deliberate: BTreeMap<String, Deliberate>,
    /// Keys we add to Plone's answers everywhere, on purpose, with the reason.
    #[serde(default)]
    pub everywhere: Vec<Extra>,
    /// Examples that do not hold yet, with what is missing.
    #[serde(default)]
    pub pending: BTreeMap<String, String>,
}

#[derive(Deserialize)]
pub struct Deliberate {
    /// Why we answer otherwise; README's compatibility notes say so too.
    #[allow(dead_code)]
    pub reason: String,
    /// The places whose differences are accepted: `status`, `content-type`, `header <name>`,
    /// or JSON pointers whose segments may be `*`.
    pub ignore: Vec<String>,
}

#[derive(Deserialize)]
pub struct Extra {
    /// Why we answer so; README's compatibility notes say so too.
    #[allow(dead_code)]
    pub reason: String,
    /// Keys we add: JSON pointers whose segments may be `*`, and which may start with `**/`
    /// to match at any depth.
    #[serde(default)]
    pub keys: Vec<String>,
    /// Places whose values differ on purpose (same pointer syntax).
    #[serde(default)]
    pub values: Vec<String>,
}

impl Exceptions {
    /// Whether a difference is one kept on purpose for `example`.
    fn accepted(&self, example: &str, (place, what): &(String, String)) -> bool {
        let extra = what == NOT_IN_PLONE && self.everywhere.iter().any(|e| e.keys.iter().any(|k| matches(place, k)));
        let value = what != NOT_IN_PLONE
            && what != "missing"
            && self.everywhere.iter().any(|e| e.values.iter().any(|v| matches(place, v)));
        extra || value || self.deliberate.get(example).is_some_and(|d| ignored(place, &d.ignore))
    }
}

/// Whether `place` is `pattern`, whose segments may be `*` and which may start with `**/` to
/// match the end of `place` at any depth.
fn matches(place: &str, pattern: &str) -> bool {
    let place: Vec<&str> = place.split('/').collect();
    let (pattern, anywhere) = match pattern.strip_prefix("**/") {
        Some(rest) => (rest, true),
        None => (pattern, false),
    };
    let pattern: Vec<&str> = pattern.split('/').collect();
    let place =
        if anywhere && place.len() >= pattern.len() { &place[place.len() - pattern.len()..] } else { &place[..] };
    place.len() == pattern.len() && place.iter().zip(&pattern).all(|(p, q)| *q == "*" || p == q)
}

#[derive(Default)]
pub struct Report {
    held: Vec<String>,
    failed: BTreeMap<String, Differences>,
    not_applicable: Vec<String>,
    unrecorded: Vec<String>,
}

impl Report {
    pub fn not_applicable(&mut self, example: &str, _reason: &str) {
        self.not_applicable.push(example.to_owned());
    }

    pub fn add(&mut self, exceptions: &Exceptions, mut outcome: Outcome) {
        if exceptions.not_applicable.contains_key(&outcome.example) {
            self.not_applicable.push(outcome.example);
            return;
        }
        outcome.differences.retain(|difference| !exceptions.accepted(&outcome.example, difference));
        if !outcome.recorded && outcome.differences.is_empty() {
            self.unrecorded.push(outcome.example);
        } else if outcome.differences.is_empty() {
            self.held.push(outcome.example);
        } else {
            self.failed.insert(outcome.example, outcome.differences);
        }
    }

    pub fn summary(&self) -> String {
        let applicable = self.held.len() + self.failed.len();
        let share = if applicable == 0 { 0.0 } else { 100.0 * self.held.len() as f64 / applicable as f64 };
        format!(
            "plone.restapi examples: {} of {} applicable hold ({share:.1} %); {} pending; {} do not apply; {} only document a request",
            self.held.len(),
            applicable,
            self.failed.len(),
            self.not_applicable.len(),
            self.unrecorded.len()
        )
    }

    /// Every difference of every example that does not hold, one line each.
    pub fn details(&self) -> String {
        let mut out = String::new();
        for (example, differences) in &self.failed {
            for (place, what) in differences {
                out.push_str(&format!("{example}\t{place}\t{what}\n"));
            }
        }
        out
    }

    /// Where the run and `exceptions.toml` disagree: an example that fails without being
    /// pending, or one pending that holds now (take it off the list).
    pub fn problems(&self, exceptions: &Exceptions) -> Vec<String> {
        let mut problems = Vec::new();
        for (example, differences) in &self.failed {
            // A server error is never an accepted difference, pending or not.
            if let Some((_, what)) =
                differences.iter().find(|(place, what)| place == "status" && what.contains(", got 5"))
            {
                problems.push(format!("{example} answered with a server error: {what}"));
            }
            if !exceptions.pending.contains_key(example) {
                let first: Vec<String> = differences.iter().take(5).map(|(p, w)| format!("    {p}: {w}")).collect();
                problems.push(format!("{example} differs from Plone's answer:\n{}", first.join("\n")));
            }
        }
        for example in self.held.iter().chain(&self.unrecorded) {
            if exceptions.pending.contains_key(example) {
                problems.push(format!("{example} holds now: take it off the pending list"));
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn patterns_match_exact_places_or_any_depth() {
        assert!(matches("/items/3/icon", "/items/*/icon"));
        assert!(!matches("/items/3/items/0/icon", "/items/*/icon"));
        assert!(matches("/items/3/items/0/icon", "**/items/*/icon"));
        assert!(matches("/@components/navigation/items/1/icon", "**/items/*/icon"));
        assert!(!matches("/icon", "**/items/*/icon"));
    }
}
