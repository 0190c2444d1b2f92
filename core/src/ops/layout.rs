//! Keeping a block page's layout and the order of its children one: a layout PATCH reorders
//! the blocks among the children, and an `ordering` PATCH re-pours the blocks into the layout.

use crate::content::ContentObject;
use crate::content::layout::{LAYOUT_FIELD, PageLayout};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::security::Visibility;
use crate::site::Site;
use crate::store::{Listing, ListingOrder, TypeFilter};
use serde_json::Value;
use std::collections::HashSet;

/// At most this many children are rearranged at once.
const MAX_CHILDREN: i64 = 10_000;

/// Every live child of `page` in position order (what a rearrangement works on).
async fn children(site: &Site, page: &ContentObject) -> ApiResult<Vec<ContentObject>> {
    let parents = [page.uid.clone()];
    let listing = Listing { parents: &parents, types: TypeFilter::Except(&[]), order: ListingOrder::Position };
    Ok(site.store.list(&listing, &Visibility::ALL, 0, MAX_CHILDREN).await?)
}

fn is_block(site: &Site, object: &ContentObject) -> bool {
    site.types.is_block_type(&object.portal_type)
}

/// A client's layout for `page` made consistent with its children: a placed uid that names an
/// object other than a block of this page is a 400; a uid that names nothing (a block deleted
/// meanwhile) is dropped; blocks not placed are appended. Returns the layout to store and the
/// child ids in their new order: the blocks take the positions blocks held, in layout order;
/// other children keep theirs.
pub async fn arrange(site: &Site, page: &ContentObject, requested: &Value) -> ApiResult<(Value, Vec<String>)> {
    let children = children(site, page).await?;
    let blocks: Vec<&ContentObject> = children.iter().filter(|c| is_block(site, c)).collect();
    let block_uids: HashSet<&str> = blocks.iter().map(|b| b.uid.as_str()).collect();
    let layout = PageLayout::from_stored(Some(requested));
    let strangers: Vec<String> = layout.uids().into_iter().filter(|uid| !block_uids.contains(uid.as_str())).collect();
    let existing = site.store.content_by_uids(&strangers).await?;
    if !existing.is_empty() {
        let errors = existing
            .iter()
            .map(|o| FieldError::new(LAYOUT_FIELD, format!("{} ({}) is not a block of this page.", o.uid, o.path)))
            .collect();
        return Err(ApiError::validation(errors));
    }
    let in_position_order: Vec<String> = blocks.iter().map(|b| b.uid.clone()).collect();
    let layout = layout.normalized(&in_position_order);
    Ok((layout.to_value(), reordered_ids(site, &children, &layout.uids())))
}

/// The child ids with the blocks' slots refilled in `block_order`.
fn reordered_ids(site: &Site, children: &[ContentObject], block_order: &[String]) -> Vec<String> {
    let id_of = |uid: &String| children.iter().find(|c| &c.uid == uid).map(|c| c.id.clone());
    let mut blocks = block_order.iter().filter_map(id_of);
    children
        .iter()
        .map(
            |child| {
                if is_block(site, child) { blocks.next().unwrap_or_else(|| child.id.clone()) } else { child.id.clone() }
            },
        )
        .collect()
}

/// The layout of `page` after its children were reordered to `ids_in_order`: same rows and
/// columns, the blocks poured in their new order.
pub async fn follow_ordering(site: &Site, page: &ContentObject, ids_in_order: &[String]) -> ApiResult<Value> {
    let children = children(site, page).await?;
    let old_order: Vec<String> = children.iter().filter(|c| is_block(site, c)).map(|c| c.uid.clone()).collect();
    let mut layout = PageLayout::from_stored(page.fields.get(LAYOUT_FIELD)).normalized(&old_order);
    let placed = layout.uids();
    let new_order: Vec<String> = ids_in_order
        .iter()
        .filter_map(|id| children.iter().find(|c| &c.id == id))
        .filter(|c| is_block(site, c))
        .map(|c| c.uid.clone())
        .collect();
    // The layout's reading order is the page order of its blocks: the n-th cell takes the
    // n-th block of the new order.
    let placed_in_new_order: Vec<String> = new_order.into_iter().filter(|uid| placed.contains(uid)).collect();
    if placed_in_new_order.len() == placed.len() {
        layout.pour(&placed_in_new_order);
    }
    Ok(layout.to_value())
}
