//! `GET @content-rules`: the rules assigned here, acquired from above, and assignable.

use crate::permissions::MANAGE_RULES;
use crate::store;
use crate::triggers::title_of;
use poem_openapi::registry::{MetaSchema, Registry};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use wcs_core::endpoint;
use wcs_core::http::schema::{any_object, object};
use wcs_core::http::{ApiResult, Ctx, Dyn, Shape};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Lists the rules of the object.
pub static GET: Service = Service {
    method: Method::GET,
    name: "@content-rules",
    kind: ContentKind::Folderish,
    guard: Guard::Has(MANAGE_RULES),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "The rules assigned here, acquired from above, and assignable", endpoint!(get))],
};

/// The answer.
struct ObjectRulesShape;

impl Shape for ObjectRulesShape {
    const NAME: &'static str = "ObjectContentRules";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "Under `content-rules`: assigned_rules (here, with enabled, bubbles and global_enabled), acquired_rules \
             (assigned above and applying to sub-folders) and assignable_rules",
            vec![("content-rules", any_object())],
            &["content-rules"],
        )
    }
}

async fn get(ctx: Ctx) -> ApiResult<Dyn<ObjectRulesShape>> {
    let rules = store::rules(&ctx.app.store).await?;
    let rule = |id: &str| rules.iter().find(|r| r.id == id);
    let site_url = ctx.site_url();
    let chain = ctx.access.chain().to_vec();
    let uids: Vec<&str> = chain.iter().map(|o| o.uid.as_str()).collect();
    let assignments = store::assignments_on(&ctx.app.store, &uids).await?;
    let here: Vec<_> = assignments.iter().filter(|a| a.content_uid == ctx.context.uid).collect();
    let in_use: BTreeSet<&str> = here.iter().map(|a| a.rule_id.as_str()).collect();
    let assigned: Vec<Value> = here
        .iter()
        .filter_map(|a| {
            let r = rule(&a.rule_id)?;
            Some(json!({
                "bubbles": a.bubbles,
                "description": r.description,
                "enabled": a.enabled,
                "global_enabled": r.enabled,
                "id": r.id,
                "title": r.title,
                "trigger": title_of(&r.event),
                "url": format!("{site_url}/++rule++{}/@@manage-elements", r.id),
            }))
        })
        .collect();
    let mut acquired = Vec::new();
    for ancestor in chain.iter().rev().skip(1) {
        for a in assignments.iter().filter(|a| a.content_uid == ancestor.uid && a.bubbles) {
            let Some(r) = rule(&a.rule_id).filter(|r| !in_use.contains(r.id.as_str())) else { continue };
            acquired.push(json!({
                "description": r.description,
                "enabled": a.enabled && r.enabled,
                "id": r.id,
                "title": r.title,
                "trigger": title_of(&r.event),
                "url": format!("{}/@@manage-content-rules", ctx.url_of(ancestor)),
            }));
        }
    }
    let assignable: Vec<Value> = rules
        .iter()
        .filter(|r| !in_use.contains(r.id.as_str()))
        .map(|r| json!({"description": r.description, "id": r.id, "title": r.title}))
        .collect();
    Ok(Dyn::new(json!({
        "content-rules": {
            "acquired_rules": acquired,
            "assignable_rules": assignable,
            "assigned_rules": assigned,
        }
    })))
}
