//! `@history` (plone.restapi's CMFEditions shape): the workflow history and the versions in
//! one timeline, newest first, so existing clients show both. `@history/<n>` is the content
//! as version `n` froze it.

use crate::snapshot::Snapshot;
use crate::store::find_version;
use crate::{ACCESS_VERSIONS, CREATE_VERSIONS, VERSIONING};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use wcs_core::content::values::format_time;
use wcs_core::http::{ApiError, ApiResult, Ctx, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::serialize_content;
use wcs_core::service::{ContentKind, Service};

/// `GET @history` and `GET @history/<n>`.
pub static HISTORY: Service = Service {
    method: Method::GET,
    name: "@history",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "Workflow history and versions in one timeline, newest first; /<n> is the content as version n \
              froze it",
        wcs_core::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

fn versioned(ctx: &Ctx) -> bool {
    ctx.profile.has_behaviour(VERSIONING)
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    match ctx.subpath.as_slice() {
        [] => timeline(&ctx).await,
        [n] if versioned(&ctx) => {
            ctx.check(ACCESS_VERSIONS)?;
            let (info, snapshot) = find_version(&ctx.app, &ctx.context, n, &ctx.request.service_url).await?;
            let mut body = frozen_content(&ctx, &snapshot).await?;
            body.insert("version".into(), json!(info.seq));
            Ok(json(&Value::Object(body)))
        }
        _ => Err(ApiError::not_found(&ctx.request.service_url)),
    }
}

/// The content as a snapshot froze it, in the content GET shape. Frozen blocks are serialized
/// from the snapshot too, so the answer shows the page as it was.
async fn frozen_content(ctx: &Ctx, snapshot: &Snapshot) -> ApiResult<Map<String, Value>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    let page = snapshot.page()?.onto(&ctx.context);
    let mut body = serialize_content(&sctx, &page, ctx.visible_parent()).await?;
    if ctx.profile.has_blocks() {
        let nested_options = options.for_nested_item();
        let nested = wcs_core::serialize::SerializeCtx { options: &nested_options, ..sctx };
        let mut blocks = Map::new();
        for part in snapshot.parts().iter().filter(|p| p.parent_uid.as_deref() == Some(page.uid.as_str())) {
            let standalone = part.standalone(&ctx.context);
            blocks.insert(part.uid.clone(), Value::Object(serialize_content(&nested, &standalone, Some(&page)).await?));
        }
        body.insert("slblocks".into(), Value::Object(blocks));
        if let Some(layout) = page.fields.get(wcs_core::content::layout::LAYOUT_FIELD) {
            body.insert(wcs_core::content::layout::LAYOUT_FIELD.into(), layout.clone());
        }
    }
    Ok(body)
}

async fn timeline(ctx: &Ctx) -> ApiResult<Response> {
    let app = &ctx.app;
    let url = ctx.url_of(&ctx.context);
    let site_url = ctx.site_url();
    let workflow = ctx.profile.workflow.first().and_then(|w| app.workflows.get(w));
    let history = app.store.history(&ctx.context.uid).await?;
    let versions = if versioned(ctx) && ctx.allows(ACCESS_VERSIONS) {
        crate::tables::versions(&app.store, &ctx.context.uid).await?
    } else {
        Vec::new()
    };
    let mut actor_ids: Vec<String> = history.iter().map(|h| h.actor.clone()).collect();
    actor_ids.sort();
    actor_ids.dedup();
    let fullnames: HashMap<String, String> =
        app.store.principals_by_ids(&actor_ids).await?.into_iter().map(|p| (p.id, p.fullname)).collect();
    let actor = |id: &str, fullname: Option<&str>| {
        let fullname = fullname.filter(|f| !f.trim().is_empty()).unwrap_or(id);
        json!({"@id": format!("{site_url}/@users/{id}"), "id": id, "fullname": fullname, "username": null})
    };
    let may_revert = ctx.allows(CREATE_VERSIONS);
    let mut entries: Vec<(chrono::DateTime<chrono::Utc>, Value)> = Vec::new();
    for entry in &history {
        let state_title =
            workflow.and_then(|w| w.state(&entry.review_state)).map_or(entry.review_state.clone(), |s| s.title.clone());
        let (action, transition_title) = match &entry.action {
            None => ("Create".to_owned(), "Create".to_owned()),
            Some(action) => {
                let title = workflow.and_then(|w| w.transition(action)).map_or(action.clone(), |t| t.title.clone());
                (action.clone(), title)
            }
        };
        entries.push((
            entry.time,
            json!({
                "action": action,
                "actor": actor(&entry.actor, fullnames.get(&entry.actor).map(String::as_str)),
                "comments": entry.comment,
                "review_state": entry.review_state,
                "state_title": state_title,
                "time": format_time(entry.time),
                "transition_title": transition_title,
                "type": "workflow",
            }),
        ));
    }
    for version in &versions {
        entries.push((
            version.created,
            json!({
                "@id": format!("{url}/@history/{}", version.seq),
                "action": "Edited",
                "actor": actor(&version.creator, Some(&version.creator_fullname)),
                "comments": version.comment,
                "may_revert": may_revert,
                "time": format_time(version.created),
                "transition_title": "Edited",
                "type": "versioning",
                "version": version.seq,
            }),
        ));
    }
    entries.sort_by_key(|(time, _)| std::cmp::Reverse(*time));
    Ok(json(&Value::Array(entries.into_iter().map(|(_, v)| v).collect())))
}

fn schema() -> Value {
    json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "@id": {"type": "string"}, "action": {"type": "string"}, "actor": {"type": "object"},
                "comments": {"type": "string"}, "time": {"type": "string", "format": "date-time"},
                "transition_title": {"type": "string"}, "type": {"type": "string"},
                "version": {"type": "integer"}, "may_revert": {"type": "boolean"},
                "review_state": {"type": "string"}, "state_title": {"type": "string"},
            },
        },
    })
}
