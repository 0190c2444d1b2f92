//! `POST <site>/@relations`, `DELETE <site>/@relations` and `POST <site>/@relations/rebuild`
//! (plone.restapi 9). A relation named like one of the source's relation fields
//! (`relatedItems`, a type's own) is a value of that field: adding and removing one writes the
//! field through the ordinary write path, so the index, the change feed and versions follow.
//! Any other name makes a free relation, as plone.api makes one, kept in the relation index
//! only (no field shows it; `@relations` lists it; a rebuild keeps it). Every
//! source needs `Modify portal content`, every end must be an object the caller may see, and
//! a request with any item that cannot be carried out changes nothing (422 listing them).
//! The rebuild derives the whole relation index from the fields again (Managers and Site Administrators: Manage portal).

use super::move_copy_sources::reference_key;
use crate::app::SITE_TYPE;
use crate::content::values::{Mode, parse_changes};
use crate::content::{ContentObject, FieldKind};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, NoContent};
use crate::ops::{OnConflict, WriteOrigin, index_relations, resolve_references, stored_targets, update};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::store::RelationQuery;
use poem::http::Method;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The most items one request may name.
const MAX_ITEMS: usize = 100;
/// The most relations one DELETE by filter may remove.
const MAX_DELETED: i64 = 10_000;

/// Adds relations, or rebuilds the relation index.
pub static RELATIONS_POST: Service = Service {
    method: Method::POST,
    name: "@relations",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "Add relations: {items: [{source, target, relation}]}", endpoint!(post)),
        Route {
            guard: Some(Guard::Has(Permission::MANAGE_PORTAL)),
            body_required: false,
            ..Route::new("rebuild", "Derive the relation index from the relation fields again", endpoint!(rebuild))
        },
    ],
};

/// Removes relations.
pub static RELATIONS_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@relations",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Remove relations: {items: [{source, target, relation}]}, or every relation matching {source, target, relation}",
        endpoint!(delete),
    )],
};

/// One relation a request names, resolved.
struct Named {
    source: ContentObject,
    target: ContentObject,
    field: String,
    /// Named like no field of the source: a free relation.
    free: bool,
}

/// The longest name of a free relation.
const MAX_NAME: usize = 100;

