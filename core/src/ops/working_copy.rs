//! Staging through working copies (plone.app.iterate): check out a copy of a page with its
//! blocks, edit it, then check it in onto the baseline (which keeps its uid, URL and history)
//! or cancel it. While a copy is out the baseline is locked against edits.

use super::move_copy::{Placement, copy_objects};
use super::references::index_relations;
use super::{conflict_or_internal, moved_meanwhile, profile_of};
use crate::content::ContentObject;
use crate::content::ids::unique;
use crate::content::remap::remap_uids;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::events::Event;
use crate::site::Site;
use crate::store::Tx;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// The hidden field of a working copy mapping each copied block (and its contents) to the
/// baseline object it came from, so check-in updates those in place instead of replacing them;
/// a site export carries it along.
pub const ORIGINS: &str = "_working_copy_origins";

/// A checked-out pair.
pub struct WorkingCopyPair {
    /// The original.
    pub baseline: ContentObject,
    /// The copy being edited.
    pub working_copy: ContentObject,
}

/// The pair `object` belongs to (as baseline or as working copy), if one is checked out.
pub async fn pair_of(site: &Site, object: &ContentObject) -> ApiResult<Option<WorkingCopyPair>> {
    if let Some(baseline_uid) = &object.working_copy_of {
        let baseline = site.store.content_by_uids(std::slice::from_ref(baseline_uid)).await?.pop();
        return Ok(baseline.map(|baseline| WorkingCopyPair { baseline, working_copy: object.clone() }));
    }
    // Whether there is a copy is remembered (every write asks it too); most objects have none.
    if site.store.working_copy_path(&object.uid).await?.is_none() {
        return Ok(None);
    }
    let copy = site.store.working_copy_of(&object.uid).await?;
    Ok(copy.map(|working_copy| WorkingCopyPair { baseline: object.clone(), working_copy }))
}

/// The part of a page's subtree (the page first, parents before children) that belongs to
/// the page itself: the object, its blocks and what they contain. Other children (sub-pages)
/// are content of their own. A working copy and a version hold exactly this part.
pub fn page_part(site: &Site, subtree: &[ContentObject]) -> Vec<ContentObject> {
    let Some(root) = subtree.first() else { return Vec::new() };
    let mut included: HashSet<&str> = HashSet::from([root.uid.as_str()]);
    let mut part = vec![root.clone()];
    for object in &subtree[1..] {
        let Some(parent) = object.parent_uid.as_deref() else { continue };
        let belongs =
            if parent == root.uid { site.types.is_block_type(&object.portal_type) } else { included.contains(parent) };
        if belongs {
            included.insert(object.uid.as_str());
            part.push(object.clone());
        }
    }
    part
}

/// Checks out `baseline` into its container as `working_copy_of_<id>`.
pub async fn check_out(
    site: &Site,
    baseline: &ContentObject,
    container: &ContentObject,
    creator: &str,
) -> ApiResult<ContentObject> {
    let profile = &profile_of(site, baseline)?;
    if baseline.is_site_root() || profile.is_block() {
        return Err(ApiError::new(ErrorCode::BadRequest, "Only content pages and items can be checked out."));
    }
    if baseline.working_copy_of.is_some() {
        return Err(ApiError::new(ErrorCode::BadRequest, "A working copy cannot be checked out again."));
    }
    if site.store.working_copy_of(&baseline.uid).await?.is_some() {
        return Err(ApiError::new(ErrorCode::Locked, "This object is already checked out."));
    }
    let objects = page_part(site, &site.store.subtree(&baseline.path).await?);
    let mut tx = site.store.begin().await?;
    let taken = site.store.child_ids(&container.uid).await?;
    let id = unique(&format!("working_copy_of_{}", baseline.id), &taken);
    let position = tx.next_position(&container.uid).await?;
    let placement = Placement { parent: container, id: &id, position };
    let copied = copy_objects(site, &mut tx, &objects, &placement, creator).await?;
    let copied_root = copied.root.clone();
    let mut root = copied.root;
    root.working_copy_of = Some(baseline.uid.clone());
    // Copy uid → baseline uid, for check-in.
    let origins: Map<String, Value> =
        copied.uids.iter().map(|(original, copy)| (copy.clone(), Value::String(original.clone()))).collect();
    root.fields.insert(ORIGINS.to_owned(), Value::Object(origins));
    tx.update_content(&copied_root, &root).await?;
    tx.set_working_copy_of(&root.uid, &baseline.uid).await.map_err(|e| {
        if crate::store::is_unique_violation(&e) {
            ApiError::new(ErrorCode::Locked, "This object was checked out at the same time.")
        } else {
            ApiError::internal(e)
        }
    })?;
    tx.emit(Event::CheckedOut { uid: baseline.uid.clone(), working_copy: root.uid.clone() });
    tx.commit().await?;
    Ok(root)
}

