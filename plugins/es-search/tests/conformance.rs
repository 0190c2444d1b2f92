//! The conformance corpus (`conformance/*.json`, cases taken from Elasticsearch's own REST
//! tests): each case runs through the same runner as `wcs search eval`, and every assertion
//! Elasticsearch's test makes about its answer must hold for ours; with
//! `WCS_TEST_ELASTICSEARCH_URL` set, for that cluster's answers too.

use serde_json::Value;
use std::path::Path;
use wcs_plugin_es_search::eval::evaluate;
use wcs_plugin_es_search::eval_cluster::evaluate_on_cluster;

/// `a.b.0.c`, with `\.` for a dot inside a key, as Elasticsearch's YAML runner writes paths.
fn lookup<'a>(answer: &'a Value, path: &str) -> Option<&'a Value> {
    let mut keys = Vec::new();
    let mut key = String::new();
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => key.extend(chars.next()),
            '.' => keys.push(std::mem::take(&mut key)),
            other => key.push(other),
        }
    }
    keys.push(key);
    keys.iter().try_fold(answer, |value, key| match value {
        Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        Value::Object(map) => map.get(key),
        _ => None,
    })
}

/// Numbers compare by value (Elasticsearch's `1` and our `1.0` are one value).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| (x - y).abs() <= 1e-6 * x.abs().max(1.0))
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// What is wrong with `answer` under one expectation, if anything.
fn check(answer: &Value, expectation: &Value) -> Option<String> {
    let path = expectation["path"].as_str().unwrap_or_default();
    let found = lookup(answer, path);
    let fail =
        |what: String| Some(format!("{path}: {what}, found {}", found.map_or("nothing".into(), Value::to_string)));
    if let Some(wanted) = expectation.get("equals") {
        return (!found.is_some_and(|f| same(f, wanted))).then(|| fail(format!("expected {wanted}"))).flatten();
    }
    if let Some(wanted) = expectation.get("length").and_then(Value::as_u64) {
        let length = found.and_then(|f| match f {
            Value::Array(items) => Some(items.len()),
            Value::Object(map) => Some(map.len()),
            Value::String(s) => Some(s.chars().count()),
            _ => None,
        });
        return (length != usize::try_from(wanted).ok()).then(|| fail(format!("expected length {wanted}"))).flatten();
    }
    if let Some(wanted) = expectation.get("present").and_then(Value::as_bool) {
        // Elasticsearch's `is_true`: present and not false, 0, "" or null.
        let truthy = found.is_some_and(|f| !matches!(f, Value::Null | Value::Bool(false)) && f != "" && f != 0);
        return (truthy != wanted).then(|| fail(format!("expected present = {wanted}"))).flatten();
    }
    if let Some(pattern) = expectation.get("matches").and_then(Value::as_str) {
        let matched = regex::Regex::new(pattern.trim())
            .ok()
            .zip(found.and_then(Value::as_str))
            .is_some_and(|(re, text)| re.is_match(text));
        return (!matched).then(|| fail(format!("expected to match /{pattern}/"))).flatten();
    }
    for (key, test) in [("gt", f64::gt as fn(&f64, &f64) -> bool), ("gte", f64::ge), ("lt", f64::lt), ("lte", f64::le)]
    {
        if let Some(bound) = expectation.get(key).and_then(Value::as_f64) {
            let holds = found.and_then(Value::as_f64).is_some_and(|f| test(&f, &bound));
            return (!holds).then(|| fail(format!("expected {key} {bound}"))).flatten();
        }
    }
    Some(format!("{path}: unknown expectation {expectation}"))
}

/// The cases of the corpus (`conformance/*.json`, not `pending/`), in the order of their names.
fn cases() -> Vec<(String, Value)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let case: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            (name, case)
        })
        .collect()
}

/// Checks every case's answer (from `answer`) against its expectations; the failures, one
/// line each, and how many cases differ.
async fn differences<F, A>(cases: &[(String, Value)], answer: F) -> (Vec<String>, usize)
where
    F: Fn(Value) -> A,
    A: std::future::Future<Output = Value>,
{
    let mut failures = Vec::new();
    let mut differing = 0;
    for (name, case) in cases {
        let answer = answer(case.clone()).await;
        let expectations = case["expect"].as_array().cloned().unwrap_or_default();
        assert!(!expectations.is_empty(), "{name} expects nothing");
        let before = failures.len();
        for expectation in &expectations {
            if let Some(failure) = check(&answer, expectation) {
                failures.push(format!("{name}: {failure}\n    answer: {answer}"));
            }
        }
        differing += usize::from(failures.len() > before);
    }
    (failures, differing)
}

#[tokio::test]
async fn the_corpus_answers_as_elasticsearchs_own_tests_expect() {
    let cases = cases();
    assert!(cases.len() >= 300, "the corpus has {} cases, fewer than 300", cases.len());
    let (failures, differing) = differences(&cases, |case| async move { evaluate(&case) }).await;
    assert!(failures.is_empty(), "{differing} of {} cases differ:\n{}", cases.len(), failures.join("\n"));
}

/// With `WCS_TEST_ELASTICSEARCH_URL` (`http://localhost:9200`), the same corpus on that
/// cluster, each case in an index of its own that is deleted afterwards (`wcs search eval
/// --engine`): the expectations are Elasticsearch's own, so a cluster must meet them too.
#[tokio::test]
async fn the_corpus_answers_so_on_elasticsearch_too() {
    let Ok(url) = std::env::var("WCS_TEST_ELASTICSEARCH_URL") else { return };
    let cases = cases();
    let (failures, differing) = differences(&cases, |case| {
        let url = url.clone();
        async move { evaluate_on_cluster(&url, &case).await.unwrap_or_else(|e| panic!("{url}: {e}")) }
    })
    .await;
    assert!(failures.is_empty(), "on {url}, {differing} of {} cases differ:\n{}", cases.len(), failures.join("\n"));
}

#[test]
fn the_checker_can_fail() {
    let answer = serde_json::json!({"hits": {"total": {"value": 2}, "hits": [{"_id": "a.b"}]}, "x.y": 1});
    assert!(check(&answer, &serde_json::json!({"path": "hits.total.value", "equals": 2})).is_none());
    assert!(check(&answer, &serde_json::json!({"path": "hits.total.value", "equals": 3})).is_some());
    assert!(check(&answer, &serde_json::json!({"path": "hits.hits", "length": 1})).is_none());
    assert!(check(&answer, &serde_json::json!({"path": "hits.hits.0._id", "matches": "^a\\.b$"})).is_none());
    assert!(check(&answer, &serde_json::json!({"path": "x\\.y", "equals": 1})).is_none());
    assert!(check(&answer, &serde_json::json!({"path": "missing", "present": true})).is_some());
    assert!(check(&answer, &serde_json::json!({"path": "hits.total.value", "gt": 2})).is_some());
}