/// Whether `name` may name a free relation: letters, digits, `_`, `-` and `.`.
fn free_name(name: &str) -> bool {
    name.len() <= MAX_NAME && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The objects a reference (UID, path or URL) names and the caller may see.
async fn find(ctx: &Ctx, reference: &str) -> ApiResult<Option<ContentObject>> {
    let site_path = format!("/{}", ctx.context.site_id());
    let (is_uid, key) = reference_key(reference, &site_path);
    let visibility = ctx.visibility();
    let found = if is_uid {
        ctx.app.store.visible_content_by_uids(std::slice::from_ref(&key), &visibility).await?
    } else {
        ctx.app.store.visible_content_at_paths(&[key], &visibility).await?
    };
    Ok(found.into_iter().next())
}

fn items(body: &Map<String, Value>) -> ApiResult<&Vec<Value>> {
    let items = body
        .get("items")
        .and_then(Value::as_array)
        .ok_or_else(|| ApiError::new(ErrorCode::MissingProperty, "Property 'items' (a list) is required."))?;
    if items.is_empty() || items.len() > MAX_ITEMS {
        return Err(ApiError::invalid_parameter("items", format!("Name 1 to {MAX_ITEMS} relations.")));
    }
    Ok(items)
}

/// Resolves every item, or fails naming each that cannot be carried out (`verb`: creating,
/// deleting).
async fn resolve(ctx: &Ctx, items: &[Value], verb: &str) -> ApiResult<Vec<Named>> {
    refuse_anonymous(ctx)?;
    let mut named = Vec::new();
    let mut failed = Vec::new();
    for item in items {
        let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        let (Some(source), Some(target), Some(relation)) = (text("source"), text("target"), text("relation")) else {
            failed.push(json!([item, format!("Failed on {verb} a relation. Give source, target and relation.")]));
            continue;
        };
        let Some(source) = find(ctx, source).await? else {
            failed.push(json!([item, format!("Failed on {verb} a relation. Source not found.")]));
            continue;
        };
        let Some(target) = find(ctx, target).await? else {
            failed.push(json!([item, format!("Failed on {verb} a relation. Target not found.")]));
            continue;
        };
        let field = ctx.app.types.get(&source.portal_type).and_then(|profile| profile.field(relation).cloned());
        let free = match field {
            Some(field) if field.kind.is_relation() => false,
            None if free_name(relation) => true,
            _ => {
                let type_name = &source.portal_type;
                let why = format!(
                    "Failed on {verb} a relation. '{relation}' is a field of {type_name} that holds no relations."
                );
                failed.push(json!([item, why]));
                continue;
            }
        };
        named.push(Named { source, target, field: relation.to_owned(), free });
    }
    if !failed.is_empty() {
        let message = format!("Failed on {verb} relations");
        return Err(ApiError::new(ErrorCode::Unprocessable, message).with_failed("Unprocessable Content", failed));
    }
    for relation in &named {
        ctx.check_on(&relation.source, Permission::MODIFY_PORTAL_CONTENT).await?;
    }
    Ok(named)
}

/// Adds (or removes) the relations: free ones in the index, the others in their sources'
/// fields.
async fn rewrite(ctx: &Ctx, named: Vec<Named>, adding: bool) -> ApiResult<()> {
    let (free, named): (Vec<Named>, Vec<Named>) = named.into_iter().partition(|n| n.free);
    if !free.is_empty() {
        let mut tx = ctx.app.store.begin().await?;
        for Named { source, target, field, .. } in &free {
            let written = if adding {
                tx.add_free_relation(&source.uid, field, &target.uid).await
            } else {
                tx.remove_free_relation(&source.uid, field, &target.uid).await
            };
            // Another request added one to the same source meanwhile and took the position.
            written.map_err(|e| match crate::store::is_unique_violation(&e) {
                true => ApiError::new(ErrorCode::Conflict, "The relations changed meanwhile; try again."),
                false => ApiError::from(e),
            })?;
        }
        tx.commit().await?;
    }
    let mut by_source: BTreeMap<String, (ContentObject, Vec<(String, String)>)> = BTreeMap::new();
    for Named { source, target, field, .. } in named {
        by_source.entry(source.uid.clone()).or_insert_with(|| (source, Vec::new())).1.push((field, target.uid));
    }
    let visibility = ctx.visibility();
    let origin = WriteOrigin { base_url: &ctx.request.base_url, visibility: &visibility };
    for (_, (source, pairs)) in by_source {
        let Some(profile) = ctx.app.types.get(&source.portal_type) else { continue };
        let mut body = Map::new();
        for (field, target) in pairs {
            let single = profile.field(&field).is_some_and(|f| f.kind == FieldKind::RelationChoice);
            let entry = body.entry(field.clone()).or_insert_with(|| {
                Value::Array(
                    source
                        .fields
                        .get(&field)
                        .map(stored_targets)
                        .unwrap_or_default()
                        .into_iter()
                        .map(Value::from)
                        .collect(),
                )
            });
            let mut targets: Vec<String> = stored_targets(entry);
            if !adding {
                targets.retain(|t| *t != target);
            } else if !targets.contains(&target) {
                if single {
                    targets.clear();
                }
                targets.push(target);
            }
            *entry = json!(targets);
        }
        for field in body.keys().cloned().collect::<Vec<_>>() {
            if profile.field(&field).is_some_and(|f| f.kind == FieldKind::RelationChoice) {
                let single = body.get(&field).map(stored_targets).unwrap_or_default().pop();
                body.insert(field, single.map_or(Value::Null, Value::from));
            }
        }
        let mut changes = parse_changes(&profile, &body, Mode::Patch, &[], &ctx.app.registry.read_only_keys(&profile))?;
        resolve_references(&ctx.app, &origin, source.site_id(), &profile, &mut changes).await?;
        update(&ctx.app, &source, &changes, None, OnConflict::Reapply).await?;
    }
    Ok(())
}

async fn post(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let named = resolve(&ctx, items(&body)?, "creating").await?;
    rewrite(&ctx, named, true).await?;
    Ok(NoContent::NoContent)
}

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let named = if body.contains_key("items") {
        resolve(&ctx, items(&body)?, "deleting").await?
    } else {
        matching(&ctx, &body).await?
    };
    rewrite(&ctx, named, false).await?;
    Ok(NoContent::NoContent)
}