/// Copies the working copy's fields and blocks onto the baseline and removes the copy, in one
/// transaction. Blocks that came from the baseline are updated in place (they keep their
/// uids, so links to them survive); new ones move over; ones deleted in the copy are deleted.
/// Sub-pages added to the working copy move to the baseline.
pub async fn check_in(site: &Site, pair: &WorkingCopyPair) -> ApiResult<ContentObject> {
    let WorkingCopyPair { baseline, working_copy } = pair;
    let copy_tree = site.store.subtree(&working_copy.path).await?;
    let base_tree = site.store.subtree(&baseline.path).await?;
    let base_by_uid: HashMap<&str, &ContentObject> = base_tree.iter().map(|o| (o.uid.as_str(), o)).collect();
    let renamed = becomes(pair, &copy_tree, &base_by_uid);
    let kept: HashSet<&str> = renamed.values().map(String::as_str).collect();
    let mut tx = site.store.begin().await?;
    // Baseline blocks (and their contents) the copy no longer has.
    for object in page_part(site, &base_tree).iter().skip(1) {
        if !kept.contains(object.uid.as_str()) {
            tx.delete_subtree(object).await?;
        }
    }
    let mut updated_root = baseline.clone();
    apply_content(&mut updated_root, working_copy);
    remap_uids(&*profile_of(site, baseline)?, &mut updated_root.fields, &renamed);
    updated_root.fields.remove(ORIGINS);
    updated_root.modified = chrono::Utc::now();
    tx.update_content(baseline, &updated_root).await?;
    tx.replace_blobs(&working_copy.uid, &baseline.uid).await?;
    index_relations(&mut tx, &*profile_of(site, baseline)?, &updated_root).await?;
    let mut moved: HashSet<String> = HashSet::new();
    let mut taken: HashMap<String, Vec<String>> = HashMap::new();
    for object in copy_tree.iter().skip(1) {
        let parent_moved = object.parent_uid.as_ref().is_some_and(|p| moved.contains(p));
        if parent_moved {
            moved.insert(object.uid.clone());
            continue;
        }
        match renamed.get(&object.uid).and_then(|uid| base_by_uid.get(uid.as_str())) {
            Some(target) => update_in_place(site, &mut tx, target, object, &renamed).await?,
            None => {
                let new_parent_uid =
                    object.parent_uid.as_ref().and_then(|p| renamed.get(p)).cloned().unwrap_or(baseline.uid.clone());
                let Some(new_parent) = base_by_uid.get(new_parent_uid.as_str()).copied() else {
                    continue;
                };
                let siblings = match taken.get_mut(&new_parent.uid) {
                    Some(ids) => ids,
                    None => {
                        let ids = site.store.child_ids(&new_parent.uid).await?;
                        taken.entry(new_parent.uid.clone()).or_insert(ids)
                    }
                };
                move_over(site, &mut tx, object, new_parent, siblings, &renamed).await?;
                moved.insert(object.uid.clone());
            }
        }
    }
    tx.delete_subtree(working_copy).await?;
    tx.emit(Event::CheckedIn { uid: baseline.uid.clone(), working_copy: working_copy.uid.clone() });
    tx.commit().await?;
    Ok(updated_root)
}

/// Copy uid → the baseline uid it becomes: its origin when that still lives in the
/// baseline's tree; copies without one are not in the map (they move over as they are).
fn becomes(
    pair: &WorkingCopyPair,
    copy_tree: &[ContentObject],
    base_by_uid: &HashMap<&str, &ContentObject>,
) -> HashMap<String, String> {
    let origins: HashMap<String, String> = pair
        .working_copy
        .fields
        .get(ORIGINS)
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned()))).collect())
        .unwrap_or_default();
    let mut renamed: HashMap<String, String> = HashMap::new();
    renamed.insert(pair.working_copy.uid.clone(), pair.baseline.uid.clone());
    for object in copy_tree.iter().skip(1) {
        if let Some(origin) = origins.get(&object.uid).filter(|o| base_by_uid.contains_key(o.as_str())) {
            renamed.insert(object.uid.clone(), origin.clone());
        }
    }
    renamed
}

/// A copied block onto the baseline block it came from, which keeps its uid and place.
async fn update_in_place(
    site: &Site,
    tx: &mut Tx,
    target: &ContentObject,
    object: &ContentObject,
    renamed: &HashMap<String, String>,
) -> ApiResult<()> {
    let profile = &profile_of(site, object)?;
    let mut updated = target.clone();
    apply_content(&mut updated, object);
    remap_uids(profile, &mut updated.fields, renamed);
    updated.modified = chrono::Utc::now();
    tx.update_content(target, &updated).await?;
    tx.set_position(&updated.uid, object.position).await?;
    tx.replace_blobs(&object.uid, &updated.uid).await?;
    index_relations(tx, profile, &updated).await?;
    Ok(())
}

/// An object new in the working copy moves over to the baseline, under a free id.
async fn move_over(
    site: &Site,
    tx: &mut Tx,
    object: &ContentObject,
    new_parent: &ContentObject,
    siblings: &mut Vec<String>,
    renamed: &HashMap<String, String>,
) -> ApiResult<()> {
    let profile = &profile_of(site, object)?;
    let id = unique(&object.id, siblings);
    siblings.push(id.clone());
    let new_path = format!("{}/{id}", new_parent.path);
    let mut remapped = object.clone();
    remap_uids(profile, &mut remapped.fields, renamed);
    tx.update_content(object, &remapped).await?;
    if !tx.move_subtree(object, &new_parent.uid, &new_path, &id, object.position).await.map_err(conflict_or_internal)? {
        return Err(moved_meanwhile());
    }
    index_relations(tx, profile, &remapped).await?;
    Ok(())
}

/// The editable content of `source` onto `target`: title, description, dates and fields; the
/// target keeps its identity, place, creator and workflow state.
fn apply_content(target: &mut ContentObject, source: &ContentObject) {
    target.title = source.title.clone();
    target.description = source.description.clone();
    target.effective = source.effective;
    target.expires = source.expires;
    target.fields = source.fields.clone();
}

/// Deletes the working copy (and what was created in it); the baseline is unlocked.
pub async fn cancel(site: &Site, pair: &WorkingCopyPair) -> ApiResult<()> {
    let mut tx = site.store.begin().await?;
    tx.delete_subtree(&pair.working_copy).await?;
    tx.emit(Event::CheckoutCancelled { uid: pair.baseline.uid.clone(), working_copy: pair.working_copy.uid.clone() });
    tx.commit().await?;
    Ok(())
}
