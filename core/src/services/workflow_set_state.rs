//! `POST <obj>/@workflow-set-state/<state>`.

use super::workflow::{TransitionBody, WorkflowEntry, comment, workflow_entry};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, Refused, body_schema};
use crate::ops::workflow::{set_state, workflow_of};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Sets a state directly, bypassing transitions; updates security; CSRF off. Review portal
/// content or Manage portal will do.
pub static SET_STATE: Service = Service {
    method: Method::POST,
    name: "@workflow-set-state",
    kind: ContentKind::Any,
    guard: Guard::AnyOf(&[Permission::REVIEW_PORTAL_CONTENT, Permission::MANAGE_PORTAL]),
    csrf: Csrf::Exempt,
    routes: &[
        Route::new("", "Always refused: name the state (400 workflow_error)", endpoint!(missing_state)),
        Route {
            request: Some(body_schema::<TransitionBody>),
            body_required: false,
            ..Route::new("{state}", "Set the workflow state directly, bypassing transitions", endpoint!(post_set_state))
        },
    ],
};

async fn missing_state(_: Ctx) -> ApiResult<Refused> {
    Err(ApiError::new(ErrorCode::WorkflowError, "Missing state id."))
}

async fn post_set_state(ctx: Ctx) -> ApiResult<Json<WorkflowEntry>> {
    let state = ctx.param("state").to_owned();
    let body = ctx.optional_json_body()?;
    let comment = comment(&body)?;
    let entry = set_state(&ctx.app, &ctx.context, &state, ctx.principal.actor(), &comment).await?;
    let workflow = workflow_of(&ctx.app, &ctx.context)?;
    Ok(Json(workflow_entry(workflow, &entry, &ctx.translator().await?)))
}
