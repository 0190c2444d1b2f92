//! Objects a moved site brings along (`wcs import-plone`), written as they were: their uid,
//! place, dates, creator, review state, workflow history and local roles are the old site's,
//! where a create would make new ones. The caller checks and builds them; this writes one in
//! the caller's transaction, so a batch of them commits (and derives its facts) at once.

use super::{conflict_or_internal, index_relations, profile_of};
use crate::content::ContentObject;
use crate::content::values::BlobUpload;
use crate::error::ApiResult;
use crate::site::Site;
use crate::store::{HistoryEntry, Tx};

/// One object as the old site had it.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The object, complete: uid, parent, path, id, position, dates, creator, state, fields.
    pub object: ContentObject,
    /// Its files' bytes, checked as uploads are.
    pub uploads: Vec<BlobUpload>,
    /// Its workflow history, oldest first.
    pub history: Vec<HistoryEntry>,
    /// Its own local roles, by principal (the old creator's `Owner` among them).
    pub local_roles: Vec<(String, Vec<String>)>,
}

/// Inserts `item` in `tx`; its relations are indexed as a create indexes them.
pub async fn insert_imported(site: &Site, tx: &mut Tx, item: &Imported) -> ApiResult<()> {
    let object = &item.object;
    let profile = profile_of(site, object)?;
    tx.insert_content(object).await.map_err(conflict_or_internal)?;
    for upload in &item.uploads {
        tx.put_blob(&object.uid, upload).await?;
    }
    index_relations(tx, &profile, object).await?;
    for (principal, roles) in &item.local_roles {
        tx.set_local_roles(&object.uid, principal, roles).await?;
    }
    for entry in &item.history {
        tx.append_history(&object.uid, entry).await?;
    }
    Ok(())
}

/// Rewrites an object's fields after the import placed everything (its default page, its
/// relations), keeping its `modified` as the old site had it.
pub async fn rewrite_imported(
    site: &Site,
    tx: &mut Tx,
    before: &ContentObject,
    after: &ContentObject,
) -> ApiResult<()> {
    let profile = profile_of(site, after)?;
    tx.update_content(before, after).await?;
    index_relations(tx, &profile, after).await?;
    Ok(())
}
