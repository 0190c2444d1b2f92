//! plone.restapi 9's form of `GET <site>/@relations`, which Volto's relations control panel
//! uses: without parameters, how many relations each relation name has (`stats`, `broken`);
//! with `source`, `target` (a UID or a path starting with `/`), `relation`, `query_source`,
//! `query_target` (a path, or words to search) and `max`, the matching relations grouped by
//! relation name. Both ends must be visible to the caller.

use crate::catalog::{Scope, SearchQuery};
use crate::content::ContentObject;
use crate::content::links::SitePrefixes;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::ops::lookup_references;
use crate::security::Visibility;
use crate::serialize::relation_summary;
use crate::store::RelationQuery;
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// The parameters only this form has; any of them (or none at all) selects it.
pub const QUERY_FORM_PARAMETERS: [&str; 5] = ["source", "target", "relation", "query_source", "query_target"];
/// The most objects a `query_source` or `query_target` search narrows to.
const MAX_QUERY_OBJECTS: i64 = 1_000;

/// Whether the request uses this form.
pub fn is_query_form(ctx: &Ctx) -> bool {
    let query = &ctx.request.query;
    query.is_empty() || query.iter().any(|(key, _)| QUERY_FORM_PARAMETERS.contains(&key.as_str()))
}

/// The stats, or the relations the parameters select.
pub async fn answer(ctx: &Ctx, visibility: &Visibility, limit: i64) -> ApiResult<Value> {
    if ctx.request.query.is_empty() {
        return stats(ctx, visibility).await;
    }
    let mut sources = one(ctx, visibility, "source").await?;
    let mut targets = one(ctx, visibility, "target").await?;
    if let Some(found) = searched(ctx, visibility, "query_source").await? {
        sources.extend(found);
    }
    if let Some(found) = searched(ctx, visibility, "query_target").await? {
        targets.extend(found);
    }
    let relation = ctx.request.query_value("relation").map(str::to_owned);
    let query = RelationQuery { sources, targets, field: relation.clone(), only_broken: false, limit };
    let rows = ctx.app.store.find_relations(&query, visibility).await?;
    let uids: Vec<String> = rows.iter().flat_map(|r| [r.source_uid.clone(), r.target_uid.clone()]).collect();
    let objects: HashMap<String, ContentObject> =
        ctx.app.store.content_by_uids(&uids).await?.into_iter().map(|o| (o.uid.clone(), o)).collect();
    let options = ctx.serialize_options()?;
    let sctx = ctx.serialize_ctx(&options, visibility);
    let mut grouped: Map<String, Value> = Map::new();
    if let Some(name) = &relation {
        grouped.insert(name.clone(), json!({"items": [], "items_total": 0}));
    }
    for row in &rows {
        let (Some(source), Some(target)) = (objects.get(&row.source_uid), objects.get(&row.target_uid)) else {
            continue;
        };
        let entry = grouped.entry(row.field.clone()).or_insert_with(|| json!({"items": [], "items_total": 0}));
        let pair = json!({"source": relation_summary(&sctx, source), "target": relation_summary(&sctx, target)});
        if let Some(items) = entry["items"].as_array_mut() {
            items.push(pair);
            entry["items_total"] = json!(items.len());
        }
    }
    if let Some(name) = &relation
        && let Some(entry) = grouped.get_mut(name)
    {
        entry["readonly"] = json!(false);
        // A relation field's vocabulary query; a free relation (named like no field) has none.
        let is_field = ctx.app.types.all().any(|t| t.relation_fields().any(|f| f.name == *name));
        entry["staticCatalogVocabularyQuery"] = if is_field { json!({}) } else { Value::Null };
    }
    // The URL as requested, as plone.restapi echoes it.
    Ok(json!({"@id": ctx.request.request_url(), "relations": grouped}))
}

async fn stats(ctx: &Ctx, visibility: &Visibility) -> ApiResult<Value> {
    let (valid, broken) = ctx.app.store.relation_counts(visibility).await?;
    let to_map = |counts: Vec<(String, i64)>| -> Map<String, Value> {
        counts.into_iter().map(|(name, count)| (name, json!(count))).collect()
    };
    Ok(json!({"@id": ctx.request.service_url, "stats": to_map(valid), "broken": to_map(broken)}))
}

/// The uid of the object `source` or `target` names; a name that matches nothing the caller
/// may see is a 404, as upstream answers.
async fn one(ctx: &Ctx, visibility: &Visibility, parameter: &str) -> ApiResult<Vec<String>> {
    let Some(reference) = ctx.request.query_value(parameter) else {
        return Ok(Vec::new());
    };
    let prefixes = SitePrefixes::new(&ctx.request.base_url, ctx.context.site_id());
    let references = [reference.to_owned()];
    let found = lookup_references(&ctx.app, &prefixes, visibility, &references).await?;
    match found.get(reference) {
        Some(object) => Ok(vec![object.uid.clone()]),
        None => Err(ApiError::new(ErrorCode::NotFound, format!("No content found for {parameter} '{reference}'."))),
    }
}

/// The objects `query_source` or `query_target` selects: everything below a path starting
/// with `/`, else what a search for the words finds.
async fn searched(ctx: &Ctx, visibility: &Visibility, parameter: &str) -> ApiResult<Option<Vec<String>>> {
    let Some(text) = ctx.request.query_value(parameter).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let site_path = format!("/{}", ctx.context.site_id());
    let criterion = if text.starts_with('/') {
        ("path".to_owned(), format!("{site_path}{}", text.trim_end_matches('/')))
    } else {
        ("SearchableText".to_owned(), text.to_owned())
    };
    let pairs = [criterion, ("b_size".to_owned(), MAX_QUERY_OBJECTS.to_string())];
    let query = SearchQuery::parse(&pairs, &site_path, ctx.app.catalog_indexes())?;
    let scope = Scope::new(&ctx.app, &ctx.context.path, visibility.clone());
    let (found, _) = super::search::sql_search(ctx, &query, &scope).await?;
    Ok(Some(found.into_iter().map(|o| o.uid).collect()))
}