/// Anonymous callers may change no relation: refused (401) before anything is looked up, so
/// they learn nothing about which objects exist.
fn refuse_anonymous(ctx: &Ctx) -> ApiResult<()> {
    if ctx.principal.user_id().is_none() {
        return Err(Permission::MODIFY_PORTAL_CONTENT.refuse(&ctx.principal));
    }
    Ok(())
}

/// The relations `{source, target, relation}` (any of them) select, for a DELETE by filter.
async fn matching(ctx: &Ctx, body: &Map<String, Value>) -> ApiResult<Vec<Named>> {
    refuse_anonymous(ctx)?;
    let text = |key: &str| body.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    if text("source").is_none() && text("target").is_none() && text("relation").is_none() {
        return Err(ApiError::new(ErrorCode::MissingProperty, "Give items, or a source, a target or a relation."));
    }
    let end = |key: &'static str| async move {
        match text(key) {
            None => Ok::<_, ApiError>(Some(Vec::new())),
            Some(reference) => Ok(find(ctx, reference).await?.map(|o| vec![o.uid])),
        }
    };
    let (Some(sources), Some(targets)) = (end("source").await?, end("target").await?) else {
        let failed = vec![json!([body, "Failed on deleting relations. Source or target not found."])];
        return Err(ApiError::new(ErrorCode::Unprocessable, "Failed on deleting relations")
            .with_failed("Unprocessable Content", failed));
    };
    let query = RelationQuery {
        sources,
        targets,
        field: text("relation").map(str::to_owned),
        only_broken: false,
        limit: MAX_DELETED,
    };
    let rows = ctx.app.store.find_relations(&query, &ctx.visibility()).await?;
    let uids: Vec<String> = rows.iter().flat_map(|r| [r.source_uid.clone(), r.target_uid.clone()]).collect();
    let objects = ctx.app.store.content_by_uids(&uids).await?;
    let object = |uid: &str| objects.iter().find(|o| o.uid == uid).cloned();
    let named: Vec<Named> = rows
        .iter()
        .filter_map(|row| {
            let source = object(&row.source_uid)?;
            let is_field = ctx.app.types.get(&source.portal_type).is_some_and(|p| p.field(&row.field).is_some());
            Some(Named { source, target: object(&row.target_uid)?, field: row.field.clone(), free: !is_field })
        })
        .collect();
    for relation in &named {
        ctx.check_on(&relation.source, Permission::MODIFY_PORTAL_CONTENT).await?;
    }
    Ok(named)
}

/// Derives every object's relation index rows from its fields again, in one transaction.
async fn rebuild(ctx: Ctx) -> ApiResult<NoContent> {
    let site = format!("/{}", ctx.context.site_id());
    let objects = ctx.app.store.subtree(&site).await?;
    let mut tx = ctx.app.store.begin().await?;
    for object in &objects {
        if let Some(profile) = ctx.app.types.get(&object.portal_type)
            && profile.relation_fields().next().is_some()
        {
            index_relations(&mut tx, &profile, object).await?;
        }
    }
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
