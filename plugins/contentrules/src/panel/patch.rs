//! `PATCH @controlpanels/content-rules/<rule>`: change a rule's settings, or assign it to the
//! whole site; `…/<rule>/<condition|action>/<idx>`: change a condition's or action's values,
//! or move it up or down.

use super::input::{apply_settings, element_values, named_category, named_index, named_rule};
use super::shapes::{RuleElementInputShape, RuleInputShape};
use crate::elements;
use crate::store;
use serde_json::Value;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, NoContent, shape_schema};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Changes rules, conditions and actions.
pub static PATCH: Service = Service {
    method: Method::PATCH,
    name: "@controlpanels/content-rules",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            request: Some(shape_schema::<RuleInputShape>),
            ..Route::new(
                "{rule_id}",
                "Change a rule's settings (the keys given), or assign it site-wide",
                endpoint!(change_rule),
            )
        },
        Route {
            request: Some(shape_schema::<RuleElementInputShape>),
            ..Route::new(
                "{rule_id}/{category}/{idx}",
                "Change a condition's or action's values, or move it",
                endpoint!(change_element),
            )
        },
    ],
};

async fn change_rule(ctx: Ctx) -> ApiResult<NoContent> {
    let mut rule = named_rule(&ctx).await?;
    let mut body = ctx.json_body()?;
    if body.remove("form.button.ApplyOnWholeSite").is_some() {
        store::assign(&ctx.app.store, &ctx.context.uid, &rule.id).await?;
        store::edit_assignments(
            &ctx.app.store,
            &ctx.context.uid,
            std::slice::from_ref(&rule.id),
            Some(true),
            Some(true),
        )
        .await?;
        if body.is_empty() {
            return Ok(NoContent::NoContent);
        }
    }
    apply_settings(&mut rule, &body)?;
    store::update_rule(&ctx.app.store, &rule).await?;
    Ok(NoContent::NoContent)
}

async fn change_element(ctx: Ctx) -> ApiResult<NoContent> {
    let mut rule = named_rule(&ctx).await?;
    let category = named_category(&ctx)?;
    let idx = named_index(&ctx, category.of(&rule))?;
    let mut body = ctx.json_body()?;
    match body.remove("form.button.Move") {
        Some(Value::String(direction)) => {
            let list = category.of_mut(&mut rule);
            match direction.as_str() {
                "_move_up" if idx > 0 => list.swap(idx, idx - 1),
                "_move_down" if idx + 1 < list.len() => list.swap(idx, idx + 1),
                "_move_up" | "_move_down" => {}
                other => {
                    return Err(ApiError::invalid_parameter(
                        "form.button.Move",
                        format!("'{other}' is no move; use _move_up or _move_down."),
                    ));
                }
            }
        }
        Some(_) => return Err(ApiError::invalid_parameter("form.button.Move", "_move_up or _move_down is expected.")),
        None => {
            let element = &category.of(&rule)[idx];
            let kind = elements::kind(&element.kind).ok_or_else(|| {
                ApiError::invalid_parameter("type", format!("'{}' has no form here to change.", element.kind))
            })?;
            let values = element_values(&ctx, kind, &body, Some(&element.values)).await?;
            category.of_mut(&mut rule)[idx].values = values;
        }
    }
    store::update_rule(&ctx.app.store, &rule).await?;
    Ok(NoContent::NoContent)
}
