//! `GET/POST <obj>/@workflow[/<transition>]` and `POST <obj>/@workflow-set-state/<state>`.

use crate::content::ContentObject;
use crate::content::values::{format_time, parse_datetime};
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::ops::workflow::{TransitionRequest, set_state, transition, workflow_of};
use crate::security::{Access, Csrf, Permission, denied};
use crate::service::{ContentKind, Service};
use crate::store::{HistoryEntry, ancestor_paths};
use crate::workflow::Workflow;
use poem::Response;
use poem::http::Method;
use serde_json::{Map, Value, json};

/// The state, the transitions the caller may fire now, and the history.
pub static WORKFLOW_GET: Service = Service {
    method: Method::GET,
    name: "@workflow",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Workflow state, available transitions and history",
    request_schema: None,
    response_schema: Some(super::schemas::workflow),
    handler: |ctx| Box::pin(get(ctx)),
};

/// Fires a transition; the body may carry `comment`, `effective`, `expires`, `include_children`.
pub static WORKFLOW_POST: Service = Service {
    method: Method::POST,
    name: "@workflow",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Fire a workflow transition (POST @workflow/<transition>)",
    request_schema: Some(super::schemas::transition_request),
    response_schema: Some(super::schemas::history_entry),
    handler: |ctx| Box::pin(post(ctx)),
};

/// Sets a state directly, bypassing transitions; updates security; CSRF off.
pub static SET_STATE: Service = Service {
    method: Method::POST,
    name: "@workflow-set-state",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    summary: "Set the workflow state directly (POST @workflow-set-state/<state_id>)",
    request_schema: Some(super::schemas::comment_request),
    response_schema: Some(super::schemas::history_entry),
    handler: |ctx| Box::pin(post_set_state(ctx)),
};

/// A history entry on the wire: `comment` (as the spec names it) and `comments` (as
/// plone.restapi clients read it) carry the same text.
pub fn entry_json(workflow: Option<&Workflow>, entry: &HistoryEntry) -> Value {
    let title =
        workflow.and_then(|w| w.state(&entry.review_state)).map_or(entry.review_state.as_str(), |s| s.title.as_str());
    json!({
        "action": entry.action,
        "actor": entry.actor,
        "comment": entry.comment,
        "comments": entry.comment,
        "review_state": entry.review_state,
        "time": format_time(entry.time),
        "title": title,
    })
}

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

async fn post(ctx: Ctx) -> ApiResult<Response> {
    let id = match ctx.subpath.as_slice() {
        [] => return Err(ApiError::new(ErrorCode::WorkflowError, "Missing transition.")),
        [id] => id.clone(),
        _ => return Err(ApiError::not_found(&ctx.request.service_url)),
    };
    let body = ctx.optional_json_body()?;
    let request = transition_request(&body)?;
    let include_children = match body.get("include_children") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::invalid_parameter("include_children", "Expected true or false.")),
    };
    let workflow = workflow_of(&ctx.app, &ctx.context)?.ok_or_else(|| {
        ApiError::new(ErrorCode::WorkflowError, format!("{} has no workflow.", ctx.context.portal_type))
    })?;
    let state = ctx.context.review_state.as_deref().unwrap_or_default();
    let step = workflow.transitions_from(state).find(|t| t.id == id).ok_or_else(|| {
        ApiError::new(ErrorCode::WorkflowError, format!("Invalid transition '{id}' from state '{state}'."))
    })?;
    if !ctx.access.allows_named(&ctx.app, &step.guard_permission) {
        return Err(denied(&ctx.principal, &step.guard_permission));
    }
    let mut objects = vec![ctx.context.clone()];
    if include_children && ctx.profile.folderish {
        objects.extend(children_allowing(&ctx, &id, &workflow.id).await?);
    }
    let entry = transition(&ctx.app, &objects, &id, ctx.principal.actor(), &request).await?;
    Ok(json(&entry_json(Some(workflow), &entry)))
}

/// The descendants on which the caller may fire `transition` too (two queries in all).
async fn children_allowing(ctx: &Ctx, transition: &str, workflow_id: &str) -> ApiResult<Vec<ContentObject>> {
    let subtree = ctx.app.store.subtree(&ctx.context.path).await?;
    let uids: Vec<String> = subtree.iter().map(|o| o.uid.clone()).collect();
    let mut local = ctx.app.store.local_roles(&uids).await?;
    local.extend(ctx.access.local_roles().iter().cloned());
    let above = &ctx.access.chain()[..ctx.access.chain().len() - 1];
    let by_path: std::collections::HashMap<&str, &ContentObject> =
        subtree.iter().map(|o| (o.path.as_str(), o)).collect();
    let Some(workflow) = ctx.app.workflows.get(workflow_id) else { return Ok(Vec::new()) };
    let mut allowed = Vec::new();
    for child in subtree.iter().skip(1) {
        let same_workflow = ctx
            .app
            .types
            .get(&child.portal_type)
            .is_some_and(|p| p.workflow.first().map(String::as_str) == Some(workflow_id));
        let state = child.review_state.as_deref().unwrap_or_default();
        let Some(step) = workflow.transitions_from(state).find(|t| t.id == transition).filter(|_| same_workflow) else {
            continue;
        };
        let mut chain: Vec<ContentObject> = above.to_vec();
        chain.extend(ancestor_paths(&child.path).iter().filter_map(|p| by_path.get(p.as_str()).map(|o| (*o).clone())));
        chain.push(child.clone());
        if Access::from_parts(&ctx.principal, chain, &local).allows_named(&ctx.app, &step.guard_permission) {
            allowed.push(child.clone());
        }
    }
    Ok(allowed)
}

fn transition_request(body: &Map<String, Value>) -> ApiResult<TransitionRequest> {
    let time = |name: &str| -> ApiResult<Option<chrono::DateTime<chrono::Utc>>> {
        match body.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => {
                parse_datetime(text).map(Some).map_err(|m| ApiError::invalid_parameter(name, m))
            }
            Some(_) => Err(ApiError::invalid_parameter(name, "Expected an ISO 8601 date and time.")),
        }
    };
    Ok(TransitionRequest { comment: comment(body)?, effective: time("effective")?, expires: time("expires")? })
}

fn comment(body: &Map<String, Value>) -> ApiResult<String> {
    match body.get("comment") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) if text.chars().count() <= 10_000 => Ok(text.clone()),
        Some(_) => {
            Err(ApiError::invalid_parameter("comment", "The comment must be a string of at most 10000 characters."))
        }
    }
}

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
