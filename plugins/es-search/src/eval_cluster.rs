//! `wcs search eval FILE --engine http://host:9200`: the same case on an Elasticsearch cluster,
//! so the embedded engine's answer can be compared with the real one. The case's index is
//! created under a throw-away name (`wcs-eval-<uuid>`) with the case's mapping, the documents
//! are added in order and made visible, the request is run, and the index is deleted again.

use crate::elastic_client::cluster_client;
use elasticsearch::Elasticsearch;
use elasticsearch::http::Method;
use elasticsearch::http::headers::{CONTENT_TYPE, HeaderMap, HeaderValue};
use serde_json::{Value, json};

/// The cluster's answer to the case (its `_search` body, or its error body with `status`);
/// `Err` when the cluster cannot be reached or refuses the index or the documents.
pub async fn evaluate_on_cluster(url: &str, case: &Value) -> Result<Value, String> {
    let (client, _) = cluster_client(url).map_err(|e| e.message)?;
    let index = format!("wcs-eval-{}", uuid_like());
    let mut settings = json!({"number_of_shards": 1, "number_of_replicas": 0});
    if let Some(extra) = case.pointer("/index/settings").and_then(Value::as_object) {
        for (key, value) in extra {
            settings[key] = value.clone();
        }
    }
    let mappings = case.pointer("/index/mappings").cloned().unwrap_or_else(|| json!({}));
    let created = send(
        &client,
        Method::Put,
        &format!("/{index}"),
        json!({"settings": settings, "mappings": mappings}).to_string(),
        false,
    )
    .await?;
    if created.0 >= 300 {
        return Ok(with_status(created));
    }
    let outcome = run(&client, &index, case).await;
    // The throw-away index goes whatever happened.
    let _ = send(&client, Method::Delete, &format!("/{index}"), String::new(), false).await;
    outcome
}

async fn run(client: &Elasticsearch, index: &str, case: &Value) -> Result<Value, String> {
    let mut lines = String::new();
    for (position, doc) in case.get("docs").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let id = crate::declared::document_id(doc, position);
        let mut source = doc.clone();
        if let Some(source) = source.as_object_mut() {
            source.remove("_id");
        }
        lines.push_str(&format!("{}\n{source}\n", json!({"index": {"_index": index, "_id": id}})));
    }
    if !lines.is_empty() {
        let (status, answer) = send(client, Method::Post, "/_bulk?refresh=true", lines, true).await?;
        if status >= 300 || answer["errors"] == true {
            return Err(format!("adding the documents: {status} {answer}"));
        }
    }
    let request = case.get("request").cloned().unwrap_or_else(|| json!({}));
    Ok(with_status(send(client, Method::Post, &format!("/{index}/_search"), request.to_string(), false).await?))
}

/// An answer as printed: a refusal keeps its `status` (Elasticsearch's body has it already).
fn with_status((status, mut answer): (u16, Value)) -> Value {
    if status >= 300 && answer.get("status").is_none() {
        answer["status"] = json!(status);
    }
    answer
}

async fn send(
    client: &Elasticsearch,
    method: Method,
    path: &str,
    body: String,
    ndjson: bool,
) -> Result<(u16, Value), String> {
    let mut headers = HeaderMap::new();
    if ndjson {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
    }
    let body = (!body.is_empty()).then_some(body);
    let response = client
        .send(method, path, headers, Option::<&()>::None, body, None)
        .await
        .map_err(|e| format!("Elasticsearch cannot be reached: {e}"))?;
    let status = response.status_code().as_u16();
    let text = response.text().await.map_err(|e| e.to_string())?;
    Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// A name part unique enough for a throw-away index (time and process).
fn uuid_like() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{nanos:x}-{}", std::process::id())
}
