//! Write operations shared by the services and the demo loader. Each runs in one transaction,
//! so a failure or a crash leaves the tree as it was.

mod create;
mod layout;
mod move_copy;
mod references;
mod update;
pub mod workflow;
pub mod working_copy;

pub use create::create;
pub use move_copy::{copy_into, move_into, reorder};
pub use references::{
    LINK_WIDGET, WriteOrigin, index_relations, is_link_field, lookup_references, resolve_references, stored_targets,
};
pub use update::{OnConflict, check_unlocked, delete, update};

use crate::app::App;
use crate::content::{ContentObject, TypeProfile};
use crate::http::{ApiError, ApiResult, ErrorCode};
use crate::store::{HistoryEntry, Tx};

/// A fresh 32-hex-character uid.
pub fn new_uid() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// The initial workflow state of a new object of `profile`, `None` without workflow.
fn initial_state(app: &App, profile: &TypeProfile) -> Option<String> {
    let first = profile.workflow.first()?;
    app.workflows.get(first).map(|w| w.initial_state.clone())
}

/// Makes the creator the object's Owner and records its initial workflow state.
pub async fn initialise_security(
    app: &App,
    tx: &mut Tx,
    object: &ContentObject,
    creator: &str,
) -> Result<(), sqlx::Error> {
    if creator != "Anonymous" {
        tx.set_local_roles(&object.uid, creator, &["Owner".to_owned()]).await?;
    }
    if let Some(state) = &object.review_state
        && app.types.get(&object.portal_type).is_some_and(|p| !p.workflow.is_empty())
    {
        let entry = HistoryEntry {
            action: None,
            actor: creator.to_owned(),
            comment: String::new(),
            review_state: state.clone(),
            time: object.created,
        };
        tx.append_history(&object.uid, &entry).await?;
    }
    Ok(())
}

/// The profile of an object; a missing one means the types changed under stored content.
fn profile_of<'a>(app: &'a App, object: &ContentObject) -> ApiResult<&'a TypeProfile> {
    app.types
        .get(&object.portal_type)
        .map(|p| p.as_ref())
        .ok_or_else(|| ApiError::internal(format!("unknown portal type {}", object.portal_type)))
}

/// Maps a unique-constraint failure (a concurrent write took the id) to 409.
fn conflict_or_internal(err: sqlx::Error) -> ApiError {
    if crate::store::is_unique_violation(&err) {
        ApiError::new(ErrorCode::Conflict, "An object with this id was created at the same time; try again.")
    } else {
        // A deadlock with a concurrent write is a conflict too; anything else is internal.
        ApiError::from(err)
    }
}

/// The answer when an object changed place under a request that was moving it: the caller
/// reloads and decides again.
fn moved_meanwhile() -> ApiError {
    ApiError::new(ErrorCode::Conflict, "The object was moved or deleted at the same time; reload and try again.")
}

/// An id for a new child: the requested one (validated, must be free) or one made from
/// `title` and made unique.
fn choose_id(requested: Option<&str>, title: &str, fallback: &str, taken: &[String]) -> ApiResult<String> {
    if let Some(id) = requested {
        if let Some(problem) = crate::content::ids::problem(id) {
            return Err(ApiError::invalid_parameter("id", problem));
        }
        if taken.iter().any(|t| t == id) {
            return Err(ApiError::new(ErrorCode::Conflict, format!("The id '{id}' is already in use here.")));
        }
        return Ok(id.to_owned());
    }
    let mut base = crate::content::ids::normalize(title);
    if base.is_empty() {
        base = crate::content::ids::normalize(fallback);
    }
    Ok(crate::content::ids::unique(&base, taken))
}
