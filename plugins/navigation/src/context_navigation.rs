//! `@contextnavigation`: the tree of the section the object is in, as Plone's navigation
//! portlet (and Volto's context navigation) shows it. Options come as
//! `expand.contextnavigation.<name>` (or plain `<name>`): `name`, `topLevel` (the level the
//! tree starts at, default 1: the top-level section), `bottomLevel` (levels shown, 0 for as
//! many as allowed), `includeTop` and `currentFolderOnly`.

use crate::tree::{MAX_DEPTH, on_path, subtree_items};
use serde_json::{Value, json};
use wcs_core::content::ContentObject;
use wcs_core::http::{ApiError, ApiResult, Ctx, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::{Component, SerializeCtx, Subject};
use wcs_core::service::{ContentKind, Service};

/// The navigation of the object's section.
pub static CONTEXT_NAVIGATION: Service = Service {
    method: Method::GET,
    name: "@contextnavigation",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "Navigation of the section around the object (Plone's navigation portlet): \
              expand.contextnavigation.{name,topLevel,bottomLevel,includeTop,currentFolderOnly}",
        wcs_core::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// `@components.contextnavigation`.
pub static CONTEXT_NAVIGATION_COMPONENT: Component = Component {
    name: "contextnavigation",
    kind: ContentKind::Any,
    expand: |ctx, subject| Box::pin(context_navigation(ctx, subject)),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(json(&context_navigation(&sctx, ctx.subject()).await?))
}

/// What the request asked for.
struct Options {
    name: String,
    top_level: usize,
    depth: usize,
    include_top: bool,
    current_folder_only: bool,
}

impl Options {
    fn read(query: &[(String, String)]) -> ApiResult<Options> {
        let value = |name: &str| {
            let expanded = format!("expand.contextnavigation.{name}");
            query.iter().find(|(k, _)| *k == expanded || k == name).map(|(_, v)| v.as_str())
        };
        let flag = |name: &str| value(name).is_some_and(|v| matches!(v, "true" | "True" | "1" | "on"));
        let number = |name: &str, default: usize| -> ApiResult<usize> {
            value(name).map_or(Ok(default), |text| {
                text.parse::<usize>().ok().filter(|n| *n <= MAX_DEPTH).ok_or_else(|| {
                    ApiError::invalid_parameter(name, format!("'{name}' must be a number from 0 to {MAX_DEPTH}."))
                })
            })
        };
        let bottom = number("bottomLevel", 0)?;
        Ok(Options {
            name: value("name").unwrap_or_default().chars().take(200).collect(),
            top_level: number("topLevel", 1)?,
            depth: if bottom == 0 { MAX_DEPTH } else { bottom },
            include_top: flag("includeTop"),
            current_folder_only: flag("currentFolderOnly"),
        })
    }
}

async fn context_navigation(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    let options = Options::read(ctx.query)?;
    let chain = ctx.access.chain();
    let site = chain.first().ok_or_else(|| ApiError::internal("traversal chain without a site root"))?;
    let root = tree_root(ctx, chain, &options);
    let mut items = Vec::new();
    if let Some(root) = root {
        if options.include_top {
            items.push(entry(ctx, root, &chain_path(chain)));
        }
        let tree = subtree_items(ctx, root, options.depth).await?;
        items.extend(tree.iter().map(portlet_item));
    }
    Ok(json!({
        "@id": format!("{}/@contextnavigation", subject.object.url(ctx.base_url)),
        "available": root.is_some(),
        "has_custom_name": !options.name.is_empty(),
        "title": if options.name.is_empty() { "Navigation" } else { options.name.as_str() },
        "url": format!("{}/sitemap", site.url(ctx.base_url)),
        "items": items,
    }))
}

/// The object the tree starts below: the folder of the object with `currentFolderOnly`, else
/// its ancestor at `topLevel` (none when the object is above that level).
fn tree_root<'c>(ctx: &SerializeCtx<'_>, chain: &'c [ContentObject], options: &Options) -> Option<&'c ContentObject> {
    if options.current_folder_only {
        let context = chain.last()?;
        let folderish = ctx.app.types.get(&context.portal_type).is_some_and(|p| p.folderish);
        return if folderish || chain.len() < 2 { Some(context) } else { chain.get(chain.len() - 2) };
    }
    chain.get(options.top_level)
}

fn chain_path(chain: &[ContentObject]) -> String {
    chain.last().map(|o| o.path.clone()).unwrap_or_default()
}

/// The tree's top as an item (`includeTop`); its children follow it in the list.
fn entry(ctx: &SerializeCtx<'_>, object: &ContentObject, context_path: &str) -> Value {
    let url = object.url(ctx.base_url);
    json!({
        "@id": url,
        "href": url,
        "title": object.title,
        "description": object.description,
        "icon": "",
        "thumb": "",
        "is_current": context_path == object.path,
        "is_folderish": ctx.app.types.get(&object.portal_type).is_some_and(|p| p.folderish),
        "is_in_path": on_path(context_path, object),
        "normalized_id": object.id,
        "review_state": object.review_state,
        "type": normalized_type(&object.portal_type),
        "items": [],
    })
}

/// An `@navigation` item in the portlet's shape (`href`, `normalized_id`, `type`, empty
/// strings for a missing icon or thumbnail).
fn portlet_item(item: &Value) -> Value {
    let url = item["@id"].as_str().unwrap_or_default();
    let id = url.rsplit('/').next().unwrap_or_default();
    let id = percent_encoding::percent_decode_str(id).decode_utf8_lossy();
    let children: Vec<Value> = item["items"].as_array().into_iter().flatten().map(portlet_item).collect();
    let href = item.get("remoteUrl").and_then(Value::as_str).unwrap_or(url);
    json!({
        "@id": url,
        "href": href,
        "title": item["title"],
        "description": item["description"],
        "icon": "",
        "thumb": item["thumb"].as_str().unwrap_or_default(),
        "is_current": item["is_current"],
        "is_folderish": item["is_folderish"],
        "is_in_path": item["is_in_path"],
        "normalized_id": id,
        "review_state": item["review_state"],
        "type": normalized_type(item["portal_type"].as_str().unwrap_or_default()),
        "items": children,
    })
}

/// Plone's normalized type name: `Plone Site` → `plone-site`.
fn normalized_type(portal_type: &str) -> String {
    portal_type.to_lowercase().replace(' ', "-")
}

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "@id": {"type": "string"}, "available": {"type": "boolean"}, "has_custom_name": {"type": "boolean"},
            "title": {"type": "string"}, "url": {"type": "string"}, "items": {"type": "array"},
        },
    })
}
