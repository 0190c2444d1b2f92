//! The Elasticsearch engine (`--search http://host:9200`), through the official `elasticsearch`
//! client. Writes are staged and sent at commit: documents in one `_bulk`, subtree removals as
//! `_delete_by_query`, in the order they were staged, then the change-feed position in a
//! document of its own (`<index>-meta`), so a cluster that fails midway is caught up from the
//! last position it acknowledged. A cluster that cannot be reached makes searches answer 503,
//! and the indexer retries until it is back. The engine trait is synchronous (tantivy is); the
//! client runs on a small runtime of its own, which calls from any thread can wait on.

use crate::dsl::{CustomFields, CustomKind, QueryError};
use crate::elastic_client::cluster_client;
use crate::elastic_docs::{custom_properties, document, index_body};
use crate::elastic_requests::{raw_body, raw_response, refusal, search_body, search_response};
use crate::engine::{
    EngineError, Filters, INDEX_RULES, IndexDoc, RawRequest, SearchEngine, SearchRequest, SearchResponse,
    SuggestOption, Suggestion, TypedValue,
};
use elasticsearch::Elasticsearch;
use elasticsearch::http::Method;
use elasticsearch::http::headers::{CONTENT_TYPE, HeaderMap, HeaderValue};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Mutex;

/// A write waiting for the next commit.
enum Staged {
    /// `_bulk` lines (index and delete actions).
    Bulk(String),
    /// A `_delete_by_query` query.
    DeleteByQuery(Value),
}

/// A site's index on an Elasticsearch cluster.
pub struct ElasticEngine {
    client: Elasticsearch,
    index: String,
    runtime: Option<tokio::runtime::Runtime>,
    staged: Mutex<Vec<Staged>>,
    /// Custom fields already in the index's mapping.
    mapped: Mutex<BTreeSet<String>>,
}

/// A call's outcome: the status and the JSON body (`null` when there is none).
type Answer = (u16, Value);

impl ElasticEngine {
    /// An engine for an index on the cluster at `url`: the index the URL's path names
    /// (`http://host:9200/my-site`), else `default_index`. The index is created with its mapping
    /// when missing. A cluster that cannot be reached is no error here: the engine answers 503
    /// and the indexer retries until it is back.
    pub fn connect(url: &str, default_index: &str) -> Result<ElasticEngine, EngineError> {
        let (client, named) = cluster_client(url)?;
        let index = named.unwrap_or_else(|| default_index.to_owned());
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("wcs-elasticsearch")
            .enable_all()
            .build()
            .map_err(|e| EngineError::new(e.to_string()))?;
        let engine = ElasticEngine {
            client,
            index,
            runtime: Some(runtime),
            staged: Mutex::new(Vec::new()),
            mapped: Mutex::new(BTreeSet::new()),
        };
        match engine.ensure_index() {
            Err(err) if err.unavailable => tracing::warn!(%err, "Elasticsearch cannot be reached yet"),
            other => other?,
        }
        Ok(engine)
    }

