//! `GET <obj>/@linkintegrity?uids=<uid>&uids=…`: before deleting, what would break. For each
//! object: its summary, how many objects inside it would go with it (`items_total`), and the
//! objects outside it that link into it (`breaches`: relations and links in text, link fields
//! and blocks), as plone.restapi answers. Only objects the caller may see are reported, as
//! targets and as sources.

use crate::endpoint;
use crate::http::schema::{array_of, integer, object, string};
use crate::http::{ApiError, ApiResult, Ctx, Dyn, Shape};
use crate::security::{Csrf, Permission};
use crate::serialize::{summary, summary_schema};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::store::RelationQuery;
use poem::http::Method;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The most objects one request may ask about.
const MAX_UIDS: usize = 100;
/// The most objects inside one target whose links are followed.
const MAX_SUBTREE: usize = 1_000;

/// The service.
pub static LINK_INTEGRITY: Service = Service {
    method: Method::GET,
    name: "@linkintegrity",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: &[QueryParam::new("uids", ParamKind::StringList, "The objects to check (at most 100)")],
        ..Route::new("", "What deleting these objects would break: links into them from elsewhere", endpoint!(get))
    }],
};

/// `GET @linkintegrity`: per object asked about, its summary, what links to it and how many
/// objects are inside it.
pub struct LinkIntegrityShape;

impl Shape for LinkIntegrityShape {
    const NAME: &'static str = "LinkIntegrityReport";

    fn schema(registry: &mut Registry) -> MetaSchema {
        let breach = object(
            "An object linking to the one asked about",
            vec![("@id", string()), ("title", string()), ("uid", string())],
            &["@id", "title", "uid"],
        );
        let entry = MetaSchema {
            all_of: vec![
                summary_schema(registry),
                MetaSchemaRef::Inline(Box::new(object(
                    "What links in, and how many objects deleting it takes along",
                    vec![("breaches", array_of(MetaSchemaRef::Inline(Box::new(breach)))), ("items_total", integer())],
                    &["breaches", "items_total"],
                ))),
            ],
            ..MetaSchema::ANY
        };
        MetaSchema { items: Some(Box::new(MetaSchemaRef::Inline(Box::new(entry)))), ..MetaSchema::new("array") }
    }
}

async fn get(ctx: Ctx) -> ApiResult<Dyn<LinkIntegrityShape>> {
    let uids = ctx.request.query_values("uids");
    if uids.is_empty() {
        return Err(ApiError::invalid_parameter("uids", "Name the objects to check with uids."));
    }
    if uids.len() > MAX_UIDS {
        return Err(ApiError::invalid_parameter("uids", format!("At most {MAX_UIDS} objects at a time.")));
    }
    let visibility = ctx.visibility();
    let options = ctx.serialize_options()?;
    let sctx = ctx.serialize_ctx(&options, &visibility);
    let store = &ctx.app.store;
    let mut report = Vec::new();
    for target in store.visible_content_by_uids(&uids, &visibility).await? {
        let inside: Vec<String> = store.subtree(&target.path).await?.into_iter().map(|o| o.uid).collect();
        let items_total = inside.len().saturating_sub(1);
        let followed: Vec<String> = inside.iter().take(MAX_SUBTREE).cloned().collect();
        let own: BTreeSet<&String> = inside.iter().collect();
        let query = RelationQuery { targets: followed.clone(), limit: 10_000, ..RelationQuery::default() };
        let mut sources: BTreeSet<String> =
            store.find_relations(&query, &visibility).await?.into_iter().map(|r| r.source_uid).collect();
        sources.extend(store.linking_to(&followed).await?);
        sources.retain(|uid| !own.contains(uid));
        let sources: Vec<String> = sources.into_iter().collect();
        let mut linking = store.visible_content_by_uids(&sources, &visibility).await?;
        linking.sort_by(|a, b| a.path.cmp(&b.path));
        let breaches: Vec<Value> = linking
            .iter()
            .map(|source| json!({"@id": source.url(&ctx.request.base_url), "title": source.title, "uid": source.uid}))
            .collect();
        let mut entry = summary(&sctx, &target, &[]);
        entry.insert("breaches".into(), json!(breaches));
        entry.insert("items_total".into(), json!(items_total));
        report.push(Value::Object(entry));
    }
    Ok(Dyn::new(report))
}
