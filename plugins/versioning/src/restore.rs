//! Restoring a version onto the live page, in one transaction.
//!
//! The page takes the frozen fields and layout. Frozen blocks that still live are updated in
//! place (uids, links and URLs stay). Frozen blocks deleted since are re-created as copies
//! under new uids, and the page remembers which copy stands for which frozen block, so
//! restoring the same version again updates those copies instead of adding more. Blocks
//! added since the version go to the trash, where they can be brought back. Links among the
//! page and its blocks, and the layout, are rewritten to the uids that now stand for them.

use crate::events::{VERSION_RESTORED, version_event};
use crate::snapshot::{FrozenObject, Snapshot, is_bookkeeping};
use crate::tables::{VersionInfo, frozen_files};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use wcs_core::app::App;
use wcs_core::content::ids::unique;
use wcs_core::content::remap::remap_uids;
use wcs_core::content::{ContentObject, TypeProfile};
use wcs_core::http::{ApiError, ApiResult};
use wcs_core::ops::working_copy::page_part;
use wcs_core::ops::{check_unlocked, index_relations, initialise_security, new_uid};
use wcs_core::security::Principal;
use wcs_core::store::{HistoryEntry, Tx};

/// The page's record of which live copy stands for a frozen block that had been deleted:
/// frozen uid → copy uid.
pub const RESTORED_COPIES: &str = "_restored_copies";

/// The review-history action a restore appends.
pub const RESTORED_ACTION: &str = "Restored from Version";

/// Restores `snapshot` (of `version`) onto `page`; returns the page as stored.
pub async fn restore(
    app: &App,
    page: &ContentObject,
    version: &VersionInfo,
    snapshot: &Snapshot,
    actor: &Principal,
) -> ApiResult<ContentObject> {
    check_unlocked(app, page).await?;
    let live_part = page_part(app, &app.store.subtree(&page.path).await?);
    let live: HashMap<&str, &ContentObject> = live_part.iter().map(|o| (o.uid.as_str(), o)).collect();
    let mut remembered: Map<String, Value> =
        page.fields.get(RESTORED_COPIES).and_then(Value::as_object).cloned().unwrap_or_default();
    let frozen_page = snapshot.page()?;
    let targets = targets(page, snapshot, &live, &mut remembered);
    let kept: HashSet<&str> = targets.values().map(String::as_str).collect();
    let page_ids = app.store.child_ids(&page.uid).await?;
    let restoring = Restoring { app, version, targets: &targets, now: chrono::Utc::now(), actor: actor.actor() };

    let mut tx = app.store.begin().await?;
    for object in live_part.iter().skip(1) {
        let parent_kept = object.parent_uid.as_deref().is_some_and(|p| kept.contains(p));
        if !kept.contains(object.uid.as_str()) && parent_kept {
            tx.trash(object, restoring.now).await?;
        }
    }
    let mut restored_page = frozen_page.onto(page);
    restoring.prepare(page, &mut restored_page)?;
    restored_page.fields.insert(RESTORED_COPIES.to_owned(), Value::Object(remembered));
    restoring.write(&mut tx, frozen_page, page, &restored_page).await?;

    let mut paths: HashMap<String, String> = live_part.iter().map(|o| (o.uid.clone(), o.path.clone())).collect();
    let mut taken: HashMap<String, Vec<String>> = HashMap::from([(page.uid.clone(), page_ids)]);
    for frozen in snapshot.parts() {
        let Some(target) = targets.get(&frozen.uid) else { continue };
        match live.get(target.as_str()) {
            Some(existing) => {
                let mut updated = frozen.onto(existing);
                restoring.prepare(existing, &mut updated)?;
                restoring.write(&mut tx, frozen, existing, &updated).await?;
                tx.set_position(&updated.uid, frozen.position).await?;
            }
            None => {
                if let Some(copy) = restoring.recreate(&mut tx, frozen, &paths, &mut taken).await? {
                    paths.insert(copy.uid.clone(), copy.path.clone());
                }
            }
        }
    }
    let entry = HistoryEntry {
        action: Some(RESTORED_ACTION.to_owned()),
        actor: restoring.actor.to_owned(),
        comment: restore_comment(version),
        review_state: page.review_state.clone().unwrap_or_default(),
        time: restoring.now,
    };
    tx.append_history(&page.uid, &entry).await?;
    tx.emit(version_event(&VERSION_RESTORED, &page.uid, version.seq));
    tx.commit().await?;
    Ok(restored_page)
}

/// Frozen uid → the live uid that stands for it now: the same object while it lives, else the
/// copy remembered from an earlier restore of this version, else a new copy (remembered now).
fn targets(
    page: &ContentObject,
    snapshot: &Snapshot,
    live: &HashMap<&str, &ContentObject>,
    remembered: &mut Map<String, Value>,
) -> HashMap<String, String> {
    let mut targets: HashMap<String, String> =
        snapshot.page().map(|frozen| (frozen.uid.clone(), page.uid.clone())).into_iter().collect();
    for frozen in snapshot.parts() {
        let target = if live.contains_key(frozen.uid.as_str()) {
            frozen.uid.clone()
        } else {
            match remembered.get(&frozen.uid).and_then(Value::as_str).filter(|copy| live.contains_key(copy)) {
                Some(copy) => copy.to_owned(),
                None => {
                    let copy = new_uid();
                    remembered.insert(frozen.uid.clone(), Value::String(copy.clone()));
                    copy
                }
            }
        };
        targets.insert(frozen.uid.clone(), target);
    }
    targets
}

