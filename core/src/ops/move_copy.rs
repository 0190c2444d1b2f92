//! Moving, copying and reordering content.

use super::references::index_relations;
use super::{
    conflict_or_internal, initial_state, initialise_security, moved_meanwhile, new_uid, profile_of, reserved_ids,
};
use crate::content::ContentObject;
use crate::content::ids::unique;
use crate::content::layout::LAYOUT_FIELD;
use crate::content::remap::remap_uids;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::events::Event;
use crate::security::Visibility;
use crate::site::Site;
use crate::store::Tx;
use serde_json::Value;
use std::collections::HashMap;

fn check_can_contain(site: &Site, target: &ContentObject, source: &ContentObject) -> ApiResult<()> {
    if source.is_site_root() {
        return Err(ApiError::new(ErrorCode::BadRequest, "The site root cannot be moved or copied."));
    }
    if target.path == source.path || target.path.starts_with(&format!("{}/", source.path)) {
        return Err(ApiError::new(ErrorCode::BadRequest, format!("'{}' cannot be put inside itself.", source.id)));
    }
    let (target_profile, source_profile) = (&profile_of(site, target)?, &profile_of(site, source)?);
    if !site.types.allows_child(target_profile, source_profile) {
        return Err(ApiError::new(
            ErrorCode::DisallowedType,
            format!("Disallowed subobject type: {} cannot be added to a {}.", source.portal_type, target_profile.id),
        ));
    }
    Ok(())
}

/// The start of a move or copy: every source checked, the transaction open, and the ids and
/// next position of the target known.
struct Insertion {
    tx: Tx,
    taken: Vec<String>,
    position: i64,
}

async fn begin_insertion(site: &Site, sources: &[ContentObject], target: &ContentObject) -> ApiResult<Insertion> {
    for source in sources {
        check_can_contain(site, target, source)?;
    }
    let mut tx = site.store.begin().await?;
    // A view's name counts as taken: what arrives under it gets a suffix instead of hiding it.
    let mut taken = site.store.child_ids(&target.uid).await?;
    taken.extend(reserved_ids(site, target)?);
    let position = tx.next_position(&target.uid).await?;
    Ok(Insertion { tx, taken, position })
}

/// Moves `sources` into `target` in one transaction; returns each source's old path and new
/// object. Ids that clash get `-1`, `-2`…; every old path redirects.
pub async fn move_into(
    site: &Site,
    sources: &[ContentObject],
    target: &ContentObject,
) -> ApiResult<Vec<(String, ContentObject)>> {
    let Insertion { mut tx, mut taken, mut position } = begin_insertion(site, sources, target).await?;
    let mut moved_paths = Vec::with_capacity(sources.len());
    for source in sources {
        if source.parent_uid.as_deref() == Some(target.uid.as_str()) {
            moved_paths.push((source.path.clone(), source.path.clone()));
            continue;
        }
        let id = unique(&source.id, &taken);
        taken.push(id.clone());
        let new_path = format!("{}/{id}", target.path);
        if !tx.move_subtree(source, &target.uid, &new_path, &id, position).await.map_err(conflict_or_internal)? {
            return Err(moved_meanwhile());
        }
        position += 1;
        moved_paths.push((source.path.clone(), new_path));
    }
    tx.commit().await?;
    let new_paths: Vec<String> = moved_paths.iter().map(|(_, new)| new.clone()).collect();
    let mut by_path: HashMap<String, ContentObject> =
        site.store.content_at_paths(&new_paths).await?.into_iter().map(|o| (o.path.clone(), o)).collect();
    moved_paths
        .into_iter()
        .map(|(old, new)| by_path.remove(&new).map(|o| (old, o)).ok_or_else(moved_meanwhile))
        .collect()
}

/// The id of a copy: the source id when free, else `copy_of_<id>`, `copy2_of_<id>`…
fn copy_id(id: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == id) {
        return id.to_owned();
    }
    std::iter::once(format!("copy_of_{id}"))
        .chain((2..).map(|n| format!("copy{n}_of_{id}")))
        .find(|candidate| !taken.iter().any(|t| t == candidate))
        .unwrap_or_else(|| id.to_owned())
}

/// Copies `sources` (with their subtrees and blobs) into `target`. Copies get new uids, the
/// caller as creator and their type's initial workflow state. Of each subtree only what
/// `visibility` lets the caller see is copied (and nothing inside what it hides): a copy must
/// not carry out what its maker could not read.
pub async fn copy_into(
    site: &Site,
    sources: &[ContentObject],
    target: &ContentObject,
    creator: &str,
    visibility: &Visibility,
) -> ApiResult<Vec<(String, ContentObject)>> {
    let Insertion { mut tx, mut taken, mut position } = begin_insertion(site, sources, target).await?;
    let mut results = Vec::with_capacity(sources.len());
    for source in sources {
        let id = copy_id(&source.id, &taken);
        taken.push(id.clone());
        let subtree = site.store.visible_subtree(&source.path, visibility).await?;
        if subtree.first().map(|o| o.uid.as_str()) != Some(source.uid.as_str()) {
            return Err(moved_meanwhile());
        }
        let placement = Placement { parent: target, id: &id, position };
        let copied_root = copy_objects(site, &mut tx, &subtree, &placement, creator).await?;
        position += 1;
        results.push((source.path.clone(), copied_root.root));
    }
    tx.commit().await?;
    Ok(results)
}

