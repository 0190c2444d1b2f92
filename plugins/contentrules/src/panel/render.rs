//! A rule as the Content Rules panel shows it, in plone.restapi's shape.

use crate::elements::{self, summary};
use crate::model::{Category, Element, Rule};
use crate::store;
use crate::triggers::{title_of, trigger};
use serde_json::{Value, json};
use wcs_core::http::{ApiResult, Ctx};

/// Where Site Setup lists the panel.
pub const GROUP: &str = "Content";
/// The panel's heading.
pub const TITLE: &str = "Content Rules";

/// `<site>/@controlpanels/content-rules`.
pub fn panel_url(ctx: &Ctx) -> String {
    format!("{}/@controlpanels/content-rules", ctx.site_url())
}

/// The whole rule: settings, conditions and actions with the kinds that may be added, and
/// where it is assigned.
pub async fn rule_json(ctx: &Ctx, rule: &Rule) -> ApiResult<Value> {
    let site_url = ctx.site_url();
    let versioning = elements::versioning_on(&ctx.app);
    let addable =
        |category| elements::kinds(category, versioning, &rule.event).map(|k| k.addable(&site_url)).collect::<Vec<_>>();
    let mut assignments = Vec::new();
    for (assignment, path) in store::assignments_of(&ctx.app.store, &rule.id).await? {
        let object = ctx.app.store.content_at_path(&path).await?;
        let title = object.as_ref().map(|o| o.title.clone()).unwrap_or_default();
        assignments.push(json!({
            "url": format!("{}{path}/@@manage-content-rules", ctx.request.base_url),
            "title": title,
            "bubbles": assignment.bubbles,
            "enabled": assignment.enabled,
        }));
    }
    Ok(json!({
        "@id": format!("{}/{}", panel_url(ctx), rule.id),
        "actions": element_items(ctx, rule, Category::Action),
        "addable_actions": addable(Category::Action),
        "addable_conditions": addable(Category::Condition),
        "assignments": assignments,
        "cascading": rule.cascading,
        "conditions": element_items(ctx, rule, Category::Condition),
        "description": rule.description,
        "enabled": rule.enabled,
        "event": title_of(&rule.event),
        "group": GROUP,
        "id": rule.id,
        "stop": rule.stop,
        "title": rule.title,
    }))
}

fn element_items(ctx: &Ctx, rule: &Rule, category: Category) -> Vec<Value> {
    let site_url = ctx.site_url();
    let type_title = |id: &str| ctx.app.types.get(id).map(|t| t.title.clone());
    let list: &[Element] = category.of(rule);
    list.iter()
        .enumerate()
        .map(|(idx, element)| {
            let kind = elements::kind(&element.kind);
            let editview = kind
                .filter(|k| k.has_form())
                .map(|_| format!("{site_url}/++rule++{}/++{}++{idx}/edit", rule.id, category.segment()));
            json!({
                "description": kind.map(|k| k.description.as_str()).unwrap_or_default(),
                "editview": editview,
                "first": idx == 0,
                "idx": idx,
                "last": idx + 1 == list.len(),
                "summary": summary(element, &type_title),
                "title": kind.map_or(element.kind.as_str(), |k| k.title.as_str()),
            })
        })
        .collect()
}

/// A rule as the panel's listing has it.
pub fn listing_item(ctx: &Ctx, rule: &Rule, assigned: bool) -> Value {
    let state = if rule.enabled { "state-enabled" } else { "state-disabled" };
    let assignment = if assigned { "assignment-assigned" } else { "assignment-unassigned" };
    let trigger_class = trigger(&rule.event).map(|t| t.row_class()).unwrap_or_default();
    json!({
        "@id": format!("{}/{}", panel_url(ctx), rule.id),
        "assigned": assigned,
        "description": rule.description,
        "enabled": rule.enabled,
        "id": rule.id,
        "row_class": format!("{trigger_class} {state} {assignment}"),
        "title": rule.title,
        "trigger": title_of(&rule.event),
    })
}
