//! `@workflow` on any object: its state, the transitions the caller may fire and the history
//! (GET), and firing a transition (POST `@workflow/<transition>`); one method per file.

pub mod get;
pub mod post;

use crate::content::values::format_time;
use crate::http::{ApiError, ApiResult};
use crate::store::HistoryEntry;
use crate::workflow::Workflow;
use serde_json::{Map, Value, json};

/// A history entry on the wire: `comment` (as the spec names it) and `comments` (as
/// plone.restapi clients read it) carry the same text.
pub fn entry_json(workflow: Option<&Workflow>, entry: &HistoryEntry) -> Value {
    let title =
        workflow.and_then(|w| w.state(&entry.review_state)).map_or(entry.review_state.as_str(), |s| s.title.as_str());
    json!({
        "action": entry.action,
        "actor": entry.actor,
        "comment": entry.comment,
        "comments": entry.comment,
        "review_state": entry.review_state,
        "time": format_time(entry.time),
        "title": title,
    })
}

/// The optional `comment` of a transition or a state change.
pub fn comment(body: &Map<String, Value>) -> ApiResult<String> {
    match body.get("comment") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) if text.chars().count() <= 10_000 => Ok(text.clone()),
        Some(_) => {
            Err(ApiError::invalid_parameter("comment", "The comment must be a string of at most 10000 characters."))
        }
    }
}
