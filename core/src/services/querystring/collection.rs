//! Plone's Collection: a stored querystring query (`query`, the criteria Volto's query widget
//! writes, checked by the `Query` field kind of `crate::content`), its sort and limit, and what
//! it finds as the collection's `items`, with only what the caller may see, batched by the
//! request.

use super::{QueryPlace, to_search_pairs};
use crate::api::{Batch, batching_links};
use crate::catalog::{SearchQuery, SearchSql};
use crate::content::ContentKind;
use crate::error::ApiResult;
use crate::serialize::{ContentSerializer, SerializeCtx, Subject, summary};
use serde_json::{Map, Value, json};

/// The type's name.
pub const COLLECTION: &str = "Collection";

/// A collection's `items`, `items_total` and `batching`: what its query finds.
pub static COLLECTION_ITEMS: ContentSerializer = ContentSerializer {
    kind: ContentKind::Type(COLLECTION),
    read_only: &["items", "items_total", "batching"],
    serialize: |ctx, subject, out| Box::pin(async move { results(ctx, subject, out).await }),
};

async fn results(ctx: &SerializeCtx<'_>, subject: Subject<'_>, out: &mut Map<String, Value>) -> ApiResult<()> {
    let collection = subject.object;
    let criteria = collection.fields.get("query").filter(|q| q.as_array().is_some_and(|c| !c.is_empty()));
    let Some(criteria) = criteria else {
        out.insert("items".into(), json!([]));
        out.insert("items_total".into(), json!(0));
        return Ok(());
    };
    let field = |name: &str| collection.fields.get(name).cloned().unwrap_or(Value::Null);
    let descending = field("sort_reversed").as_bool() == Some(true);
    // Without a sort, Plone's catalog answers in the order objects were made.
    let sort_on = field("sort_on").as_str().filter(|s| !s.is_empty()).unwrap_or("created").to_owned();
    let body = json!({"query": criteria, "sort_on": sort_on,
                      "sort_order": if descending { "descending" } else { "ascending" },
                      "limit": field("limit")});
    let site_path = format!("/{}", collection.site_id());
    let place = QueryPlace {
        context_path: &collection.path,
        site_path: &site_path,
        registered: ctx.site.catalog_indexes(),
        user: ctx.principal.user_id(),
    };
    let mut pairs = to_search_pairs(&body, &place)?;
    // The request's batch, as a folder's.
    pairs.extend(ctx.query.iter().filter(|(k, _)| k == "b_start" || k == "b_size").cloned());
    pairs.push(("UID.not".into(), collection.uid.clone()));
    let query = SearchQuery::parse(&pairs, &site_path, ctx.site.catalog_indexes())?;
    let batch = Batch { start: query.batch.start, size: query.batch.size };
    let sql = SearchSql::build(&query, &ctx.search_scope(&site_path));
    // `limit` bounds the results, whatever the batch asks for.
    let limit = field("limit").as_i64().filter(|l| *l > 0).unwrap_or(i64::MAX);
    let total = ctx.site.store.count_search(&sql).await?.min(limit);
    let size = batch.size.min(total.saturating_sub(batch.start).max(0));
    let found = if size > 0 { ctx.site.store.search(&sql, batch.start, size).await? } else { Vec::new() };
    let items = if ctx.options.fullobjects {
        Box::pin(crate::services::search::full_items(ctx, &found)).await?
    } else {
        found.iter().map(|object| Value::Object(summary(ctx, object, &ctx.options.metadata_fields))).collect()
    };
    out.insert("items".into(), Value::Array(items));
    out.insert("items_total".into(), json!(total));
    if let Some(links) = batching_links(&ctx.options.listing_url, ctx.query, batch, total) {
        out.insert("batching".into(), links);
    }
    Ok(())
}
