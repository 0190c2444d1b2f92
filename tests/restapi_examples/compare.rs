//! Comparing our answer with Plone's: status, media type, the headers the recording kept, and
//! the body's keys and values at every depth, after both sides had what is random in them
//! (UIDs, dates, tokens, the port, the fixture files' sizes) replaced by placeholders.

use crate::example::{Response, header};
use regex::Regex;
use serde_json::Value;
use std::sync::LazyLock;

/// The recording's server; our base URL is rewritten to it before comparing.
pub const RECORDED_BASE: &str = "http://localhost:55001";

static RANDOM: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        // plone.restapi's static UIDs, and ours (32 hex digits).
        (r"SomeUUID\d{24}|\b[0-9a-f]{32}\b", "<uid>"),
        (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?", "<date>"),
        (r"eyJ[\w-]+\.[\w-]+\.[\w-]+", "<token>"),
        // Image scales: Plone names them by a hash of their parameters, we by field and scale
        // with a cache-busting `_t` (both forms are Plone's).
        (r"@@images/[^\s]*", "@@images/<scale>"),
        // Comment ids are the microsecond of their making (the recording cleaned some to 123456).
        (r"@comments/\d+", "@comments/<comment>"),
        // A download URL may name the file after the field (ours do, Plone's need not).
        (r"@@download/([^\s/]+)/[^\s/]+", "@@download/$1"),
    ]
    .into_iter()
    .map(|(pattern, placeholder)| (Regex::new(pattern).expect("pattern"), placeholder))
    .collect()
});

/// Keys whose values are random or depend on the fixture files (ours are not plone.restapi's
/// `image.png` and `file.pdf`), so only their presence and type are compared.
const RANDOM_KEYS: &[&str] =
    &["token", "time", "size", "width", "height", "timeout", "exp", "etag", "comment_id", "in_reply_to"];

pub fn normalise_text(text: &str) -> String {
    RANDOM
        .iter()
        .fold(text.to_owned(), |text, (regex, placeholder)| regex.replace_all(&text, *placeholder).into_owned())
}

pub fn normalise(value: &mut Value) {
    match value {
        Value::String(s) => *s = normalise_text(s),
        Value::Array(items) => items.iter_mut().for_each(normalise),
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if RANDOM_KEYS.contains(&key.as_str()) {
                    *value = match value {
                        Value::Number(_) => Value::from(0),
                        Value::String(_) => Value::from("<random>"),
                        _ => value.take(),
                    };
                } else {
                    normalise(value);
                }
            }
        }
        _ => {}
    }
}

/// What a key of ours that Plone's answer lacks is reported as.
pub const NOT_IN_PLONE: &str = "not in Plone's answer";

/// Where an answer differs from the recorded one: `(JSON pointer or part, what differs)`.
pub type Differences = Vec<(String, String)>;

fn media_type(value: Option<&str>) -> String {
    value.unwrap_or_default().split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 { format!("{}…", text.chars().take(80).collect::<String>()) } else { text }
}

/// Compares our answer (its base URL already rewritten) with the recorded one.
pub fn compare(expected: &Response, actual: &Response) -> Differences {
    let mut differences = Differences::new();
    if expected.status != actual.status {
        // The rest of an answer with another status is another answer: comparing it says nothing.
        differences.push(("status".into(), format!("{} expected, got {}", expected.status, actual.status)));
        return differences;
    }
    let expected_type = media_type(expected.header("content-type"));
    let actual_type = media_type(actual.header("content-type"));
    if !expected.body.is_empty() && expected_type != actual_type {
        differences.push(("content-type".into(), format!("{expected_type} expected, got {actual_type}")));
    }
    for (name, value) in &expected.headers {
        let name = name.to_ascii_lowercase();
        if name == "content-type" {
            continue;
        }
        let ours = header(&actual.headers, &name).map(normalise_text);
        let theirs = normalise_text(value);
        let same = match (&ours, name.as_str()) {
            (Some(ours), "allow") => sorted_list(ours) == sorted_list(&theirs),
            (Some(ours), _) => *ours == theirs,
            (None, _) => false,
        };
        if !same {
            differences.push((format!("header {name}"), format!("{theirs:?} expected, got {ours:?}")));
        }
    }
    compare_bodies(expected, actual, &expected_type, &mut differences);
    differences
}

fn sorted_list(value: &str) -> Vec<String> {
    let mut items: Vec<String> = value.split(',').map(|s| s.trim().to_ascii_uppercase()).collect();
    items.sort();
    items
}

fn compare_bodies(expected: &Response, actual: &Response, media_type: &str, differences: &mut Differences) {
    if expected.body.iter().all(u8::is_ascii_whitespace) {
        if !actual.body.iter().all(u8::is_ascii_whitespace) {
            differences.push(("body".into(), "empty expected".into()));
        }
        return;
    }
    if media_type.contains("json") {
        let Ok(mut theirs) = serde_json::from_slice::<Value>(&expected.body) else {
            return; // plone.restapi recorded a body that is no JSON; nothing to compare by shape.
        };
        let Ok(mut ours) = serde_json::from_slice::<Value>(&actual.body) else {
            differences.push(("body".into(), "JSON expected".into()));
            return;
        };
        normalise(&mut theirs);
        normalise(&mut ours);
        diff("", &theirs, &ours, differences);
    } else {
        let lines = |body: &[u8]| -> Vec<String> {
            normalise_text(&String::from_utf8_lossy(body)).lines().map(|l| l.trim_end().to_owned()).collect()
        };
        let (theirs, ours) = (lines(&expected.body), lines(&actual.body));
        if theirs != ours {
            let at = theirs.iter().zip(&ours).position(|(a, b)| a != b).unwrap_or(theirs.len().min(ours.len()));
            differences.push((
                format!("body line {}", at + 1),
                format!("{:?} expected, got {:?}", theirs.get(at), ours.get(at)),
            ));
        }
    }
}

fn diff(path: &str, theirs: &Value, ours: &Value, differences: &mut Differences) {
    match (theirs, ours) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let at = format!("{path}/{key}");
                match b.get(key) {
                    Some(other) => diff(&at, value, other, differences),
                    None => differences.push((at, "missing".into())),
                }
            }
            for key in b.keys().filter(|k| !a.contains_key(*k)) {
                differences.push((format!("{path}/{key}"), NOT_IN_PLONE.into()));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            // Items we add at the end are named one by one, so an exception can accept just them.
            if a.len() > b.len() {
                differences.push((path.to_owned(), format!("{} items expected, got {}", a.len(), b.len())));
            }
            for index in a.len()..b.len() {
                differences.push((format!("{path}/{index}"), NOT_IN_PLONE.into()));
            }
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}/{index}"), x, y, differences);
            }
        }
        (a, b) if a == b => {}
        (a, b) => differences.push((path.to_owned(), format!("{} expected, got {}", short(a), short(b)))),
    }
}

/// Whether a difference's place lies at or below one of `patterns` (JSON pointers whose
/// segments may be `*`).
pub fn ignored(place: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|pattern| {
        let mut place = place.split('/');
        pattern.split('/').all(|segment| place.next().is_some_and(|p| segment == "*" || segment == p))
    })
}
