//! `@workflow` on any object: its state, the transitions the caller may fire and the history
//! (GET), and firing a transition (POST `@workflow/<transition>`); one method per file.

pub mod get;
pub mod post;

use crate::content::values::format_time;
use crate::http::schema::Nullable;
use crate::http::{ApiError, ApiResult};
use crate::i18n::Translator;
use crate::store::HistoryEntry;
use crate::workflow::Workflow;
use poem_openapi::Object;
use serde_json::{Map, Value};

/// A history entry on the wire: `comment` (as the spec names it) and `comments` (as
/// plone.restapi clients read it) carry the same text.
#[derive(Object)]
pub struct WorkflowEntry {
    /// The transition; null for the creation.
    pub action: Nullable<String>,
    /// Who fired it.
    pub actor: String,
    /// The editor's comment.
    pub comment: String,
    /// The same comment, as plone.restapi clients read it.
    pub comments: String,
    /// The state afterwards.
    pub review_state: String,
    /// When (ISO 8601).
    pub time: String,
    /// The state's title.
    pub title: String,
}

/// A history entry on the wire.
pub fn workflow_entry(workflow: Option<&Workflow>, entry: &HistoryEntry, translator: &Translator<'_>) -> WorkflowEntry {
    let state = workflow.and_then(|w| w.state(&entry.review_state));
    WorkflowEntry {
        action: Nullable(entry.action.clone()),
        actor: entry.actor.clone(),
        comment: entry.comment.clone(),
        comments: entry.comment.clone(),
        review_state: entry.review_state.clone(),
        time: format_time(entry.time),
        title: state.map_or_else(|| entry.review_state.clone(), |s| translator.state_title(s)),
    }
}

/// The body of a transition or a state change.
#[derive(Object)]
pub struct TransitionBody {
    /// Why, at most 10,000 characters.
    pub comment: Option<String>,
    /// Also fire the transition on everything inside (where the caller may).
    pub include_children: Option<bool>,
    /// When the object becomes visible (ISO 8601).
    pub effective: Option<String>,
    /// When it stops being visible (ISO 8601).
    pub expires: Option<String>,
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
