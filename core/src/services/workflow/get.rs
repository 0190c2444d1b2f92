//! `GET <obj>/@workflow`.

use super::entry_json;
use crate::http::{ApiError, ApiResult, Ctx, json};
use crate::ops::workflow::workflow_of;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The state, the transitions the caller may fire now, and the history.
pub static WORKFLOW_GET: Service = Service {
    method: Method::GET,
    name: "@workflow",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Workflow state, available transitions and history",
    request_schema: None,
    response_schema: Some(crate::services::schemas::workflow),
    handler: |ctx| Box::pin(get(ctx)),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    if !ctx.subpath.is_empty() {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    let url = format!("{}/@workflow", ctx.url_of(&ctx.context));
    let Some(workflow) = workflow_of(&ctx.app, &ctx.context)? else {
        return Ok(json(&json!({"@id": url, "history": [], "transitions": [], "state": {"id": "", "title": ""}})));
    };
    let state_id = ctx.context.review_state.clone().unwrap_or_default();
    let state_title = workflow.state(&state_id).map_or(state_id.as_str(), |s| s.title.as_str());
    let transitions: Vec<Value> = workflow
        .transitions_from(&state_id)
        .filter(|t| ctx.access.allows_named(&ctx.app, &t.guard_permission))
        .map(|t| json!({"@id": format!("{url}/{}", t.id), "title": t.title}))
        .collect();
    let history: Vec<Value> =
        ctx.app.store.history(&ctx.context.uid).await?.iter().map(|e| entry_json(Some(workflow), e)).collect();
    Ok(json(&json!({
        "@id": url,
        "state": {"id": state_id, "title": state_title},
        "transitions": transitions,
        "history": history,
    })))
}
