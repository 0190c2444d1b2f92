//! Why a query was refused, in Elasticsearch's terms.

use crate::engine::EngineError;
use std::fmt;

/// Elasticsearch's type for "no shard can answer", which a cluster that cannot be reached gets.
const UNAVAILABLE: &str = "unavailable_shards_exception";

/// Why a query was refused, in Elasticsearch's terms (its error `type` and `reason`), so a raw
/// query gets the answer a cluster would give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    /// Elasticsearch's error type, e.g. `parsing_exception`.
    pub es_type: &'static str,
    /// What is wrong.
    pub reason: String,
    /// Found while running on the shard (Elasticsearch then reports
    /// `search_phase_execution_exception`, "all shards failed", with this as the root cause).
    pub on_shard: bool,
    /// What Elasticsearch reports as the cause (`caused_by`: its type and reason), when the
    /// refusal wraps another, as a parser's refusal of a value does.
    pub caused_by: Option<(&'static str, String)>,
}

impl QueryError {
    /// A query that does not parse (`parsing_exception`).
    pub fn parsing(reason: impl Into<String>) -> QueryError {
        QueryError { es_type: "parsing_exception", reason: reason.into(), on_shard: false, caused_by: None }
    }

    /// A body that is not the JSON asked for (`x_content_parse_exception`).
    pub fn content(reason: impl Into<String>) -> QueryError {
        QueryError { es_type: "x_content_parse_exception", reason: reason.into(), on_shard: false, caused_by: None }
    }

    /// A search that failed while running (`search_phase_execution_exception`).
    pub fn execution(reason: impl Into<String>) -> QueryError {
        QueryError {
            es_type: "search_phase_execution_exception",
            reason: reason.into(),
            on_shard: false,
            caused_by: None,
        }
    }

    /// A query the index cannot run as written (`query_shard_exception`, on the shard).
    pub fn shard(reason: impl Into<String>) -> QueryError {
        QueryError { es_type: "query_shard_exception", reason: reason.into(), on_shard: true, caused_by: None }
    }

    /// The same refusal, caused by an `illegal_argument_exception` saying `reason`.
    pub fn caused_by_illegal(self, reason: impl Into<String>) -> QueryError {
        QueryError { caused_by: Some(("illegal_argument_exception", reason.into())), ..self }
    }

    /// The same refusal, found while running on the shard.
    pub fn on_shard(self) -> QueryError {
        QueryError { on_shard: true, ..self }
    }

    /// A mapping or document the index refuses (`mapper_parsing_exception`).
    pub fn mapper(reason: impl Into<String>) -> QueryError {
        QueryError { es_type: "mapper_parsing_exception", reason: reason.into(), on_shard: false, caused_by: None }
    }

    /// The engine could not be reached (`unavailable_shards_exception`, status 503).
    pub fn unavailable(reason: impl Into<String>) -> QueryError {
        QueryError { es_type: UNAVAILABLE, reason: reason.into(), on_shard: false, caused_by: None }
    }

    /// The HTTP status Elasticsearch answers this refusal with.
    pub fn status(&self) -> u16 {
        if self.es_type == UNAVAILABLE { 503 } else { 400 }
    }

    /// A query that parses but asks for what may not be done (`illegal_argument_exception`).
    pub fn illegal(reason: impl Into<String>) -> QueryError {
        QueryError { es_type: "illegal_argument_exception", reason: reason.into(), on_shard: false, caused_by: None }
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl From<QueryError> for EngineError {
    fn from(err: QueryError) -> Self {
        if err.status() == 503 { EngineError::unavailable(err.reason) } else { EngineError::new(err.reason) }
    }
}

impl From<EngineError> for QueryError {
    fn from(err: EngineError) -> Self {
        if err.unavailable { QueryError::unavailable(err.message) } else { QueryError::execution(err.message) }
    }
}
