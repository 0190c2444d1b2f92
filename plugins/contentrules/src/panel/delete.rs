//! `DELETE @controlpanels/content-rules/<rule>`: delete a rule with its assignments;
//! `…/<rule>/<condition|action>/<idx>`: remove one condition or action.

use super::input::{named_category, named_index, named_rule};
use crate::store;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, NoContent};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Deletes rules, conditions and actions.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "@controlpanels/content-rules",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("{rule_id}", "Delete a rule and its assignments", endpoint!(delete_rule)),
        Route::new("{rule_id}/{category}/{idx}", "Remove a condition or an action", endpoint!(delete_element)),
    ],
};

async fn delete_rule(ctx: Ctx) -> ApiResult<NoContent> {
    let rule = named_rule(&ctx).await?;
    store::delete_rule(&ctx.app.store, &rule.id).await?;
    Ok(NoContent::NoContent)
}

async fn delete_element(ctx: Ctx) -> ApiResult<NoContent> {
    let mut rule = named_rule(&ctx).await?;
    let category = named_category(&ctx)?;
    let idx = named_index(&ctx, category.of(&rule))?;
    category.of_mut(&mut rule).remove(idx);
    store::update_rule(&ctx.app.store, &rule).await?;
    Ok(NoContent::NoContent)
}
