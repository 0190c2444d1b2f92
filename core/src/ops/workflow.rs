//! Workflow changes: transitions (guarded) and setting a state directly. Each updates the
//! object's state, appends history and recomputes the security of the object and its subtree,
//! all in one transaction.

use super::profile_of;
use crate::content::ContentObject;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::site::Site;
use crate::store::{HistoryEntry, Tx};
use crate::workflow::Workflow;
use chrono::{DateTime, Utc};

/// What a transition request may set besides the state.
#[derive(Clone, Debug, Default)]
pub struct TransitionRequest {
    /// The editor's comment.
    pub comment: String,
    /// A new publication date.
    pub effective: Option<DateTime<Utc>>,
    /// A new expiry date.
    pub expires: Option<DateTime<Utc>>,
}

/// The single workflow of an object, or a 400 explaining why there is none.
pub fn workflow_of<'a>(site: &'a Site, object: &ContentObject) -> ApiResult<Option<&'a Workflow>> {
    let profile = &profile_of(site, object)?;
    match profile.workflow.as_slice() {
        [] => Ok(None),
        [only] => Ok(site.workflows.get(only)),
        _ => Err(ApiError::new(
            ErrorCode::ValueError,
            format!("{} has several workflows; a state cannot be chosen unambiguously.", object.portal_type),
        )),
    }
}

/// Moves `object` to `new_state` and records `action`; the state must exist in its workflow.
async fn change_state(
    tx: &mut Tx,
    object: &ContentObject,
    new_state: &str,
    action: &str,
    actor: &str,
    request: &TransitionRequest,
) -> ApiResult<HistoryEntry> {
    let now = Utc::now();
    let mut updated = object.clone();
    updated.review_state = Some(new_state.to_owned());
    updated.modified = now;
    if request.effective.is_some() {
        updated.effective = request.effective;
    } else if new_state == "published" && updated.effective.is_none() {
        updated.effective = Some(now);
    }
    if request.expires.is_some() {
        updated.expires = request.expires;
    }
    tx.update_content(object, &updated).await?;
    let entry = HistoryEntry {
        action: Some(action.to_owned()),
        actor: actor.to_owned(),
        comment: request.comment.clone(),
        review_state: new_state.to_owned(),
        time: now,
    };
    tx.append_history(&object.uid, &entry).await?;
    Ok(entry)
}

/// Fires `transition` on each of `objects` (the first is the one requested; the rest are
/// children for `include_children`, skipped when the transition does not apply to them).
pub async fn transition(
    site: &Site,
    objects: &[ContentObject],
    transition: &str,
    actor: &str,
    request: &TransitionRequest,
) -> ApiResult<HistoryEntry> {
    let mut tx = site.store.begin().await?;
    let mut first_entry = None;
    for object in objects {
        let Some(workflow) = workflow_of(site, object)? else { continue };
        let state = object.review_state.as_deref().unwrap_or_default();
        let Some(step) = workflow.transitions_from(state).find(|t| t.id == transition) else { continue };
        let entry = change_state(&mut tx, object, &step.new_state, &step.id, actor, request).await?;
        first_entry.get_or_insert(entry);
    }
    let entry = first_entry
        .ok_or_else(|| ApiError::new(ErrorCode::WorkflowError, format!("Invalid transition '{transition}'.")))?;
    tx.commit().await?;
    Ok(entry)
}

/// Sets `state` directly, bypassing transitions (`@workflow-set-state`).
pub async fn set_state(
    site: &Site,
    object: &ContentObject,
    state: &str,
    actor: &str,
    comment: &str,
) -> ApiResult<HistoryEntry> {
    let workflow = workflow_of(site, object)?
        .ok_or_else(|| ApiError::new(ErrorCode::ValueError, format!("{} has no workflow.", object.portal_type)))?;
    if workflow.state(state).is_none() {
        return Err(ApiError::new(
            ErrorCode::WorkflowError,
            format!("'{state}' is not a state of the workflow {}.", workflow.id),
        ));
    }
    let request = TransitionRequest { comment: comment.to_owned(), ..TransitionRequest::default() };
    let mut tx = site.store.begin().await?;
    let entry = change_state(&mut tx, object, state, "set state", actor, &request).await?;
    tx.commit().await?;
    Ok(entry)
}
