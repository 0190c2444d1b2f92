//! `GET @controlpanels/content-rules`: the rules; `…/<rule>`: one rule;
//! `…/<rule>/<condition|action>/<idx>`: one condition's or action's values with its form.

use super::input::{named_category, named_index, named_rule};
use super::render::{GROUP, TITLE, listing_item, panel_url, rule_json};
use super::shapes::{RuleElementShape, RuleShape, RulesPanelShape};
use crate::elements::{self, is_write_only};
use crate::store;
use serde_json::{Map, Value, json};
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Dyn};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Reads the panel.
pub static GET: Service = Service {
    method: Method::GET,
    name: "@controlpanels/content-rules",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "The content rules, with their triggers and whether they are assigned", endpoint!(list)),
        Route::new("{rule_id}", "One rule: settings, conditions, actions, assignments", endpoint!(one)),
        Route::new(
            "{rule_id}/{category}/{idx}",
            "One condition or action: its values and its form",
            endpoint!(element),
        ),
    ],
};

async fn list(ctx: Ctx) -> ApiResult<Dyn<RulesPanelShape>> {
    let rules = store::rules(&ctx.app.store).await?;
    let assigned = store::assigned_rule_ids(&ctx.app.store).await?;
    let items: Vec<Value> = rules.iter().map(|rule| listing_item(&ctx, rule, assigned.contains(&rule.id))).collect();
    Ok(Dyn::new(json!({"@id": panel_url(&ctx), "group": GROUP, "items": [items], "title": TITLE})))
}

async fn one(ctx: Ctx) -> ApiResult<Dyn<RuleShape>> {
    let rule = named_rule(&ctx).await?;
    Ok(Dyn::new(rule_json(&ctx, &rule).await?))
}

async fn element(ctx: Ctx) -> ApiResult<Dyn<RuleElementShape>> {
    let rule = named_rule(&ctx).await?;
    let category = named_category(&ctx)?;
    let list = category.of(&rule);
    let element = &list[named_index(&ctx, list)?];
    let mut body = Map::new();
    let url = format!("{}/{}/{}/{}", panel_url(&ctx), rule.id, category.segment(), ctx.param("idx"));
    body.insert("@id".to_owned(), json!(url));
    let kind = elements::kind(&element.kind);
    for (name, value) in &element.values {
        let hidden = kind.and_then(|k| k.property(name)).is_some_and(is_write_only);
        if !hidden {
            body.insert(name.clone(), value.clone());
        }
    }
    let schema = kind.map_or_else(
        || json!({"fieldsets": [], "properties": {}, "required": [], "type": "object"}),
        |k| k.schema(&ctx.site_url()),
    );
    body.insert("@schema".to_owned(), schema);
    Ok(Dyn::new(Value::Object(body)))
}
