//! `@contextnavigation`: the tree of the section the object is in, as Plone's navigation
//! portlet (and Volto's context navigation) shows it. Options come as
//! `expand.contextnavigation.<name>` (or plain `<name>`): `name`, `topLevel` (the level the
//! tree starts at, default 1: the top-level section), `bottomLevel` (levels shown, 0 for as
//! many as allowed), `includeTop` and `currentFolderOnly`.

use crate::tree::{MAX_DEPTH, NavItem, on_path, subtree_items};
use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use std::sync::Arc;
use wcs_core::content::ContentObject;
use wcs_core::endpoint;
use wcs_core::http::schema::Nullable;
use wcs_core::http::{ApiError, ApiResult, Ctx, Json};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::{Component, SerializeCtx, Subject};
use wcs_core::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};

/// The navigation of the object's section.
pub static CONTEXT_NAVIGATION: Service = Service {
    method: Method::GET,
    name: "@contextnavigation",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        cacheable: true,
        query: &[
            QueryParam::new("expand.contextnavigation.name", ParamKind::String, "The heading (or plain `name`)"),
            QueryParam::new(
                "expand.contextnavigation.topLevel",
                ParamKind::Integer,
                "The level the tree starts at, 0 to 10, default 1: the top-level section (or plain `topLevel`)",
            ),
            QueryParam::new(
                "expand.contextnavigation.bottomLevel",
                ParamKind::Integer,
                "Levels shown, 0 to 10, 0 for as many as allowed (or plain `bottomLevel`)",
            ),
            QueryParam::new(
                "expand.contextnavigation.includeTop",
                ParamKind::Boolean,
                "The tree's top as the first item (or plain `includeTop`)",
            ),
            QueryParam::new(
                "expand.contextnavigation.currentFolderOnly",
                ParamKind::Boolean,
                "Only the folder the object is in (or plain `currentFolderOnly`)",
            ),
        ],
        ..Route::new("", "Navigation of the section around the object (Plone's navigation portlet)", endpoint!(get))
    }],
};

/// `@components.contextnavigation`.
pub static CONTEXT_NAVIGATION_COMPONENT: Component = Component {
    name: "contextnavigation",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| {
        Box::pin(async move { Ok(context_navigation(ctx, subject).await?.to_json().unwrap_or_default().into()) })
    },
};

/// `GET @contextnavigation`, in the shape of Plone's navigation portlet.
#[derive(Object)]
struct ContextNavigation {
    /// The endpoint's URL on the object.
    #[oai(rename = "@id")]
    url: String,
    /// Whether there is a tree: false when the object is above `topLevel`.
    available: bool,
    /// Whether `name` gave the heading.
    has_custom_name: bool,
    /// The heading: `name`, else `Navigation`.
    title: String,
    /// The site map's URL.
    #[oai(rename = "url")]
    sitemap_url: String,
    /// The tree's top (with `includeTop`), then its entries.
    items: Vec<PortletItem>,
}

/// An entry of the portlet's tree.
#[derive(Object)]
#[oai(rename = "ContextNavigationItem")]
struct PortletItem {
    /// The object's URL.
    #[oai(rename = "@id")]
    url: String,
    /// Where the entry links: a Link's target, else the object.
    href: String,
    /// Its `nav_title`, else its title.
    title: String,
    /// Its description.
    description: String,
    /// Always empty.
    icon: String,
    /// The URL of its image's `thumb` scale; empty when it has none.
    thumb: String,
    /// Whether the request is on it.
    is_current: bool,
    /// Whether it is a container.
    is_folderish: bool,
    /// Whether the request is on it or below it.
    is_in_path: bool,
    /// Its id.
    normalized_id: String,
    /// Its workflow state; null without a workflow.
    review_state: Nullable<String>,
    /// Its type, normalized: `Plone Site` → `plone-site`.
    #[oai(rename = "type")]
    kind: String,
    /// Its entries.
    items: Vec<PortletItem>,
}

async fn get(ctx: Ctx) -> ApiResult<Json<ContextNavigation>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.listing_visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(Json(context_navigation(&sctx, ctx.subject()).await?))
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

async fn context_navigation(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<ContextNavigation> {
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
    let title = if options.name.is_empty() { "Navigation".to_owned() } else { options.name.clone() };
    Ok(ContextNavigation {
        url: format!("{}/@contextnavigation", subject.object.url(ctx.base_url)),
        available: root.is_some(),
        has_custom_name: !options.name.is_empty(),
        title,
        sitemap_url: format!("{}/sitemap", site.url(ctx.base_url)),
        items,
    })
}

/// The object the tree starts below: the folder of the object with `currentFolderOnly`, else
/// its ancestor at `topLevel` (none when the object is above that level).
fn tree_root<'c>(
    ctx: &SerializeCtx<'_>,
    chain: &'c [Arc<ContentObject>],
    options: &Options,
) -> Option<&'c ContentObject> {
    if options.current_folder_only {
        let context = chain.last()?;
        let folderish = ctx.site.types.get(&context.portal_type).is_some_and(|p| p.folderish);
        return if folderish || chain.len() < 2 { Some(context) } else { chain.get(chain.len() - 2).map(|o| &**o) };
    }
    chain.get(ctx.access.navigation_root_index(ctx.site) + options.top_level).map(|o| &**o)
}

fn chain_path(chain: &[Arc<ContentObject>]) -> String {
    chain.last().map(|o| o.path.clone()).unwrap_or_default()
}

/// The tree's top as an item (`includeTop`); its children follow it in the list.
fn entry(ctx: &SerializeCtx<'_>, object: &ContentObject, context_path: &str) -> PortletItem {
    let url = object.url(ctx.base_url);
    PortletItem {
        href: url.clone(),
        url,
        title: crate::shown_title(object).to_owned(),
        description: object.description.clone(),
        icon: String::new(),
        thumb: String::new(),
        is_current: context_path == object.path,
        is_folderish: ctx.site.types.get(&object.portal_type).is_some_and(|p| p.folderish),
        is_in_path: on_path(context_path, object),
        normalized_id: object.id.clone(),
        review_state: Nullable(object.review_state.clone()),
        kind: normalized_type(&object.portal_type),
        items: Vec::new(),
    }
}

/// An `@navigation` item in the portlet's shape (`href`, `normalized_id`, `type`, empty
/// strings for a missing icon or thumbnail).
fn portlet_item(item: &NavItem) -> PortletItem {
    let id = item.url.rsplit('/').next().unwrap_or_default();
    PortletItem {
        url: item.url.clone(),
        href: item.remote_url.clone().unwrap_or_else(|| item.url.clone()),
        title: item.title.clone(),
        description: item.description.clone(),
        icon: String::new(),
        thumb: item.thumb.as_ref().and_then(|thumb| thumb.0.clone()).unwrap_or_default(),
        is_current: item.is_current.unwrap_or_default(),
        is_folderish: item.is_folderish.unwrap_or_default(),
        is_in_path: item.is_in_path.unwrap_or_default(),
        normalized_id: percent_encoding::percent_decode_str(id).decode_utf8_lossy().into_owned(),
        review_state: item.review_state.clone(),
        kind: normalized_type(item.portal_type.as_deref().unwrap_or_default()),
        items: item.items.iter().map(portlet_item).collect(),
    }
}

/// Plone's normalized type name: `Plone Site` → `plone-site`.
fn normalized_type(portal_type: &str) -> String {
    portal_type.to_lowercase().replace(' ', "-")
}
