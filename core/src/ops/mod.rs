//! Write operations shared by the services, the demo loader and the importer. Each runs in one transaction,
//! so a failure or a crash leaves the tree as it was.

mod create;
pub mod import;
mod layout;
mod move_copy;
mod references;
mod update;
pub mod workflow;
pub mod working_copy;

pub use create::{SideFile, create, create_of_type, create_with_file, requested_type};
pub use move_copy::{copy_into, move_into, reorder};
pub use references::{
    LINK_WIDGET, WriteOrigin, index_relations, is_link_field, lookup_references, resolve_references, stored_targets,
};
pub use update::{OnConflict, check_unlocked, delete, update};

use crate::content::{ContentObject, TypeProfile};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::security::Role;
use crate::site::Site;
use crate::store::{HistoryEntry, Tx};
use std::sync::Arc;

/// A fresh 32-hex-character uid.
pub fn new_uid() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// The initial workflow state of a new object of `profile`, `None` without workflow.
fn initial_state(site: &Site, profile: &TypeProfile) -> Option<String> {
    let first = profile.workflow.first()?;
    site.workflows.get(first).map(|w| w.initial_state.clone())
}

/// Makes the creator the object's Owner and records its initial workflow state.
pub async fn initialise_security(
    site: &Site,
    tx: &mut Tx,
    object: &ContentObject,
    creator: &str,
) -> Result<(), sqlx::Error> {
    if creator != Role::ANONYMOUS {
        tx.set_local_roles(&object.uid, creator, &[Role::OWNER.into()]).await?;
    }
    if let Some(state) = &object.review_state
        && site.types.get(&object.portal_type).is_some_and(|p| !p.workflow.is_empty())
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
fn profile_of(site: &Site, object: &ContentObject) -> ApiResult<Arc<TypeProfile>> {
    site.types
        .get(&object.portal_type)
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

/// Routes the server answers beside its sites (`/openapi.json`, the probes, virtual hosting).
/// A proxy may map a site to the server's root, so the site root keeps their names free too.
const SERVER_ROUTES: [&str; 5] = ["openapi.json", "healthz", "readyz", "metrics", "VirtualHostBase"];

/// The ids a child of `container` may not take: the names of the views that answer there (read
/// from the registry, so a plugin's views count as core's do) and, at the site root, the
/// server's own routes. Traversal looks for a child before a view, so such a child would hide
/// the view: a page called `login` would take the login form away.
pub fn reserved_ids(site: &Site, container: &ContentObject) -> ApiResult<Vec<String>> {
    let profile = &profile_of(site, container)?;
    let mut reserved: Vec<String> = site.registrations.view_names(profile).into_iter().map(str::to_owned).collect();
    if container.is_site_root() {
        reserved.extend(SERVER_ROUTES.iter().map(|route| (*route).to_owned()));
    }
    reserved.sort();
    reserved.dedup();
    Ok(reserved)
}

/// An id for a new child: the requested one (validated, must be free and no view's name) or
/// one made from `title` and made unique.
fn choose_id(
    requested: Option<&str>,
    title: &str,
    fallback: &str,
    taken: &[String],
    reserved: &[String],
) -> ApiResult<String> {
    if let Some(id) = requested {
        if let Some(problem) = crate::content::ids::problem(id) {
            return Err(ApiError::invalid_parameter("id", problem));
        }
        if reserved.iter().any(|r| r == id) {
            return Err(ApiError::invalid_parameter(
                "id",
                format!("'{id}' is the name of a view or route here; choose another id."),
            ));
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
    let unavailable: Vec<String> = taken.iter().chain(reserved).cloned().collect();
    Ok(crate::content::ids::unique(&base, &unavailable))
}
