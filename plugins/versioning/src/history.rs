//! `@history` (plone.restapi's CMFEditions shape): the workflow history and the versions in
//! one timeline, newest first, so existing clients show both. `@history/<n>` is the content
//! as version `n` froze it.

use crate::snapshot::Snapshot;
use crate::store::find_version;
use crate::{ACCESS_VERSIONS, CREATE_VERSIONS, VERSIONING};
use poem_openapi::registry::{MetaSchema, Registry};
use poem_openapi::{Enum, Object};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use wcs_core::content::values::format_time;
use wcs_core::endpoint;
use wcs_core::http::schema::{Nullable, integer, object, string};
use wcs_core::http::{ApiError, ApiResult, Ctx, Dyn, Json, Shape};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::serialize_content;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// `GET @history` and `GET @history/<n>`.
pub static HISTORY: Service = Service {
    method: Method::GET,
    name: "@history",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "Workflow history and versions in one timeline, newest first", endpoint!(timeline)),
        Route {
            guard: Some(Guard::Has(ACCESS_VERSIONS)),
            ..Route::new("{version}", "The content as version n froze it (versioned content only)", endpoint!(frozen))
        },
    ],
};

/// An entry of the timeline: a workflow step (`review_state`, `state_title`) or a version
/// (`@id`, `may_revert`, `version`), in plone.restapi's CMFEditions shape.
#[derive(Object)]
#[oai(skip_serializing_if_is_none)]
struct TimelineEntry {
    /// A version's `@history/<n>` URL.
    #[oai(rename = "@id")]
    url: Option<String>,
    /// The transition id (`Create` for creation); `Edited` for a version.
    action: String,
    /// Who did it.
    actor: TimelineActor,
    /// The comment given.
    comments: String,
    /// A version: whether the caller may restore it.
    may_revert: Option<bool>,
    /// A workflow step: the state afterwards.
    review_state: Option<String>,
    /// A workflow step: that state's title.
    state_title: Option<String>,
    /// When (ISO 8601).
    time: String,
    /// The transition's title; `Edited` for a version.
    transition_title: String,
    /// Which of the two it is.
    #[oai(rename = "type")]
    kind: TimelineKind,
    /// A version: its number.
    version: Option<i64>,
}

/// What a timeline entry records.
#[derive(Enum)]
#[oai(rename_all = "lowercase")]
enum TimelineKind {
    /// A workflow transition (or the creation).
    Workflow,
    /// A version taken.
    Versioning,
}

/// Who made a timeline entry.
#[derive(Object)]
struct TimelineActor {
    /// Their `@users` URL.
    #[oai(rename = "@id")]
    url: String,
    /// The user id.
    id: String,
    /// Their full name (the id when they have none).
    fullname: String,
    /// Always null, as upstream sends it.
    username: Nullable<String>,
}

/// `@history/<n>`: the content as a version froze it.
struct FrozenContentShape;

impl Shape for FrozenContentShape {
    const NAME: &'static str = "FrozenContent";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "The content as a version froze it, as `GET <object>` answers (blocks and `slblocks` from the version \
             too), plus `version`",
            vec![("@id", string()), ("@type", string()), ("version", integer())],
            &["@id", "@type", "version"],
        )
    }
}

fn versioned(ctx: &Ctx) -> bool {
    ctx.profile.has_behaviour(VERSIONING)
}

async fn frozen(ctx: Ctx) -> ApiResult<Dyn<FrozenContentShape>> {
    if !versioned(&ctx) {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    let (info, snapshot) = find_version(&ctx.app, &ctx.context, ctx.param("version"), &ctx.request.service_url).await?;
    let mut body = frozen_content(&ctx, &snapshot).await?;
    body.insert("version".into(), json!(info.seq));
    Ok(Dyn::new(body))
}

/// The content as a snapshot froze it, in the content GET shape. Frozen blocks are serialized
/// from the snapshot too, so the answer shows the page as it was.
async fn frozen_content(ctx: &Ctx, snapshot: &Snapshot) -> ApiResult<Map<String, Value>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    let page = snapshot.page()?.onto(&ctx.context);
    let mut body = serialize_content(&sctx, &page, ctx.visible_parent()).await?.into_map();
    if ctx.profile.has_blocks() {
        let nested_options = options.for_nested_item();
        let nested = wcs_core::serialize::SerializeCtx { options: &nested_options, ..sctx };
        let mut blocks = Map::new();
        for part in snapshot.parts().iter().filter(|p| p.parent_uid.as_deref() == Some(page.uid.as_str())) {
            let standalone = part.standalone(&ctx.context);
            blocks.insert(
                part.uid.clone(),
                Value::Object(serialize_content(&nested, &standalone, Some(&page)).await?.into_map()),
            );
        }
        body.insert("slblocks".into(), Value::Object(blocks));
        if let Some(layout) = page.fields.get(wcs_core::content::layout::LAYOUT_FIELD) {
            body.insert(wcs_core::content::layout::LAYOUT_FIELD.into(), layout.clone());
        }
    }
    Ok(body)
}

async fn timeline(ctx: Ctx) -> ApiResult<Json<Vec<TimelineEntry>>> {
    let app = &ctx.app;
    let url = ctx.url_of(&ctx.context);
    let site_url = ctx.site_url();
    let workflow = ctx.profile.workflow.first().and_then(|w| app.workflows.get(w));
    let history = app.store.history(&ctx.context.uid).await?;
    let versions = if versioned(&ctx) && ctx.allows(ACCESS_VERSIONS) {
        crate::tables::versions(&app.store, &ctx.context.uid).await?
    } else {
        Vec::new()
    };
    let mut actor_ids: Vec<String> = history.iter().map(|h| h.actor.clone()).collect();
    actor_ids.sort();
    actor_ids.dedup();
    let fullnames: HashMap<String, String> =
        app.store.principals_by_ids(&actor_ids).await?.into_iter().map(|p| (p.id, p.fullname)).collect();
    let actor = |id: &str, fullname: Option<&str>| TimelineActor {
        url: format!("{site_url}/@users/{id}"),
        id: id.to_owned(),
        fullname: fullname.filter(|f| !f.trim().is_empty()).unwrap_or(id).to_owned(),
        username: Nullable(None),
    };
    let may_revert = ctx.allows(CREATE_VERSIONS);
    let mut entries: Vec<(chrono::DateTime<chrono::Utc>, TimelineEntry)> = Vec::new();
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
            TimelineEntry {
                url: None,
                action,
                actor: actor(&entry.actor, fullnames.get(&entry.actor).map(String::as_str)),
                comments: entry.comment.clone(),
                may_revert: None,
                review_state: Some(entry.review_state.clone()),
                state_title: Some(state_title),
                time: format_time(entry.time),
                transition_title,
                kind: TimelineKind::Workflow,
                version: None,
            },
        ));
    }
    for version in &versions {
        entries.push((
            version.created,
            TimelineEntry {
                url: Some(format!("{url}/@history/{}", version.seq)),
                action: "Edited".to_owned(),
                actor: actor(&version.creator, Some(&version.creator_fullname)),
                comments: version.comment.clone(),
                may_revert: Some(may_revert),
                review_state: None,
                state_title: None,
                time: format_time(version.created),
                transition_title: "Edited".to_owned(),
                kind: TimelineKind::Versioning,
                version: Some(version.seq),
            },
        ));
    }
    entries.sort_by_key(|(time, _)| std::cmp::Reverse(*time));
    Ok(Json(entries.into_iter().map(|(_, entry)| entry).collect()))
}
