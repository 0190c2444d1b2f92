//! Changing, renaming and deleting content.

use super::references::index_relations;
use super::{choose_id, conflict_or_internal, profile_of};
use crate::app::App;
use crate::content::ContentObject;
use crate::content::values::ChangeSet;
use crate::http::{ApiError, ApiResult, ErrorCode};

/// Applies validated changes and an optional rename in one transaction; returns the object as
/// stored. Nothing is written (and `modified` stays) when nothing changes. After a rename the
/// old path, and every descendant's, redirects.
pub async fn update(
    app: &App,
    object: &ContentObject,
    changes: &ChangeSet,
    new_id: Option<&str>,
) -> ApiResult<ContentObject> {
    let mut updated = object.clone();
    changes.apply(&mut updated);
    let renaming = new_id.is_some_and(|id| id != object.id);
    if updated == *object && changes.uploads.is_empty() && changes.cleared_blobs.is_empty() && !renaming {
        return Ok(updated);
    }
    updated.modified = chrono::Utc::now();
    let mut tx = app.store.begin().await?;
    tx.update_content(&updated).await?;
    for upload in &changes.uploads {
        tx.put_blob(&updated.uid, upload).await?;
    }
    for field in &changes.cleared_blobs {
        tx.delete_blob(&updated.uid, field).await?;
    }
    let profile = profile_of(app, object)?;
    if profile.relation_fields().any(|f| changes.values.contains_key(&f.name)) {
        index_relations(&mut tx, profile, &updated).await?;
    }
    if let Some(new_id) = new_id.filter(|_| renaming) {
        let Some(parent_uid) = object.parent_uid.as_deref() else {
            return Err(ApiError::new(ErrorCode::BadRequest, "The site root cannot be renamed."));
        };
        let taken = app.store.child_ids(parent_uid).await?;
        let id = choose_id(Some(new_id), "", "", &taken)?;
        let parent_path = &object.path[..object.path.len() - object.id.len() - 1];
        let new_path = format!("{parent_path}/{id}");
        tx.move_subtree(&updated, parent_uid, &new_path, &id, object.position).await.map_err(conflict_or_internal)?;
        updated.path = new_path;
        updated.id = id;
    }
    tx.commit().await.map_err(conflict_or_internal)?;
    Ok(updated)
}

/// Deletes an object with its subtree and blobs.
pub async fn delete(app: &App, object: &ContentObject) -> ApiResult<()> {
    if object.is_site_root() {
        return Err(ApiError::new(ErrorCode::BadRequest, "The site root cannot be deleted."));
    }
    let mut tx = app.store.begin().await?;
    tx.delete_subtree(&object.path).await?;
    tx.commit().await?;
    Ok(())
}
