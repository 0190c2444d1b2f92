//! Block pages (ftw.simplelayout's REST shape): a page carries its normalized layout under
//! `simplelayout` and every block it places, fully serialized, under `slblocks`; blocks carry
//! their `block-configuration`, and listing blocks their `items`.
//!
//! A page costs a fixed number of queries whatever its number of blocks: one for the blocks,
//! one for everything their fields point at, one for the contents of file and gallery blocks,
//! plus one page and one count per news listing block.

use super::{ContentSerializer, References, SerializeCtx, Subject, serialize_content, summary};
use crate::api::{Batch, batching_links};
use crate::catalog::{Criterion, DateRange, SearchQuery, SearchSql, SortIndex};
use crate::content::ContentKind;
use crate::content::layout::{LAYOUT_FIELD, PageLayout};
use crate::content::{ContentObject, TypeProfile};
use crate::error::{ApiError, ApiResult};
use crate::ops::stored_targets;
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

/// The news a news listing block selects, newest first, batched by the request.
pub static NEWS_LISTING_BLOCK: ContentSerializer = ContentSerializer {
    kind: ContentKind::Type("NewsListingBlock"),
    read_only: &["items", "items_total", "batching"],
    serialize: |ctx, subject, out| Box::pin(async move { news_listing(ctx, subject, out).await }),
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
    let mut profiles = Vec::with_capacity(blocks.len());
    for block in &blocks {
        let profile = ctx.site.types.get(&block.portal_type).ok_or_else(|| unknown_type(block))?;
        profiles.push((profile.as_ref(), block));
    }
    References::preload(ctx, &profiles).await?;
    preload_block_contents(ctx, &profiles).await?;
    let nested_options = ctx.options.for_nested_item();
    let nested = SerializeCtx { options: &nested_options, ..*ctx };
    let mut serialized = Map::new();
    for block in &blocks {
        let value = Box::pin(serialize_content(&nested, block, Some(page))).await?;
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
    if let Some(serializer) = ctx.serializers.field_serializer(field.kind, field.widget.as_deref(), profile) {
        let value = (serializer.serialize)(ctx, child, field, stored).await?;
        item.insert(field.name.clone(), value);
    }
    Ok(())
}

async fn news_listing(ctx: &SerializeCtx<'_>, subject: Subject<'_>, out: &mut Map<String, Value>) -> ApiResult<()> {
    let block = subject.object;
    let site_path = format!("/{}", block.site_id());
    // The request's own filters and batch (`b_start`, `b_size`, `Subject`…) refine the block's.
    let mut query = SearchQuery::parse(ctx.query, &site_path)?;
    query.portal_type = Criterion { any_of: vec!["News".into()], ..Criterion::default() };
    query.text.clear();
    query.path.paths = news_paths(ctx, block, &site_path).await?;
    query.path.depth = None;
    let wanted: Vec<String> = block.fields.get("subjects").map(stored_targets).unwrap_or_default();
    if !wanted.is_empty() {
        query.subject.any_of = if query.subject.any_of.is_empty() {
            wanted
        } else {
            // Both must agree; an empty intersection matches nothing.
            let both: Vec<String> = wanted.into_iter().filter(|s| query.subject.any_of.contains(s)).collect();
            if both.is_empty() { vec![String::new()] } else { both }
        };
        query.subject.all = false;
    }
    let maximum_age = block.fields.get("maximum_age").and_then(Value::as_i64).unwrap_or(0);
    if maximum_age > 0 {
        let oldest = chrono::Utc::now() - chrono::Duration::days(maximum_age.min(100_000));
        query.dates.insert("start", DateRange { min: Some(oldest), max: None });
    }
    query.sort = vec![(SortIndex::Start, true)];
    let quantity = block.fields.get("quantity").and_then(Value::as_i64).filter(|q| *q > 0).unwrap_or(5);
    if !ctx.query.iter().any(|(k, _)| k == "b_size") {
        query.batch = Batch { start: query.batch.start, size: quantity.min(1_000) };
    }
    let scope = ctx.search_scope(&site_path);
    let sql = SearchSql::build(&query, &scope);
    let total = ctx.site.store.count_search(&sql).await?;
    let news = ctx.site.store.search(&sql, query.batch.start, query.batch.size).await?;
    let items: Vec<Value> = news
        .iter()
        .map(|entry| {
            let mut item = summary(ctx, entry, &ctx.options.metadata_fields);
            item.insert("news_date".into(), entry.fields.get("news_date").cloned().unwrap_or(Value::Null));
            Value::Object(item)
        })
        .collect();
    out.insert("items".into(), Value::Array(items));
    out.insert("items_total".into(), json!(total));
    if let Some(links) = batching_links(&ctx.options.listing_url, ctx.query, query.batch, total) {
        out.insert("batching".into(), links);
    }
    Ok(())
}

/// Where a listing block looks: below its page (`current_context`), below the objects of
/// `filter_by_path` the caller may see, or the whole site.
async fn news_paths(ctx: &SerializeCtx<'_>, block: &ContentObject, site_path: &str) -> ApiResult<Vec<String>> {
    if block.fields.get("current_context").and_then(Value::as_bool).unwrap_or(true) {
        let page = block.path.rsplit_once('/').map_or(site_path, |(parent, _)| parent);
        return Ok(vec![page.to_owned()]);
    }
    let targets = block.fields.get("filter_by_path").map(stored_targets).unwrap_or_default();
    if targets.is_empty() {
        return Ok(vec![site_path.to_owned()]);
    }
    let found = ctx.site.store.visible_content_by_uids(&targets, ctx.visibility).await?;
    if found.is_empty() {
        // Every chosen place is gone or hidden: show nothing rather than everything (ids never
        // start with '@', so this path holds nothing).
        return Ok(vec![format!("{site_path}/@none")]);
    }
    Ok(found.into_iter().map(|o| o.path).collect())
}
