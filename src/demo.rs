//! Example content for `serve --demo` / `init --demo`: what the linked plugins ship, in plugin
//! order (the site profile's is a German/English municipal site with topics, subtopics, block
//! pages, news and files).
//!
//! An entry either creates an object (`parent` path plus a POST body) or changes one
//! (`patch` path plus a PATCH body, e.g. a default page, a page layout or the home page's
//! Volto blocks). In a layout, `{"uid": "@<id>"}` names the page's block with that id, since
//! uids are made at load time. Everything is published at the end, so anonymous visitors see
//! a real site.

use serde_json::{Map, Value};
use wcs_core::app::{ADMIN_USER, App};
use wcs_core::content::ContentObject;
use wcs_core::content::values::{Mode, parse_changes};
use wcs_core::http::ApiError;
use wcs_core::ops::WriteOrigin;
use wcs_core::ops::workflow::TransitionRequest;
use wcs_core::security::Visibility;

/// Loads the demo tree into an empty site; returns how many objects it created (0 when the
/// site already has content, so restarting with `--demo` is harmless).
pub async fn load_demo(app: &App) -> Result<usize, ApiError> {
    let site = app.site_root().await?;
    if app.store.count_children(&site.uid, &Visibility::ALL).await? > 0 {
        return Ok(0);
    }
    let mut entries: Vec<Value> = Vec::new();
    for (plugin, json) in app.registry.demo_contents() {
        let shipped: Vec<Value> = serde_json::from_str(json)
            .map_err(|e| ApiError::internal(format!("the demo content of plugin {plugin}: {e}")))?;
        entries.extend(shipped);
    }
    if entries.is_empty() {
        tracing::info!("no linked plugin ships demo content");
        return Ok(0);
    }
    let origin = WriteOrigin { base_url: "", visibility: &Visibility::ALL };
    let mut created = 0;
    for entry in &entries {
        let Some(body) = entry.as_object() else {
            continue;
        };
        let mut body = body.clone();
        if let Some(Value::String(path)) = body.remove("patch") {
            let object = at(app, &site, &path).await?;
            patch(app, &object, &mut body, &origin).await?;
            continue;
        }
        let portal_type = body.get("@type").and_then(Value::as_str).unwrap_or_default();
        if app.types.get(portal_type).is_none() {
            // A type of a plugin this build leaves out (an EasyForm without easyform).
            tracing::info!(portal_type, "demo object skipped: its type is not in this build");
            continue;
        }
        let parent_path = body.remove("parent").and_then(|p| p.as_str().map(str::to_owned)).unwrap_or_default();
        let parent = at(app, &site, &parent_path).await?;
        wcs_core::ops::create(app, &parent, &body, ADMIN_USER, true, &origin).await?;
        created += 1;
    }
    publish_everything(app, &site).await?;
    Ok(created)
}

/// Publishes every object whose workflow has `publish` from its state (blocks and files
/// without a workflow of their own stay as they are).
async fn publish_everything(app: &App, site: &ContentObject) -> Result<(), ApiError> {
    let objects: Vec<ContentObject> =
        app.store.subtree(&site.path).await?.into_iter().filter(|o| o.uid != site.uid).collect();
    let request = TransitionRequest { comment: "Demo content".into(), ..TransitionRequest::default() };
    wcs_core::ops::workflow::transition(app, &objects, "publish", ADMIN_USER, &request).await?;
    Ok(())
}

async fn at(app: &App, site: &ContentObject, path: &str) -> Result<ContentObject, ApiError> {
    let path = if path.is_empty() { site.path.clone() } else { format!("{}/{path}", site.path) };
    app.store.content_at_path(&path).await?.ok_or_else(|| ApiError::internal(format!("demo object {path} missing")))
}

async fn patch(
    app: &App,
    object: &ContentObject,
    body: &mut Map<String, Value>,
    origin: &WriteOrigin<'_>,
) -> Result<(), ApiError> {
    if let Some(layout) = body.get_mut("simplelayout") {
        name_blocks_by_uid(app, object, layout).await?;
    }
    let profile =
        &app.types.get(&object.portal_type).ok_or_else(|| ApiError::internal("demo object of unknown type"))?;
    let mut changes = parse_changes(profile, body, Mode::Patch, &[], &app.registry.read_only_keys(profile))?;
    wcs_core::ops::resolve_references(app, origin, object.site_id(), profile, &mut changes).await?;
    wcs_core::ops::update(app, object, &changes, None, wcs_core::ops::OnConflict::Reapply).await?;
    Ok(())
}

/// Replaces `"@<id>"` uids in a layout by the uids of the page's children.
async fn name_blocks_by_uid(app: &App, page: &ContentObject, layout: &mut Value) -> Result<(), ApiError> {
    match layout {
        Value::Object(map) => {
            if let Some(Value::String(uid)) = map.get_mut("uid")
                && let Some(id) = uid.strip_prefix('@')
            {
                *uid = at(app, page, id).await?.uid;
            }
            for value in map.values_mut() {
                Box::pin(name_blocks_by_uid(app, page, value)).await?;
            }
        }
        Value::Array(items) => {
            for item in items {
                Box::pin(name_blocks_by_uid(app, page, item)).await?;
            }
        }
        _ => {}
    }
    Ok(())
}
