//! `DELETE @content-rules` with `rule_ids`: remove those assignments here.

use super::rule_ids;
use crate::permissions::MANAGE_RULES;
use crate::store;
use poem_openapi::registry::{MetaSchema, Registry};
use wcs_core::endpoint;
use wcs_core::http::schema::{array_of, object, string};
use wcs_core::http::{ApiResult, Ctx, NoContent, Shape, shape_schema};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Removes assignments.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "@content-rules",
    kind: ContentKind::Folderish,
    guard: Guard::Has(MANAGE_RULES),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<UnassignShape>),
        ..Route::new("", "Remove the assignments of rule_ids here", endpoint!(delete))
    }],
};

/// Which assignments go.
struct UnassignShape;

impl Shape for UnassignShape {
    const NAME: &'static str = "ContentRuleUnassign";

    fn schema(_: &mut Registry) -> MetaSchema {
        object("The rules to unassign here", vec![("rule_ids", array_of(string()))], &["rule_ids"])
    }
}

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let ids = rule_ids(&ctx.json_body()?)?;
    store::unassign(&ctx.app.store, &ctx.context.uid, &ids).await?;
    Ok(NoContent::NoContent)
}
