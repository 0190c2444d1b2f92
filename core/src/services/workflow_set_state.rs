//! `POST <obj>/@workflow-set-state/<state>`.

use super::workflow::{comment, entry_json};
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::ops::workflow::{set_state, workflow_of};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// Sets a state directly, bypassing transitions; updates security; CSRF off. Review portal
/// content or Manage portal will do, which one declared permission cannot say: the handler
/// checks both.
pub static SET_STATE: Service = Service {
    method: Method::POST,
    name: "@workflow-set-state",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    routes: &[crate::service::Route::any(
        "Set the workflow state directly (POST @workflow-set-state/<state_id>)",
        crate::untyped!(|ctx| Box::pin(post_set_state(ctx))),
    )],
};

async fn post_set_state(ctx: Ctx) -> ApiResult<Response> {
    let state = match ctx.subpath.as_slice() {
        [state] => state.clone(),
        [] => return Err(ApiError::new(ErrorCode::WorkflowError, "Missing state id.")),
        _ => return Err(ApiError::not_found(&ctx.request.service_url)),
    };
    if !ctx.allows(Permission::REVIEW_PORTAL_CONTENT) && !ctx.allows(Permission::MANAGE_PORTAL) {
        return Err(Permission::REVIEW_PORTAL_CONTENT.refuse(&ctx.principal));
    }
    let body = ctx.optional_json_body()?;
    let comment = comment(&body)?;
    let entry = set_state(&ctx.app, &ctx.context, &state, ctx.principal.actor(), &comment).await?;
    let workflow = workflow_of(&ctx.app, &ctx.context)?;
    Ok(json(&entry_json(workflow, &entry)))
}
