//! `GET <obj>/@workflow`.

use super::{WorkflowEntry, workflow_entry};
use crate::content::ContentObject;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::i18n::Translator;
use crate::ops::workflow::workflow_of;
use crate::security::Access;
use crate::security::{Csrf, Permission};
use crate::serialize::Component;
use crate::service::{ContentKind, Guard, Route, Service};
use crate::site::Site;
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::types::ToJSON;

/// The state, the transitions the caller may fire now, and the history.
pub static WORKFLOW_GET: Service = Service {
    method: Method::GET,
    name: "@workflow",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Workflow state, the transitions the caller may fire now, and the history",
        endpoint!(get),
    )],
};

/// `@components.workflow`; expanded, the same body as the endpoint.
pub static WORKFLOW_COMPONENT: Component = Component {
    name: "workflow",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| {
        Box::pin(async move {
            let translator = ctx.translator().await?;
            Ok(body(ctx.site, ctx.access, subject.object, ctx.base_url, &translator)
                .await?
                .to_json()
                .unwrap_or_default()
                .into())
        })
    },
};

async fn get(ctx: Ctx) -> ApiResult<Json<WorkflowInfo>> {
    Ok(Json(body(&ctx.app, &ctx.access, &ctx.context, &ctx.request.base_url, &ctx.translator().await?).await?))
}

/// `GET @workflow`.
#[derive(Object)]
pub struct WorkflowInfo {
    /// Its URL.
    #[oai(rename = "@id")]
    url: String,
    /// The current state.
    state: WorkflowState,
    /// What the caller may fire now.
    transitions: Vec<WorkflowTransition>,
    /// What happened, oldest first.
    history: Vec<WorkflowEntry>,
}

/// A workflow state.
#[derive(Object)]
struct WorkflowState {
    /// Its id (`""` without a workflow).
    id: String,
    /// Its title.
    title: String,
}

/// A transition the caller may fire.
#[derive(Object)]
struct WorkflowTransition {
    /// The URL to POST to.
    #[oai(rename = "@id")]
    url: String,
    /// Its title.
    title: String,
}

/// The state, the transitions `access` allows now, and the history of `object`, titled in the
/// caller's language.
async fn body(
    site: &Site,
    access: &Access,
    object: &ContentObject,
    base_url: &str,
    translator: &Translator<'_>,
) -> ApiResult<WorkflowInfo> {
    let url = format!("{}/@workflow", object.url(base_url));
    let Some(workflow) = workflow_of(site, object)? else {
        let state = WorkflowState { id: String::new(), title: String::new() };
        return Ok(WorkflowInfo { url, state, transitions: vec![], history: vec![] });
    };
    let state_id = object.review_state.clone().unwrap_or_default();
    let state_title = workflow.state(&state_id).map_or_else(|| state_id.clone(), |s| translator.state_title(s));
    // Transitions only for the object the caller's standing was loaded for.
    let requested = access.object().is_some_and(|o| o.uid == object.uid);
    let transitions = workflow
        .transitions_from(&state_id)
        .filter(|t| requested && access.allows_named(site, &t.guard_permission))
        .map(|t| WorkflowTransition { url: format!("{url}/{}", t.id), title: translator.transition_title(t) })
        .collect();
    let history =
        site.store.history(&object.uid).await?.iter().map(|e| workflow_entry(Some(workflow), e, translator)).collect();
    let state = WorkflowState { title: state_title, id: state_id };
    Ok(WorkflowInfo { url, state, transitions, history })
}