/// What every part of one restore shares.
struct Restoring<'a> {
    app: &'a App,
    version: &'a VersionInfo,
    targets: &'a HashMap<String, String>,
    now: chrono::DateTime<chrono::Utc>,
    actor: &'a str,
}

impl Restoring<'_> {
    /// Readies `restored` (the frozen state on top of `live`): the live object's bookkeeping
    /// stays and links follow the targets.
    fn prepare(&self, live: &ContentObject, restored: &mut ContentObject) -> ApiResult<()> {
        let profile = &profile(self.app, &live.portal_type)?;
        keep_bookkeeping(&mut restored.fields, &live.fields);
        remap_uids(profile, &mut restored.fields, self.targets);
        restored.modified = self.now;
        Ok(())
    }

    /// Writes `restored` over the live object, with the files it had when frozen.
    async fn write(
        &self,
        tx: &mut Tx,
        frozen: &FrozenObject,
        live: &ContentObject,
        restored: &ContentObject,
    ) -> ApiResult<()> {
        tx.update_content(live, restored).await?;
        restore_files(tx, self.version, &frozen.uid, &restored.uid).await?;
        index_relations(tx, &*profile(self.app, &live.portal_type)?, restored).await?;
        Ok(())
    }

    /// Re-creates a part deleted since, under its target uid and a free id in its restored
    /// parent; `None` when its type or its parent is gone.
    async fn recreate(
        &self,
        tx: &mut Tx,
        frozen: &FrozenObject,
        paths: &HashMap<String, String>,
        taken: &mut HashMap<String, Vec<String>>,
    ) -> ApiResult<Option<ContentObject>> {
        let Ok(profile) = profile(self.app, &frozen.portal_type) else {
            // The type was removed from the site since; nothing can stand for this part.
            return Ok(None);
        };
        let (Some(target), Some(parent)) =
            (self.targets.get(&frozen.uid), frozen.parent_uid.as_ref().and_then(|p| self.targets.get(p)))
        else {
            return Ok(None);
        };
        let Some(parent_path) = paths.get(parent) else { return Ok(None) };
        let siblings = taken.entry(parent.clone()).or_default();
        let id = unique(&frozen.id, siblings);
        siblings.push(id.clone());
        let place = Place { uid: target, parent_uid: parent, path: format!("{parent_path}/{id}"), id };
        let mut copy = recreated(self.app, frozen, &profile, place, self.actor);
        remap_uids(&profile, &mut copy.fields, self.targets);
        insert(self.app, tx, &copy, self.actor).await?;
        restore_files(tx, self.version, &frozen.uid, &copy.uid).await?;
        index_relations(tx, &profile, &copy).await?;
        Ok(Some(copy))
    }
}

fn profile(app: &App, portal_type: &str) -> ApiResult<std::sync::Arc<TypeProfile>> {
    app.types.get(portal_type).ok_or_else(|| ApiError::internal(format!("unknown portal type {portal_type}")))
}

/// Bookkeeping fields are the live object's, never the version's.
fn keep_bookkeeping(restored: &mut Map<String, Value>, live: &Map<String, Value>) {
    restored.retain(|k, _| !is_bookkeeping(k));
    for (key, value) in live.iter().filter(|(k, _)| is_bookkeeping(k)) {
        restored.insert(key.clone(), value.clone());
    }
}

/// Where a re-created part goes.
struct Place<'a> {
    uid: &'a str,
    parent_uid: &'a str,
    path: String,
    id: String,
}

/// A new object standing for a frozen part that was deleted since.
fn recreated(
    app: &App,
    frozen: &FrozenObject,
    profile: &TypeProfile,
    place: Place<'_>,
    creator: &str,
) -> ContentObject {
    let now = chrono::Utc::now();
    let review_state = profile.workflow.first().and_then(|w| app.workflows.get(w)).map(|w| w.initial_state.clone());
    ContentObject {
        uid: place.uid.to_owned(),
        parent_uid: Some(place.parent_uid.to_owned()),
        path: place.path,
        id: place.id,
        portal_type: frozen.portal_type.clone(),
        position: frozen.position,
        title: frozen.title.clone(),
        description: frozen.description.clone(),
        review_state,
        created: now,
        modified: now,
        effective: frozen.effective,
        expires: frozen.expires,
        creator: creator.to_owned(),
        fields: frozen.fields.clone(),
        block_local_roles: false,
        trash_root: None,
        working_copy_of: None,
    }
}

async fn insert(app: &App, tx: &mut Tx, object: &ContentObject, creator: &str) -> ApiResult<()> {
    tx.insert_content(object).await?;
    initialise_security(app, tx, object, creator).await?;
    Ok(())
}

/// The history comment of a restore: which version, and its own comment.
/// Makes `target_uid`'s files exactly those `content_uid` had in `version`.
async fn restore_files(tx: &mut Tx, version: &VersionInfo, content_uid: &str, target_uid: &str) -> ApiResult<()> {
    let files = frozen_files(tx, version, content_uid).await?;
    tx.clear_blobs(target_uid).await?;
    for file in &files {
        tx.put_blob(target_uid, file).await?;
    }
    Ok(())
}

fn restore_comment(version: &VersionInfo) -> String {
    if version.comment.is_empty() {
        format!("Version {}", version.seq)
    } else {
        format!("Version {}: {}", version.seq, version.comment)
    }
}
