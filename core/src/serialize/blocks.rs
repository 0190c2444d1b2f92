//! Block pages (ftw.simplelayout's REST shape): a page carries its normalized layout under
//! `simplelayout` and every block it places, fully serialized, under `slblocks`; blocks carry
//! their `block-configuration`, and listing blocks their `items`.
//!
//! A page costs a fixed number of queries whatever its number of blocks: one for the blocks,
//! one for everything their fields point at, one for the contents of file and gallery blocks,
//! plus what the serializers of each block's type add (a news listing block's page and count).

use super::{ContentSerializer, References, SerializeCtx, Subject, serialize_content, summary};
use crate::content::ContentKind;
use crate::content::layout::{LAYOUT_FIELD, PageLayout};
use crate::content::{ContentObject, TypeProfile};
use crate::error::{ApiError, ApiResult};
use crate::store::{Listing, ListingOrder, TypeFilter};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// A page serializes at most this many blocks; more is an editing accident, not a page.
const MAX_BLOCKS: i64 = 500;
/// A file or gallery block lists at most this many files.
const MAX_BLOCK_ITEMS: i64 = 1_000;
/// The per-block configuration (image scale, float…) ftw.simplelayout keeps beside the fields.
pub const BLOCK_CONFIGURATION: &str = "block-configuration";

/// `simplelayout` and `slblocks` on block pages.
pub static BLOCK_PAGE: ContentSerializer = ContentSerializer {
    kind: ContentKind::Behaviour("blocks"),
    read_only: &["slblocks"],
    serialize: |ctx, subject, out| Box::pin(async move { block_page(ctx, subject, out).await }),
};

/// `block-configuration` on every block, and `items` on file and gallery blocks.
pub static BLOCK: ContentSerializer = ContentSerializer {
    kind: ContentKind::Behaviour("block"),
    read_only: &["items", "items_total"],
    serialize: |ctx, subject, out| Box::pin(async move { block(ctx, subject, out).await }),
};

/// The blocks of `page` the caller may see, in position order.
pub async fn visible_blocks(ctx: &SerializeCtx<'_>, page: &ContentObject) -> ApiResult<Vec<ContentObject>> {
    let block_types = ctx.site.types.block_types();
    let parents = [page.uid.clone()];
    let listing = Listing { parents: &parents, types: TypeFilter::Only(&block_types), order: ListingOrder::Position };
    Ok(ctx.site.store.list(&listing, ctx.visibility, 0, MAX_BLOCKS).await?)
}

async fn block_page(ctx: &SerializeCtx<'_>, subject: Subject<'_>, out: &mut Map<String, Value>) -> ApiResult<()> {
    let page = subject.object;
    let blocks = visible_blocks(ctx, page).await?;
    let uids: Vec<String> = blocks.iter().map(|b| b.uid.clone()).collect();
    let layout = PageLayout::from_stored(page.fields.get(LAYOUT_FIELD)).normalized(&uids);
    out.insert(LAYOUT_FIELD.into(), layout.to_value());
    let mut held = Vec::with_capacity(blocks.len());
    for block in &blocks {
        held.push(ctx.site.types.get(&block.portal_type).ok_or_else(|| unknown_type(block))?);
    }
    let profiles: Vec<_> = held.iter().map(AsRef::as_ref).zip(&blocks).collect();
    References::preload(ctx, &profiles).await?;
    preload_block_contents(ctx, &profiles).await?;
    let nested_options = ctx.options.for_nested_item();
    let nested = SerializeCtx { options: &nested_options, ..*ctx };
    let mut serialized = Map::new();
    for block in &blocks {
        let value = Box::pin(serialize_content(&nested, block, Some(page))).await?.into_map();
        serialized.insert(block.uid.clone(), Value::Object(value));
    }
    out.insert("slblocks".into(), Value::Object(serialized));
    Ok(())
}

fn unknown_type(object: &ContentObject) -> ApiError {
    ApiError::internal(format!("object {} has unknown type {}", object.uid, object.portal_type))
}

fn contents_key(uid: &str) -> String {
    format!("block-contents:{uid}")
}

