//! `POST @controlpanels/content-rules`: a new rule; `…/<rule>/<condition|action>`: a new
//! condition or action at the end of the rule's list. Both answer 201 with the rule.

use super::input::{apply_settings, element_values, named_category, named_rule, unknown_kind};
use super::render::{panel_url, rule_json};
use super::shapes::{RuleElementInputShape, RuleInputShape, RuleShape};
use crate::elements;
use crate::model::{Element, Rule};
use crate::store::{self, MAX_ELEMENTS};
use crate::triggers::TRIGGERS;
use poem_openapi::payload::Response;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, DynCreated, ErrorCode, shape_schema};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Adds rules, conditions and actions.
pub static POST: Service = Service {
    method: Method::POST,
    name: "@controlpanels/content-rules",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            request: Some(shape_schema::<RuleInputShape>),
            ..Route::new("", "Add a rule: title and event (a trigger's title) required", endpoint!(add_rule))
        },
        Route {
            request: Some(shape_schema::<RuleElementInputShape>),
            ..Route::new(
                "{rule_id}/{category}",
                "Add a condition or an action: `type` and its values",
                endpoint!(add_element),
            )
        },
    ],
};

async fn add_rule(ctx: Ctx) -> ApiResult<Response<DynCreated<RuleShape>>> {
    let body = ctx.json_body()?;
    if !body.contains_key("event") {
        return Err(ApiError::invalid_parameter("event", "Property 'event' is required"));
    }
    let mut rule = Rule {
        id: String::new(),
        title: String::new(),
        description: String::new(),
        event: TRIGGERS[0].token.to_owned(),
        enabled: true,
        stop: false,
        cascading: false,
        conditions: Vec::new(),
        actions: Vec::new(),
        revision: 0,
    };
    apply_settings(&mut rule, &body)?;
    rule.id = store::insert_rule(&ctx.app.store, &rule).await?;
    let url = format!("{}/{}", panel_url(&ctx), rule.id);
    Ok(Response::new(DynCreated::new(rule_json(&ctx, &rule).await?)).header("Location", url))
}

async fn add_element(ctx: Ctx) -> ApiResult<Response<DynCreated<RuleShape>>> {
    let mut rule = named_rule(&ctx).await?;
    let category = named_category(&ctx)?;
    let mut body = ctx.json_body()?;
    let kind_name = match body.remove("type") {
        Some(serde_json::Value::String(name)) => name,
        _ => return Err(ApiError::invalid_parameter("type", format!("{} type is required", category.segment()))),
    };
    let versioning = elements::versioning_on(&ctx.app);
    let kind = elements::kinds(category, versioning, &rule.event)
        .find(|k| k.addview == kind_name)
        .ok_or_else(|| unknown_kind(category, &kind_name))?;
    if category.of(&rule).len() >= MAX_ELEMENTS {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("A rule has at most {MAX_ELEMENTS} {}s.", category.segment()),
        ));
    }
    let values = element_values(&ctx, kind, &body, None).await?;
    category.of_mut(&mut rule).push(Element { kind: kind.addview.clone(), values });
    store::update_rule(&ctx.app.store, &rule).await?;
    let url = format!("{}/{}", panel_url(&ctx), rule.id);
    Ok(Response::new(DynCreated::new(rule_json(&ctx, &rule).await?)).header("Location", url))
}
