//! Changing, renaming and deleting content.

use super::references::index_relations;
use super::{choose_id, conflict_or_internal, moved_meanwhile, profile_of, reserved_ids};
use crate::content::ContentObject;
use crate::content::layout::LAYOUT_FIELD;
use crate::content::values::{ChangeSet, DEFAULT_PAGE};
use crate::error::{ApiError, ApiResult, ErrorCode, FieldError};
use crate::site::Site;
use chrono::SubsecRound;
use std::borrow::Cow;
use std::sync::Arc;

/// How many times a change is applied again when another write landed after the version it
/// was built on was read.
const ATTEMPTS: usize = 5;

/// What to do when the object changed after the caller read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnConflict {
    /// Apply the changes to the object as it is now (a PATCH sets fields, it does not undo
    /// the other write's).
    Reapply,
    /// Refuse with 412: the caller made the change conditional on the state it read
    /// (`If-Match`).
    Refuse,
}

/// Applies validated changes and an optional rename in one transaction; returns the object as
/// stored. Nothing is written (and `modified` stays) when nothing changes. After a rename the
/// old path, and every descendant's, redirects. A write that lands meanwhile is never undone:
/// the changes are applied again to the newer object, or refused, as `on_conflict` says.
pub async fn update(
    site: &Site,
    object: &ContentObject,
    changes: &ChangeSet,
    new_id: Option<&str>,
    on_conflict: OnConflict,
) -> ApiResult<Arc<ContentObject>> {
    let profile = &profile_of(site, object)?;
    check_unlocked(site, object).await?;
    let mut changes = Cow::Borrowed(changes);
    let arranged = match changes.values.get(LAYOUT_FIELD) {
        Some(requested) if profile.has_blocks() && !requested.is_null() => {
            let (layout, ids) = super::layout::arrange(site, object, requested).await?;
            changes.to_mut().values.insert(LAYOUT_FIELD.to_owned(), layout);
            Some(ids)
        }
        _ => None,
    };
    check_default_page(site, object, &changes).await?;
    let mut tx = site.store.begin().await?;
    // What the write builds on: the object as the caller read it, or, once the write turn is
    // ours, the newer version this process wrote since (see `Store::newest_written`). A write
    // to it is guarded, and only if another write came between is the object read again.
    let newest = match on_conflict {
        OnConflict::Reapply => site.store.newest_written(object),
        OnConflict::Refuse => None,
    };
    let mut base = Cow::Borrowed(newest.as_deref().unwrap_or(object));
    for _ in 0..ATTEMPTS {
        let mut updated = ContentObject::clone(&base);
        changes.apply(&mut updated);
        crate::content::check_event_dates(profile, &updated)?;
        let renaming = new_id.is_some_and(|id| id != base.id);
        let unchanged = updated == *base;
        // Values of fields removed through the web stay stored until the object is next saved.
        for removed in &profile.removed_fields {
            updated.fields.remove(removed);
        }
        if unchanged && changes.uploads.is_empty() && changes.cleared_blobs.is_empty() && !renaming {
            return Ok(Arc::new(updated));
        }
        // Later than the stored time even on a clock that stepped back, so the state always
        // moves; to the microsecond, as stored, so the answer's ETag is the next read's.
        updated.modified = chrono::Utc::now().trunc_subsecs(6).max(base.modified + chrono::Duration::microseconds(1));
        // Shared with what the store remembers of the write, and with the caller: not copied.
        let mut updated = Arc::new(updated);
        if !tx.update_content_unless_changed(&base, &updated).await? {
            // On SQLite nothing can come between this read and the commit; on PostgreSQL the
            // guarded write notices a write that does.
            base = match tx.content_by_uid(&object.uid).await? {
                Some(_) if on_conflict == OnConflict::Refuse => {
                    return Err(ApiError::new(
                        ErrorCode::PreconditionFailed,
                        "The object changed after the state named in If-Match; read it again.",
                    ));
                }
                Some(stored) if !stored.is_trashed() => Cow::Owned(stored),
                _ => return Err(ApiError::new(ErrorCode::Conflict, "The object was deleted meanwhile.")),
            };
            continue;
        }
        if let Some(ids) = &arranged {
            tx.set_positions(&base.uid, ids).await?;
        }
        for upload in &changes.uploads {
            tx.put_blob(&updated.uid, upload).await?;
        }
        for field in &changes.cleared_blobs {
            tx.delete_blob(&updated.uid, field).await?;
        }
        if profile.relation_fields().any(|f| changes.values.contains_key(&f.name)) {
            index_relations(&mut tx, profile, &updated).await?;
        }
        if let Some(new_id) = new_id.filter(|_| renaming) {
            rename(site, &mut tx, &base, Arc::make_mut(&mut updated), new_id).await?;
        }
        for hook in site.registrations.update_hooks() {
            (hook.run)(site, &mut tx, &base, &updated).await?;
        }
        tx.commit().await?;
        return Ok(updated);
    }
    Err(ApiError::new(ErrorCode::Conflict, "The object keeps changing; try again."))
}