    /// Sends one request and waits for the answer.
    fn call(&self, method: Method, path: String, body: Option<String>, ndjson: bool) -> Result<Answer, EngineError> {
        let runtime = self.runtime.as_ref().ok_or_else(|| EngineError::new("the engine is shut down"))?;
        let client = self.client.clone();
        let (sender, receiver) = std::sync::mpsc::channel();
        runtime.spawn(async move {
            let mut headers = HeaderMap::new();
            if ndjson {
                headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
            }
            let outcome = async {
                let response = client.send(method, &path, headers, Option::<&()>::None, body, None).await?;
                let status = response.status_code().as_u16();
                let text = response.text().await?;
                Ok::<_, elasticsearch::Error>((status, text))
            }
            .await;
            let _ = sender.send(outcome);
        });
        let (status, text) = receiver
            .recv()
            .map_err(|_| EngineError::new("the Elasticsearch call was dropped"))?
            .map_err(|e| EngineError::unavailable(format!("Elasticsearch: {e}")))?;
        if status == 503 || status == 429 {
            return Err(EngineError::unavailable(format!("Elasticsearch answered {status}")));
        }
        let body =
            if text.trim().is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap_or(Value::Null) };
        Ok((status, body))
    }

    /// A call whose answer must be a success.
    fn expect(&self, method: Method, path: String, body: Option<Value>) -> Result<Value, EngineError> {
        let (status, answer) = self.call(method, path.clone(), body.map(|b| b.to_string()), false)?;
        if (200..300).contains(&status) {
            Ok(answer)
        } else {
            Err(EngineError::new(format!("Elasticsearch {path}: {status} {answer}")))
        }
    }

    fn meta(&self) -> String {
        format!("{}-meta", self.index)
    }

    /// Creates the index and the position's index when they are missing, and gives an existing
    /// index the fields it lacks.
    fn ensure_index(&self) -> Result<(), EngineError> {
        for (name, body) in [
            (self.index.clone(), index_body(&CustomFields::new())),
            (self.meta(), json!({"mappings": {"dynamic": false}})),
        ] {
            let (status, _) = self.call(Method::Head, format!("/{name}"), None, false)?;
            if status != 404 && name == self.index {
                // An index made under older rules lacks the fields added since (the languages'
                // copies of the text): new fields join an existing mapping, old ones stay.
                let mapping = body["mappings"].to_string();
                let (status, answer) = self.call(Method::Put, format!("/{name}/_mapping"), Some(mapping), false)?;
                if !(200..300).contains(&status) {
                    return Err(EngineError::new(format!("updating the mapping of {name}: {status} {answer}")));
                }
            } else if status == 404 {
                let (status, answer) = self.call(Method::Put, format!("/{name}"), Some(body.to_string()), false)?;
                let raced =
                    answer.pointer("/error/type").and_then(Value::as_str) == Some("resource_already_exists_exception");
                if !(200..300).contains(&status) && !raced {
                    return Err(EngineError::new(format!("creating {name}: {status} {answer}")));
                }
            }
        }
        Ok(())
    }

    /// Adds the custom fields of `docs` the mapping does not have yet.
    fn map_custom_fields(&self, docs: &[IndexDoc]) -> Result<(), EngineError> {
        let mut kinds = CustomFields::new();
        for doc in docs {
            kinds.extend(doc.custom_text.iter().map(|(name, _)| (name.clone(), CustomKind::Text)));
            kinds.extend(doc.custom_keyword.iter().map(|(name, _)| (name.clone(), CustomKind::Keyword)));
            kinds.extend(doc.custom_typed.iter().map(|(name, value)| {
                let kind = match value {
                    TypedValue::Integer(_) => CustomKind::Integer,
                    TypedValue::Float(_) => CustomKind::Float,
                    TypedValue::Boolean(_) => CustomKind::Boolean,
                    TypedValue::Date(_) => CustomKind::Date,
                };
                (name.clone(), kind)
            }));
        }
        let mut mapped = self.mapped.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        kinds.retain(|name, _| !mapped.contains(name));
        if kinds.is_empty() {
            return Ok(());
        }
        self.ensure_index()?;
        let body = json!({"properties": custom_properties(&kinds)});
        self.expect(Method::Put, format!("/{}/_mapping", self.index), Some(body))?;
        mapped.extend(kinds.into_keys());
        Ok(())
    }

    fn stage(&self, write: Staged) {
        self.staged.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(write);
    }

    /// Sends one run of bulk lines; any failed item fails the commit.
    fn bulk(&self, lines: String) -> Result<(), EngineError> {
        let (status, answer) = self.call(Method::Post, "/_bulk?refresh=wait_for".into(), Some(lines), true)?;
        if !(200..300).contains(&status) {
            return Err(EngineError::new(format!("Elasticsearch _bulk: {status} {answer}")));
        }
        if answer["errors"] == true {
            let failed = answer["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|item| item.as_object()?.values().next()?.get("error").cloned())
                .find(|error| error["type"] != "document_missing_exception");
            if let Some(error) = failed {
                return Err(EngineError::new(format!("Elasticsearch _bulk: {error}")));
            }
        }
        Ok(())
    }

    /// How many documents the caller may see match `match_query`, for each query (one
    /// `_msearch`).
    fn visible_counts(&self, queries: &[Value], filters: &Filters) -> Result<Vec<u64>, EngineError> {
        if queries.is_empty() {
            return Ok(Vec::new());
        }
        let mut lines = String::new();
        for query in queries {
            let clauses = crate::elastic_requests::filter_clauses(filters);
            let body =
                json!({"size": 0, "track_total_hits": 1, "query": {"bool": {"must": [query], "filter": clauses}}});
            lines.push_str(&format!("{{\"index\":\"{}\"}}\n{body}\n", self.index));
        }
        let (status, answer) = self.call(Method::Post, "/_msearch".into(), Some(lines), true)?;
        if !(200..300).contains(&status) {
            return Err(EngineError::new(format!("Elasticsearch _msearch: {status} {answer}")));
        }
        Ok(answer["responses"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|response| response.pointer("/hits/total/value").and_then(Value::as_u64).unwrap_or(0))
            .collect())
    }
}

impl Drop for ElasticEngine {
    fn drop(&mut self) {
        // Dropped from async code too, where waiting for the runtime's threads is not allowed.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl SearchEngine for ElasticEngine {
    fn name(&self) -> &'static str {
        "elasticsearch"
    }

    fn index(&self, docs: &[IndexDoc]) -> Result<(), EngineError> {
        self.map_custom_fields(docs)?;
        let mut lines = String::new();
        for doc in docs {
            lines.push_str(&format!(
                "{}\n{}\n",
                json!({"index": {"_index": self.index, "_id": doc.uid}}),
                document(doc)
            ));
        }
        if !lines.is_empty() {
            self.stage(Staged::Bulk(lines));
        }
        Ok(())
    }

    fn delete(&self, uids: &[String]) -> Result<(), EngineError> {
        let lines: String =
            uids.iter().map(|uid| format!("{}\n", json!({"delete": {"_index": self.index, "_id": uid}}))).collect();
        if !lines.is_empty() {
            self.stage(Staged::Bulk(lines));
        }
        Ok(())
    }