/// Where the root of a copy goes.
pub(super) struct Placement<'a> {
    /// The new container.
    pub parent: &'a ContentObject,
    /// The root's id there.
    pub id: &'a str,
    /// The root's position there.
    pub position: i64,
}

/// What [`copy_objects`] made.
pub(super) struct Copied {
    /// The copy of the first object.
    pub root: ContentObject,
    /// Original uid → copy uid.
    pub uids: HashMap<String, String>,
}

/// Copies `objects` (a root first, then descendants, parents before children; a part of a
/// subtree may be left out) with blobs, relations and owner roles. Every uid is chosen first,
/// so references among the copied objects (a page's layout, links between its blocks) point
/// at the copies.
pub(super) async fn copy_objects(
    site: &Site,
    tx: &mut Tx,
    objects: &[ContentObject],
    placement: &Placement<'_>,
    creator: &str,
) -> ApiResult<Copied> {
    let source = objects.first().ok_or_else(|| ApiError::internal("nothing to copy"))?;
    let uids: HashMap<String, String> = objects.iter().map(|o| (o.uid.clone(), new_uid())).collect();
    let now = chrono::Utc::now();
    let mut root = None;
    for original in objects {
        let mut copy = original.clone();
        copy.uid = uids.get(&original.uid).cloned().unwrap_or_else(new_uid);
        copy.working_copy_of = None;
        copy.path = format!("{}/{}{}", placement.parent.path, placement.id, &original.path[source.path.len()..]);
        if original.uid == source.uid {
            copy.id = placement.id.to_owned();
            copy.parent_uid = Some(placement.parent.uid.clone());
            copy.position = placement.position;
        } else {
            copy.parent_uid = original.parent_uid.as_ref().and_then(|p| uids.get(p).cloned());
        }
        copy.created = now;
        copy.modified = now;
        copy.creator = creator.to_owned();
        let profile = &profile_of(site, original)?;
        copy.review_state = initial_state(site, profile);
        remap_uids(profile, &mut copy.fields, &uids);
        tx.insert_content(&copy).await.map_err(conflict_or_internal)?;
        tx.copy_blobs(&original.uid, &copy.uid).await?;
        index_relations(tx, profile, &copy).await?;
        initialise_security(site, tx, &copy, creator).await?;
        if original.uid == source.uid {
            root = Some(copy);
        }
    }
    let root = root.ok_or_else(|| ApiError::internal("copied subtree lost its root"))?;
    tx.emit(Event::Copied { uid: root.uid.clone(), source: source.uid.clone() });
    Ok(Copied { root, uids })
}

/// Applies a plone.restapi `ordering` request: `{obj_id, delta: "top"|"bottom"|n, subset_ids?}`.
/// On a block page the layout follows in the same transaction; returns the container as stored.
pub async fn reorder(site: &Site, container: &ContentObject, ordering: &Value) -> ApiResult<ContentObject> {
    let invalid = |message: &str| ApiError::invalid_parameter("ordering", message);
    let obj_id = ordering
        .get("obj_id")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("'ordering' needs an 'obj_id' string."))?;
    let mut tx = site.store.begin().await?;
    let ids = site.store.child_ids(&container.uid).await?;
    let subset: Vec<String> = match ordering.get("subset_ids") {
        None | Some(Value::Null) => ids.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned).ok_or_else(|| invalid("'subset_ids' must be a list of ids.")))
            .collect::<ApiResult<_>>()?,
        Some(_) => return Err(invalid("'subset_ids' must be a list of ids.")),
    };
    let current_subset: Vec<&String> = ids.iter().filter(|id| subset.contains(id)).collect();
    if current_subset.len() != subset.len() || current_subset.iter().zip(&subset).any(|(a, b)| *a != b) {
        return Err(ApiError::new(ErrorCode::OrderingMismatch, "Client/server ordering mismatch."));
    }
    let from = subset.iter().position(|id| id == obj_id).ok_or_else(|| {
        ApiError::invalid_parameter(
            "ordering",
            format!("'{obj_id}' is not a child of this folder (or not in subset_ids)."),
        )
    })?;
    let last = subset.len() - 1;
    let to = match ordering.get("delta") {
        Some(Value::String(s)) if s == "top" => 0,
        Some(Value::String(s)) if s == "bottom" => last,
        Some(Value::Number(n)) => {
            let delta = n.as_i64().ok_or_else(|| invalid("'delta' must be a whole number, 'top' or 'bottom'."))?;
            (from as i64 + delta).clamp(0, last as i64) as usize
        }
        _ => {
            return Err(invalid("'delta' must be a whole number, 'top' or 'bottom'."));
        }
    };
    let mut reordered = subset.clone();
    let moved = reordered.remove(from);
    reordered.insert(to, moved);
    let mut slots = reordered.into_iter();
    let full: Vec<String> = ids
        .iter()
        .map(|id| if subset.contains(id) { slots.next().unwrap_or_else(|| id.clone()) } else { id.clone() })
        .collect();
    tx.set_positions(&container.uid, &full).await?;
    let mut stored = container.clone();
    if profile_of(site, container)?.has_blocks() {
        let layout = super::layout::follow_ordering(site, container, &full).await?;
        stored.fields.insert(LAYOUT_FIELD.to_owned(), layout);
        tx.update_content(container, &stored).await?;
    }
    tx.commit().await?;
    Ok(stored)
}
