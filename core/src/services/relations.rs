//! `GET <site>/@relations`: relations between objects, from the relation index.
//!
//! `relatedItems` are the relations from `sources` (to `targets`, when given);
//! `backRelatedItems` are the relations pointing back at `sources` (from `targets`).
//! Both ends must be visible to the caller unless a Manager asks for `unrestricted`;
//! relations whose source is in the trash are never listed. plone.restapi 9's form
//! (`source`, `target`, `relation`, or no parameters for stats) is answered by
//! [`super::relations_query`].

use crate::content::ContentObject;
use crate::content::links::SitePrefixes;
use crate::endpoint;
use crate::http::schema::{any_object, array_of, integer, map_of, nullable, object, string};
use crate::http::{ApiError, ApiResult, Ctx, Dyn, ErrorCode, Shape};
use crate::ops::lookup_references;
use crate::security::{Csrf, Permission, Visibility};
use crate::serialize::{SerializeCtx, relation_summary, summary_schema};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::store::{RelationQuery, RelationRow};
use poem::http::Method;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use serde_json::{Value, json};
use std::collections::HashMap;

const DEFAULT_MAX: i64 = 1_000;
const LARGEST_MAX: i64 = 10_000;

/// Lists relations, both directions, filtered by security.
pub static RELATIONS: Service = Service {
    method: Method::GET,
    name: "@relations",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: &[
            QueryParam::new("sources", ParamKind::StringList, "Objects (URL, path or UID) whose relations to list"),
            QueryParam::new("targets", ParamKind::StringList, "Only relations to (or back from) these objects"),
            QueryParam::new("relationship", ParamKind::String, "Only this relation field"),
            QueryParam::new("onlyBroken", ParamKind::Boolean, "Only relations whose target is gone"),
            QueryParam::new("unrestricted", ParamKind::Boolean, "Ignore View on the ends (Managers)"),
            QueryParam::new("max", ParamKind::Integer, "The most relations per direction (1-10000, default 1000)"),
            QueryParam::new("source", ParamKind::String, "plone.restapi 9: relations from this object"),
            QueryParam::new("target", ParamKind::String, "plone.restapi 9: relations to this object"),
            QueryParam::new("relation", ParamKind::String, "plone.restapi 9: this relation field"),
            QueryParam::new("query_source", ParamKind::String, "plone.restapi 9: sources whose title matches"),
            QueryParam::new("query_target", ParamKind::String, "plone.restapi 9: targets whose title matches"),
        ],
        ..Route::new(
            "",
            "Relations from `sources` (relatedItems) and back to them (backRelatedItems); plone.restapi 9's form \
             (source, target, relation…) groups them by relation; no parameters: counts per relation",
            endpoint!(relations),
        )
    }],
};

/// The three answers: by direction, plone.restapi 9's grouped form, or counts.
pub struct RelationsShape;

impl Shape for RelationsShape {
    const NAME: &'static str = "Relations";

    fn schema(registry: &mut Registry) -> MetaSchema {
        let summary = summary_schema(registry);
        let entry = object(
            "A relation: its field and both ends (target null when broken)",
            vec![("relationship", string()), ("source", summary.clone()), ("target", nullable(summary))],
            &["relationship", "source"],
        );
        let entries = || array_of(MetaSchemaRef::Inline(Box::new(entry.clone())));
        object(
            "relatedItems and backRelatedItems; or `relations` grouped by field; or `stats` and `broken` counts",
            vec![
                ("@id", string()),
                ("relatedItems", entries()),
                ("backRelatedItems", entries()),
                ("relations", map_of(any_object())),
                ("stats", map_of(integer())),
                ("broken", map_of(integer())),
            ],
            &["@id"],
        )
    }
}

async fn relations(ctx: Ctx) -> ApiResult<Dyn<RelationsShape>> {
    let unrestricted = ctx.request.query_bool("unrestricted")?.unwrap_or(false);
    if unrestricted && !ctx.allows(Permission::MANAGE_PORTAL) {
        return Err(Permission::MANAGE_PORTAL.refuse(&ctx.principal));
    }
    let visibility = if unrestricted { Visibility::ALL } else { ctx.visibility() };
    let only_broken = ctx.request.query_bool("onlyBroken")?.unwrap_or(false);
    let limit = match ctx.request.query_value("max") {
        None => DEFAULT_MAX,
        Some(text) => text.parse::<i64>().ok().filter(|n| (1..=LARGEST_MAX).contains(n)).ok_or_else(|| {
            ApiError::invalid_parameter("max", format!("'max' must be a number from 1 to {LARGEST_MAX}."))
        })?,
    };
    if super::relations_query::is_query_form(&ctx) {
        return Ok(Dyn::new(super::relations_query::answer(&ctx, &visibility, limit).await?));
    }
    let field = ctx.request.query_value("relationship");
    let sources = resolve(&ctx, &visibility, "sources").await?;
    let targets = resolve(&ctx, &visibility, "targets").await?;
    let query = RelationQuery { sources, targets, field: field.map(str::to_owned), only_broken, limit };
    let related = ctx.app.store.find_relations(&query, &visibility).await?;
    let back = if only_broken || (query.sources.is_empty() && query.targets.is_empty()) {
        Vec::new()
    } else {
        let reverse = RelationQuery { sources: query.targets.clone(), targets: query.sources.clone(), ..query.clone() };
        ctx.app.store.find_relations(&reverse, &visibility).await?
    };
    let uids: Vec<String> =
        related.iter().chain(&back).flat_map(|r| [r.source_uid.clone(), r.target_uid.clone()]).collect();
    let objects: HashMap<String, ContentObject> =
        ctx.app.store.content_by_uids(&uids).await?.into_iter().map(|o| (o.uid.clone(), o)).collect();
    let options = ctx.serialize_options()?;
    let sctx = ctx.serialize_ctx(&options, &visibility);
    let entries = |rows: &[RelationRow]| -> Vec<Value> {
        rows.iter()
            .filter_map(|row| {
                let source = objects.get(&row.source_uid)?;
                let target = objects.get(&row.target_uid).map(|t| Value::Object(relation_summary(&sctx, t)));
                Some(entry(&sctx, source, &row.field, target))
            })
            .collect()
    };
    Ok(Dyn::new(json!({
        "@id": ctx.request.service_url,
        "relatedItems": entries(&related),
        "backRelatedItems": entries(&back),
    })))
}

fn entry(sctx: &SerializeCtx<'_>, source: &ContentObject, relationship: &str, target: Option<Value>) -> Value {
    json!({
        "relationship": relationship,
        "source": Value::Object(relation_summary(sctx, source)),
        "target": target.unwrap_or(Value::Null),
    })
}

/// The uids of the objects a list parameter names; a name that matches nothing the caller
/// may see is a 404, as upstream answers.
async fn resolve(ctx: &Ctx, visibility: &Visibility, parameter: &str) -> ApiResult<Vec<String>> {
    let references = ctx.request.query_values(parameter);
    if references.is_empty() {
        return Ok(Vec::new());
    }
    let prefixes = SitePrefixes::new(&ctx.request.base_url, ctx.context.site_id());
    let found = lookup_references(&ctx.app, &prefixes, visibility, &references).await?;
    references
        .iter()
        .map(|reference| {
            found.get(reference).map(|o| o.uid.clone()).ok_or_else(|| {
                ApiError::new(ErrorCode::NotFound, format!("No content found for {parameter} '{reference}'."))
            })
        })
        .collect()
}
