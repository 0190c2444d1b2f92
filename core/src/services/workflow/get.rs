//! `GET <obj>/@workflow`.

use super::entry_json;
use crate::app::App;
use crate::content::ContentObject;
use crate::http::{ApiError, ApiResult, Ctx, json};
use crate::ops::workflow::workflow_of;
use crate::security::Access;
use crate::security::{Csrf, Permission};
use crate::serialize::Component;
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
    routes: &[crate::service::Route::any(
        "Workflow state, available transitions and history",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// `@components.workflow`; expanded, the same body as the endpoint.
pub static WORKFLOW_COMPONENT: Component = Component {
    name: "workflow",
    kind: ContentKind::Any,
    expand: |ctx, subject| Box::pin(async move { body(ctx.app, ctx.access, subject.object, ctx.base_url).await }),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    if !ctx.subpath.is_empty() {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    Ok(json(&body(&ctx.app, &ctx.access, &ctx.context, &ctx.request.base_url).await?))
}

/// The state, the transitions `access` allows now, and the history of `object`.
async fn body(app: &App, access: &Access, object: &ContentObject, base_url: &str) -> ApiResult<Value> {
    let url = format!("{}/@workflow", object.url(base_url));
    let Some(workflow) = workflow_of(app, object)? else {
        return Ok(json!({"@id": url, "history": [], "transitions": [], "state": {"id": "", "title": ""}}));
    };
    let state_id = object.review_state.clone().unwrap_or_default();
    let state_title = workflow.state(&state_id).map_or(state_id.as_str(), |s| s.title.as_str());
    // Transitions only for the object the caller's standing was loaded for.
    let requested = access.object().is_some_and(|o| o.uid == object.uid);
    let transitions: Vec<Value> = workflow
        .transitions_from(&state_id)
        .filter(|t| requested && access.allows_named(app, &t.guard_permission))
        .map(|t| json!({"@id": format!("{url}/{}", t.id), "title": t.title}))
        .collect();
    let history: Vec<Value> =
        app.store.history(&object.uid).await?.iter().map(|e| entry_json(Some(workflow), e)).collect();
    Ok(json!({
        "@id": url,
        "state": {"id": state_id, "title": state_title},
        "transitions": transitions,
        "history": history,
    }))
}