    fn delete_under(&self, path: &str) -> Result<(), EngineError> {
        self.stage(Staged::DeleteByQuery(json!({"term": {"path": path}})));
        Ok(())
    }

    fn path_of(&self, uid: &str) -> Result<Option<String>, EngineError> {
        let id = percent_encoding::utf8_percent_encode(uid, percent_encoding::NON_ALPHANUMERIC);
        let (status, answer) =
            self.call(Method::Get, format!("/{}/_doc/{id}?_source_includes=getPath", self.index), None, false)?;
        match status {
            404 => Ok(None),
            200..300 => Ok(answer.pointer("/_source/getPath").and_then(Value::as_str).map(str::to_owned)),
            other => Err(EngineError::new(format!("Elasticsearch _doc: {other} {answer}"))),
        }
    }

    fn clear(&self) -> Result<(), EngineError> {
        self.stage(Staged::DeleteByQuery(json!({"match_all": {}})));
        Ok(())
    }

    fn commit(&self, position: i64) -> Result<(), EngineError> {
        // Taken whatever happens: after a failure the indexer stages the same changes again
        // from the last position the cluster acknowledged.
        let staged = std::mem::take(&mut *self.staged.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        self.ensure_index()?;
        for write in staged {
            match write {
                Staged::Bulk(lines) => self.bulk(lines)?,
                Staged::DeleteByQuery(query) => {
                    let path = format!("/{}/_delete_by_query?refresh=true&conflicts=proceed", self.index);
                    self.expect(Method::Post, path, Some(json!({"query": query})))?;
                }
            }
        }
        let path = format!("/{}/_doc/position?refresh=true", self.meta());
        self.expect(Method::Put, path, Some(json!({"position": position, "rules": INDEX_RULES})))?;
        Ok(())
    }

    fn documents(&self) -> u64 {
        let answer = self.expect(Method::Get, format!("/{}/_count", self.index), None);
        answer.ok().and_then(|a| a["count"].as_u64()).unwrap_or(0)
    }

    fn position(&self) -> Result<Option<i64>, EngineError> {
        let (status, answer) = self.call(Method::Get, format!("/{}/_doc/position", self.meta()), None, false)?;
        match status {
            404 => Ok(None),
            200..300 => {
                let current = answer.pointer("/_source/rules").and_then(Value::as_u64) == Some(u64::from(INDEX_RULES));
                Ok(answer.pointer("/_source/position").and_then(Value::as_i64).filter(|_| current))
            }
            other => Err(EngineError::new(format!("Elasticsearch position: {other} {answer}"))),
        }
    }

    fn search(&self, request: &SearchRequest) -> Result<SearchResponse, EngineError> {
        if request.query.is_none() {
            return Ok(SearchResponse::default());
        }
        let body = search_body(request).to_string();
        let (status, answer) = self.call(Method::Post, format!("/{}/_search", self.index), Some(body), false)?;
        if (200..300).contains(&status) {
            Ok(search_response(&answer))
        } else {
            Err(EngineError::new(refusal(&answer).reason))
        }
    }

    fn raw(&self, request: &RawRequest) -> Result<Value, QueryError> {
        let body = raw_body(request).to_string();
        let (status, answer) = self.call(Method::Post, format!("/{}/_search", self.index), Some(body), false)?;
        if (200..300).contains(&status) {
            Ok(raw_response(answer, request, &request.custom))
        } else {
            Err(refusal(&answer))
        }
    }

    fn suggest(
        &self,
        text: &str,
        filters: &Filters,
        max_edits: usize,
        size: usize,
    ) -> Result<Vec<Suggestion>, EngineError> {
        let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).take(20).collect();
        let matching = |word: &str| json!({"match": {"SearchableText": word}});
        // Only words that find nothing the caller may see need help.
        let found = self.visible_counts(&words.iter().map(|w| matching(w)).collect::<Vec<_>>(), filters)?;
        let mut suggestions = Vec::new();
        for (word, _) in words.iter().zip(found).filter(|(_, count)| *count == 0) {
            let body = json!({"size": 0, "suggest": {"s": {"text": word, "term": {
                "field": "SearchableText", "suggest_mode": "always", "max_edits": max_edits.clamp(1, 2), "size": size * 3}}}});
            let answer = self.expect(Method::Post, format!("/{}/_search", self.index), Some(body))?;
            let candidates: Vec<(String, f32)> = answer
                .pointer("/suggest/s/0/options")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|o| Some((o["text"].as_str()?.to_owned(), o["score"].as_f64().unwrap_or(0.0) as f32)))
                .collect();
            // The cluster suggests from every document: keep what the caller may see.
            let visible =
                self.visible_counts(&candidates.iter().map(|(t, _)| matching(t)).collect::<Vec<_>>(), filters)?;
            let options: Vec<SuggestOption> = candidates
                .into_iter()
                .zip(visible)
                .filter(|(_, count)| *count > 0)
                .map(|((text, score), _)| SuggestOption { text, score })
                .take(size)
                .collect();
            if !options.is_empty() {
                suggestions.push(Suggestion { text: (*word).to_owned(), options });
            }
        }
        Ok(suggestions)
    }
}
