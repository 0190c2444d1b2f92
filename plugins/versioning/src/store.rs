//! Taking and finding versions.

use crate::MAX_VERSIONS;
use crate::snapshot::Snapshot;
use crate::tables::{NewVersion, VersionInfo, insert_version, version};
use wcs_core::app::App;
use wcs_core::content::ContentObject;
use wcs_core::http::{ApiError, ApiResult};
use wcs_core::ops::working_copy::page_part;
use wcs_core::security::Principal;

/// Freezes `object` with its blocks as a new version; drops the oldest beyond the limit in
/// the same transaction.
pub async fn create_version(
    app: &App,
    object: &ContentObject,
    principal: &Principal,
    comment: &str,
) -> ApiResult<VersionInfo> {
    let part = page_part(app, &app.store.subtree(&object.path).await?);
    let snapshot = Snapshot::of(&part).to_json()?;
    let file_owners: Vec<String> = part.iter().map(|o| o.uid.clone()).collect();
    let (creator, creator_fullname) = match principal {
        Principal::User(user) if !user.fullname.trim().is_empty() => (user.id.clone(), user.fullname.clone()),
        Principal::User(user) => (user.id.clone(), user.id.clone()),
        Principal::Anonymous => ("Anonymous".to_owned(), "Anonymous".to_owned()),
    };
    let info = VersionInfo {
        object_uid: object.uid.clone(),
        seq: 0,
        created: chrono::Utc::now(),
        creator,
        creator_fullname,
        comment: comment.trim().to_owned(),
        title: object.title.clone(),
    };
    let new = NewVersion { info: &info, snapshot: &snapshot, file_owners: &file_owners, keep: MAX_VERSIONS };
    let mut tx = app.store.begin().await?;
    let created = insert_version(&mut tx, &new).await?;
    tx.commit().await?;
    Ok(created)
}

/// The version with the REST id `id` (its number); unknown or malformed ids are 404.
pub async fn find_version(
    app: &App,
    object: &ContentObject,
    id: &str,
    url: &str,
) -> ApiResult<(VersionInfo, Snapshot)> {
    let seq = id.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| ApiError::not_found(url))?;
    load_version(app, &object.uid, seq, url).await
}

/// A version by its number, with its snapshot; gone (deleted meanwhile) is 404.
pub async fn load_version(app: &App, object_uid: &str, seq: i64, url: &str) -> ApiResult<(VersionInfo, Snapshot)> {
    let (info, text) = version(&app.store, object_uid, seq).await?.ok_or_else(|| ApiError::not_found(url))?;
    Ok((info, Snapshot::parse(&text)?))
}

/// The version at browser-view position `index` (0 = the oldest kept), with the list.
pub fn version_at(versions: &[VersionInfo], index: &str) -> Option<VersionInfo> {
    let index = index.trim().parse::<usize>().ok()?;
    // `versions` is newest first; positions count from the oldest.
    versions.len().checked_sub(index + 1).and_then(|i| versions.get(i)).cloned()
}

/// A version's position for the browser views (0 = the oldest kept).
pub fn index_of(versions: &[VersionInfo], seq: i64) -> Option<usize> {
    versions.iter().position(|v| v.seq == seq).map(|i| versions.len() - 1 - i)
}
