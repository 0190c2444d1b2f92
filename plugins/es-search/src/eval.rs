//! `wcs search eval FILE`, the conformance runner: a case is `{"index": {"mappings":
//! {"properties": {…}}}, "docs": [{"_id": …, …}], "request": {…}}`. The embedded engine builds a
//! throw-away index in memory with that mapping, adds the documents in order (as on one shard)
//! and answers the request as Elasticsearch's `_search` would: the answer body, or the error
//! body with its `status`. The same case sent to a cluster gives the answer to compare with.

use crate::declared::document_id;
use crate::dsl::QueryError;
use crate::engine::{SearchEngine, SourceFilter};
use crate::raw_es_search::{es_error_body, parse};
use crate::tantivy_engine::TantivyEngine;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::time::Instant;

/// The most documents a case may index (it is built in memory).
const MAX_DOCS: usize = 100_000;

/// The index name answers carry when the case names none.
const DEFAULT_INDEX: &str = "test";

/// Runs one case; never fails: refusals are Elasticsearch's error bodies.
pub fn evaluate(case: &Value) -> Value {
    let started = Instant::now();
    match run(case) {
        Ok(mut answer) => {
            let took = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let mut ordered = Map::new();
            ordered.insert("took".into(), json!(took));
            ordered.insert("timed_out".into(), json!(false));
            ordered.insert("_shards".into(), json!({"total": 1, "successful": 1, "skipped": 0, "failed": 0}));
            if let Some(answer) = answer.as_object_mut() {
                answer.remove("timed_out");
                // Elasticsearch's order of keys, which a reader of the answer meets.
                for key in ["hits", "aggregations", "suggest"] {
                    if let Some(value) = answer.remove(key) {
                        ordered.insert(key.into(), value);
                    }
                }
                ordered.extend(std::mem::take(answer));
            }
            Value::Object(ordered)
        }
        Err(refused) => es_error_body(&refused),
    }
}

fn run(case: &Value) -> Result<Value, QueryError> {
    let index = case.get("index").cloned().unwrap_or_else(|| json!({}));
    let name = index.get("name").and_then(Value::as_str).unwrap_or(DEFAULT_INDEX).to_owned();
    let engine = TantivyEngine::with_mapping(index.get("mappings").unwrap_or(&json!({})))?;
    let docs = match case.get("docs") {
        None => Vec::new(),
        Some(Value::Array(docs)) if docs.len() <= MAX_DOCS => docs.clone(),
        Some(Value::Array(_)) => return Err(QueryError::illegal(format!("a case holds at most {MAX_DOCS} docs"))),
        Some(_) => return Err(QueryError::parsing("[docs] must be a list")),
    };
    engine.index_sources(&docs)?;
    engine.commit(0)?;
    let body = serde_json::to_vec(case.get("request").unwrap_or(&json!({})))
        .map_err(|e| QueryError::content(e.to_string()))?;
    let (request, suggesters) = parse(&body)?;
    let mut answer = engine.raw(&request)?;
    if !suggesters.is_empty() {
        answer["suggest"] = crate::raw_suggest::run(&engine, &suggesters, &request)?;
    }
    let sources: HashMap<String, &Value> =
        docs.iter().enumerate().map(|(position, doc)| (document_id(doc, position), doc)).collect();
    let restore = |hit: &mut Value, filter: &SourceFilter| {
        hit["_index"] = json!(name);
        let Some(id) = hit.get("_id").and_then(Value::as_str).map(str::to_owned) else { return };
        if hit.get("_source").is_none() {
            return;
        }
        let mut original = sources.get(&id).and_then(|doc| doc.as_object()).cloned().unwrap_or_default();
        original.remove("_id");
        hit["_source"] = Value::Object(filter.apply(&original));
    };
    for hit in answer["hits"]["hits"].as_array_mut().into_iter().flatten() {
        restore(hit, &request.source);
    }
    for entries in answer.get_mut("suggest").and_then(Value::as_object_mut).into_iter().flat_map(|s| s.values_mut()) {
        for entry in entries.as_array_mut().into_iter().flatten() {
            for option in entry.get_mut("options").and_then(Value::as_array_mut).into_iter().flatten() {
                if option.get("_id").is_some() {
                    restore(option, &SourceFilter::All);
                }
            }
        }
    }
    Ok(answer)
}

/// Runs the case in `text` (the file's content); the answer, or an error body for a file that
/// is not a case.
pub fn evaluate_text(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(case @ Value::Object(_)) => evaluate(&case),
        Ok(_) => es_error_body(&QueryError::parsing("a case is a JSON object")),
        Err(e) => es_error_body(&QueryError::content(e.to_string())),
    }
}
