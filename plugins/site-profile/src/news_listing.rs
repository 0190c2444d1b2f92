//! The news listing block: the News its settings select (below its page, below chosen
//! places, or the whole site; by keywords and age), newest first, batched by the request,
//! which may refine the block's filters with `@search`'s parameters.

use crate::{NEWS, NEWS_DATE, START};
use serde_json::{Map, Value, json};
use wcs_core::api::{Batch, batching_links};
use wcs_core::catalog::{Criterion, DateIndex, DateRange, SearchQuery, SearchSql, SortIndex};
use wcs_core::content::{ContentKind, ContentObject};
use wcs_core::error::ApiResult;
use wcs_core::ops::stored_targets;
use wcs_core::serialize::{ContentSerializer, SerializeCtx, Subject, summary};

/// The news a news listing block selects, newest first, batched by the request.
pub static NEWS_LISTING_BLOCK: ContentSerializer = ContentSerializer {
    kind: ContentKind::Type("NewsListingBlock"),
    read_only: &["items", "items_total", "batching"],
    serialize: |ctx, subject, out| Box::pin(async move { news_listing(ctx, subject, out).await }),
};

async fn news_listing(ctx: &SerializeCtx<'_>, subject: Subject<'_>, out: &mut Map<String, Value>) -> ApiResult<()> {
    let block = subject.object;
    let site_path = format!("/{}", block.site_id());
    // The request's own filters and batch (`b_start`, `b_size`, `Subject`…) refine the block's.
    let mut query = SearchQuery::parse(ctx.query, &site_path, ctx.site.catalog_indexes())?;
    query.portal_type = Criterion { any_of: vec![NEWS.into()], ..Criterion::default() };
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
        query.dates.insert(DateIndex::Field(&START), DateRange { min: Some(oldest), max: None });
    }
    query.sort = vec![(SortIndex::Field(&START), true)];
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
            item.insert(NEWS_DATE.into(), entry.fields.get(NEWS_DATE).cloned().unwrap_or(Value::Null));
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