/// Moves `updated` to `new_id` in its container; every old path redirects.
async fn rename(
    site: &Site,
    tx: &mut crate::store::Tx,
    base: &ContentObject,
    updated: &mut ContentObject,
    new_id: &str,
) -> ApiResult<()> {
    let Some(parent_uid) = base.parent_uid.as_deref() else {
        return Err(ApiError::new(ErrorCode::BadRequest, "The site root cannot be renamed."));
    };
    let taken = site.store.child_ids(parent_uid).await?;
    let parent = site.store.content_by_uids(&[parent_uid.to_owned()]).await?.pop().ok_or_else(moved_meanwhile)?;
    let id = choose_id(Some(new_id), "", "", &taken, &reserved_ids(site, &parent)?)?;
    let parent_path = &base.path[..base.path.len() - base.id.len() - 1];
    let new_path = format!("{parent_path}/{id}");
    if !tx.move_subtree(updated, parent_uid, &new_path, &id, base.position).await.map_err(conflict_or_internal)? {
        return Err(moved_meanwhile());
    }
    updated.path = new_path;
    updated.id = id;
    Ok(())
}

/// Refuses to change a baseline while a working copy of it is checked out: the check-in
/// would silently overwrite the change.
pub async fn check_unlocked(site: &Site, object: &ContentObject) -> ApiResult<()> {
    match site.store.working_copy_path(&object.uid).await? {
        Some(path) => Err(ApiError::new(
            ErrorCode::Locked,
            format!("This object is checked out to the working copy {path}; check it in or cancel it first."),
        )),
        None => Ok(()),
    }
}

/// A default page must be a child that is not a block.
async fn check_default_page(site: &Site, object: &ContentObject, changes: &ChangeSet) -> ApiResult<()> {
    let Some(id) = changes.values.get(DEFAULT_PAGE).and_then(|v| v.as_str()) else {
        return Ok(());
    };
    let child = site.store.content_at_path(&format!("{}/{id}", object.path)).await?;
    match child {
        Some(child) if !profile_of(site, &child)?.is_block() => Ok(()),
        _ => Err(ApiError::validation(vec![FieldError::new(
            DEFAULT_PAGE,
            format!("'{id}' is not a child of this folder that can be its default page."),
        )])),
    }
}

/// Deletes an object with its subtree and blobs. A baseline with a working copy is locked.
/// An object moved or deleted since the caller found it is a 409: deleting by its old path
/// would remove nothing, or something else, while reporting it gone.
pub async fn delete(site: &Site, object: &ContentObject) -> ApiResult<()> {
    if object.is_site_root() {
        return Err(ApiError::new(ErrorCode::BadRequest, "The site root cannot be deleted."));
    }
    check_unlocked(site, object).await?;
    let mut tx = site.store.begin().await?;
    match tx.content_by_uid(&object.uid).await? {
        Some(current) if current.path == object.path => {}
        _ => return Err(moved_meanwhile()),
    }
    tx.delete_subtree(object).await?;
    tx.commit().await?;
    Ok(())
}
