//! `POST <obj>/@workflow/<transition>`.

use super::{TransitionBody, WorkflowEntry, comment, workflow_entry};
use crate::content::ContentObject;
use crate::content::values::parse_datetime;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, Refused, body_schema};
use crate::ops::workflow::{TransitionRequest, transition, workflow_of};
use crate::security::{Access, Csrf, Permission, denied};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::store::ancestor_paths;
use poem::http::Method;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Fires a transition; the body may carry `comment`, `effective`, `expires`, `include_children`.
pub static WORKFLOW_POST: Service = Service {
    method: Method::POST,
    name: "@workflow",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "Always refused: name the transition (400 workflow_error)", endpoint!(missing_transition)),
        Route {
            request: Some(body_schema::<TransitionBody>),
            body_required: false,
            ..Route::new("{transition}", "Fire a workflow transition", endpoint!(post))
        },
    ],
};

async fn missing_transition(_: Ctx) -> ApiResult<Refused> {
    Err(ApiError::new(ErrorCode::WorkflowError, "Missing transition."))
}

async fn post(ctx: Ctx) -> ApiResult<Json<WorkflowEntry>> {
    let id = ctx.param("transition").to_owned();
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
    let mut objects = vec![ContentObject::clone(&ctx.context)];
    if include_children && ctx.profile.folderish {
        objects.extend(children_allowing(&ctx, &id, &workflow.id).await?);
    }
    let entry = transition(&ctx.app, &objects, &id, ctx.principal.actor(), &request).await?;
    Ok(Json(workflow_entry(Some(workflow), &entry, &ctx.translator().await?)))
}

/// The descendants on which the caller may fire `transition` too (two queries in all).
async fn children_allowing(ctx: &Ctx, transition: &str, workflow_id: &str) -> ApiResult<Vec<ContentObject>> {
    let subtree: Vec<Arc<ContentObject>> =
        ctx.app.store.subtree(&ctx.context.path).await?.into_iter().map(Arc::new).collect();
    let uids: Vec<String> = subtree.iter().map(|o| o.uid.clone()).collect();
    let mut local = ctx.app.store.local_roles(&uids).await?;
    local.extend(ctx.access.local_roles().iter().cloned());
    let above = &ctx.access.chain()[..ctx.access.chain().len() - 1];
    let by_path: std::collections::HashMap<&str, &Arc<ContentObject>> =
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
        let mut chain: Vec<Arc<ContentObject>> = above.to_vec();
        chain.extend(ancestor_paths(&child.path).iter().filter_map(|p| by_path.get(p.as_str()).map(|o| (*o).clone())));
        chain.push(child.clone());
        if Access::from_parts(&ctx.principal, chain, &local).allows_named(&ctx.app, &step.guard_permission) {
            allowed.push(ContentObject::clone(child));
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