/// The files and images of every folderish block, in one query, kept for the request.
async fn preload_block_contents(ctx: &SerializeCtx<'_>, blocks: &[(&TypeProfile, &ContentObject)]) -> ApiResult<()> {
    let parents: Vec<String> = blocks.iter().filter(|(p, _)| p.folderish).map(|(_, b)| b.uid.clone()).collect();
    if !parents.is_empty() {
        load_block_contents(ctx, &parents).await?;
    }
    Ok(())
}

/// Loads the contents of the blocks `parents` in one query and keeps each block's list for
/// the request.
async fn load_block_contents(ctx: &SerializeCtx<'_>, parents: &[String]) -> ApiResult<()> {
    let listing = Listing { parents, types: TypeFilter::Except(&[]), order: ListingOrder::Position };
    let limit = MAX_BLOCK_ITEMS * parents.len() as i64;
    let mut by_parent: HashMap<String, Vec<ContentObject>> = parents.iter().map(|p| (p.clone(), Vec::new())).collect();
    for child in ctx.site.store.list(&listing, ctx.visibility, 0, limit).await? {
        if let Some(list) = child.parent_uid.as_ref().and_then(|p| by_parent.get_mut(p)) {
            list.push(child);
        }
    }
    for (parent, children) in by_parent {
        ctx.memo.put(contents_key(&parent), Arc::new(children));
    }
    Ok(())
}

async fn block(ctx: &SerializeCtx<'_>, subject: Subject<'_>, out: &mut Map<String, Value>) -> ApiResult<()> {
    let Subject { object, profile, .. } = subject;
    if out.get(BLOCK_CONFIGURATION).is_none_or(Value::is_null) {
        out.insert(BLOCK_CONFIGURATION.into(), json!({}));
    }
    if !profile.folderish {
        return Ok(());
    }
    let key = contents_key(&object.uid);
    if ctx.memo.get::<Vec<ContentObject>>(&key).is_none() {
        load_block_contents(ctx, std::slice::from_ref(&object.uid)).await?;
    }
    let mut children = ctx.memo.get::<Vec<ContentObject>>(&key).map(|c| c.as_ref().clone()).unwrap_or_default();
    sort_contents(&mut children, object);
    let mut items = Vec::with_capacity(children.len());
    for child in &children {
        let mut item = summary(ctx, child, &ctx.options.metadata_fields);
        add_blob_field(ctx, child, &mut item).await?;
        items.push(Value::Object(item));
    }
    out.insert("items_total".into(), json!(items.len()));
    out.insert("items".into(), Value::Array(items));
    Ok(())
}

/// Sorts a block's files or images by its `sort_on` / `sort_order` (position by default).
fn sort_contents(children: &mut [ContentObject], block: &ContentObject) {
    let sort_on = block.fields.get("sort_on").and_then(Value::as_str).unwrap_or("getObjPositionInParent");
    match sort_on {
        "sortable_title" => children.sort_by_key(|c| c.title.to_lowercase()),
        "modified" => children.sort_by_key(|c| c.modified),
        "id" => children.sort_by(|a, b| a.id.cmp(&b.id)),
        _ => children.sort_by_key(|c| c.position),
    }
    if block.fields.get("sort_order").and_then(Value::as_str) == Some("descending") {
        children.reverse();
    }
}

/// Adds the item's file or image, serialized like the field itself (download URL, size,
/// image scales), so a gallery can show thumbnails without another request.
async fn add_blob_field(ctx: &SerializeCtx<'_>, child: &ContentObject, item: &mut Map<String, Value>) -> ApiResult<()> {
    let Some(profile) = ctx.site.types.get(&child.portal_type) else { return Ok(()) };
    let Some(field) = profile.primary_blob_field() else { return Ok(()) };
    let Some(stored) = child.fields.get(&field.name) else { return Ok(()) };
    if let Some(serializer) = ctx.serializers.field_serializer(field.kind, field.widget.as_deref(), &profile) {
        let value = (serializer.serialize)(ctx, child, field, stored).await?;
        item.insert(field.name.clone(), value);
    }
    Ok(())
}
