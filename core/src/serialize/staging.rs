//! The working-copy keys of content serializations and of `GET @workingcopy`.

use crate::api::schema::Nullable;
use crate::content::ContentObject;
use crate::content::values::format_time;
use crate::error::ApiResult;
use crate::ops::working_copy::WorkingCopyPair;
use crate::site::Site;
use crate::store::{LockInfo, checkout_lock, unlocked};
use poem_openapi::Object;

/// The baseline / working copy pair, as content serializations carry it too.
#[derive(Object)]
pub struct WorkingCopyInfo {
    /// The working copy; null when nothing is checked out.
    pub working_copy: Nullable<WorkingCopyItem>,
    /// The original it was checked out from; null when nothing is checked out.
    pub working_copy_of: Nullable<WorkingCopyBaseline>,
}

/// A working copy.
#[derive(Object)]
pub struct WorkingCopyItem {
    /// Its URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// Its title.
    pub title: String,
    /// When it was checked out (ISO 8601).
    pub created: String,
    /// Who checked it out: the full name, else the user id.
    pub creator_name: String,
    /// Their author page.
    pub creator_url: String,
}

/// The original of a working copy.
#[derive(Object)]
pub struct WorkingCopyBaseline {
    /// Its URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// Its title.
    pub title: String,
}

impl WorkingCopyInfo {
    /// Nothing checked out (or a caller who may not know).
    pub fn none() -> Self {
        WorkingCopyInfo { working_copy: Nullable(None), working_copy_of: Nullable(None) }
    }
}

/// `{working_copy, working_copy_of}` of `object` as plone.restapi shapes them, URLs on
/// `base_url`: both null when nothing is checked out; on the baseline, the working copy only;
/// on the working copy, both.
pub async fn working_copy_info(
    site: &Site,
    base_url: &str,
    object: &ContentObject,
    pair: Option<&WorkingCopyPair>,
) -> ApiResult<WorkingCopyInfo> {
    let Some(WorkingCopyPair { baseline, working_copy }) = pair else {
        return Ok(WorkingCopyInfo::none());
    };
    let creator = site.store.principal(&working_copy.creator).await?;
    let creator_name = creator.map(|p| p.fullname).filter(|n| !n.is_empty()).unwrap_or(working_copy.creator.clone());
    let copy = WorkingCopyItem {
        url: working_copy.url(base_url),
        title: working_copy.title.clone(),
        created: format_time(working_copy.created),
        creator_name,
        creator_url: format!("{base_url}/{}/author/{}", working_copy.site_id(), working_copy.creator),
    };
    let original = (object.uid != baseline.uid)
        .then(|| WorkingCopyBaseline { url: baseline.url(base_url), title: baseline.title.clone() });
    Ok(WorkingCopyInfo { working_copy: Nullable(Some(copy)), working_copy_of: Nullable(original) })
}

/// The lock `object` shows to `viewer`: its editing lock while that holds; else, while it is
/// checked out (`pair`, as [`crate::ops::working_copy::pair_of`] found it), the working
/// copy's; else none.
pub async fn shown_lock(
    site: &Site,
    object: &ContentObject,
    pair: Option<&WorkingCopyPair>,
    site_url: &str,
    viewer: Option<&str>,
) -> ApiResult<LockInfo> {
    let now = chrono::Utc::now().timestamp();
    if let Some(lock) = site.store.lock_of(&object.uid).await?.filter(|l| l.holds_at(now)) {
        return Ok(lock.info(site_url, viewer));
    }
    Ok(match pair {
        Some(WorkingCopyPair { baseline, working_copy }) if baseline.uid == object.uid => {
            checkout_lock(&working_copy.creator, working_copy.created, site_url)
        }
        _ => unlocked(),
    })
}
