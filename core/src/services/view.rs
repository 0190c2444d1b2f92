//! `GET <obj>/view`: the small HTML page a browser gets for content. A browser asking for the
//! object itself (no `Accept: application/json`, no `++api++`) is dispatched here, as Plone
//! serves an object's default view.

use super::breadcrumbs::visible_chain;
use crate::content::FieldKind;
use crate::content::markup::stored_for_output;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, Found, HtmlPage, Raw, RawMeta};
use crate::security::{Csrf, Permission};
use crate::serialize::download_url;
use crate::service::{ContentKind, DEFAULT_VIEW, Guard, Route, Service};
use poem::Response;
use poem::http::Method;
use poem_openapi::registry::MetaResponses;
use serde_json::{Value, json};

/// How many children the page lists.
const PAGE_ITEMS: i64 = 100;

/// The default HTML page of any object.
pub static VIEW: Service = Service {
    method: Method::GET,
    name: DEFAULT_VIEW,
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "HTML: the object's page (what a browser gets for the object itself); blocks redirect to their page",
        endpoint!(render),
    )
    .cacheable()],
};

/// Renders `content.html` for the context. Blocks are parts of their page, not pages: a
/// browser is sent to the page, at the block (ftw.simplelayout's `@@redirect_to_parent`).
/// Containers the caller may not view are left out of the breadcrumbs, as in `@breadcrumbs`.
async fn render(ctx: Ctx) -> ApiResult<Raw<PageOrBlock>> {
    page(&ctx).await.map(Raw::new)
}

/// The page, or 302 to the page a block is part of.
pub struct PageOrBlock;

impl RawMeta for PageOrBlock {
    fn meta() -> MetaResponses {
        let mut responses = HtmlPage::meta().responses;
        responses.extend(Found::meta().responses);
        MetaResponses { responses }
    }
}

async fn page(ctx: &Ctx) -> ApiResult<Response> {
    let object = &ctx.context;
    if ctx.profile.is_block()
        && let Some(page) = ctx.parent()
    {
        let target = format!("{}#{}", ctx.url_of(page), object.uid);
        return Ok(Response::builder().status(poem::http::StatusCode::FOUND).header("location", target).finish());
    }
    let base = &ctx.request.base_url;
    let visible = visible_chain(&ctx.app, &ctx.access);
    let site_title = match visible.first() {
        Some((0, site)) => site.title.clone(),
        _ => object.site_id().to_owned(),
    };
    let breadcrumbs: Vec<Value> = visible
        .iter()
        .filter(|(index, _)| index + 1 < ctx.access.chain().len())
        .map(|(_, a)| json!({"url": a.url(base), "title": a.title}))
        .collect();
    let items: Vec<Value> = if ctx.profile.folderish {
        let children = ctx.app.store.children(&object.uid, &ctx.listing_visibility(), 0, PAGE_ITEMS).await?;
        children
            .iter()
            .map(|c| {
                let type_title = ctx.app.types.get(&c.portal_type).map_or(c.portal_type.clone(), |t| t.title.clone());
                json!({"url": c.url(base), "title": c.title, "type_title": type_title})
            })
            .collect()
    } else {
        Vec::new()
    };
    let url = object.url(base);
    let files: Vec<Value> = ctx
        .profile
        .fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::File | FieldKind::Image))
        .filter_map(|f| {
            let value = object.fields.get(&f.name)?;
            let filename = value.get("filename")?.as_str()?;
            Some(json!({"url": download_url(&url, object, &f.name, filename), "filename": filename, "size": value.get("size")}))
        })
        .collect();
    let text_html = object
        .fields
        .get("text")
        .and_then(|t| t.get("data"))
        .and_then(Value::as_str)
        .map(|stored| stored_for_output(stored).into_owned())
        .unwrap_or_default();
    let link_url = object.fields.get("remoteUrl").and_then(Value::as_str).unwrap_or_default();
    let context = json!({
        "lang": "en",
        "site_title": site_title,
        "title": object.title,
        "description": object.description,
        "type_title": ctx.profile.title,
        "review_state": object.review_state.clone().unwrap_or_default(),
        "modified": crate::content::values::format_time(object.modified),
        "breadcrumbs": breadcrumbs,
        "items": items,
        "files": files,
        "text_html": text_html,
        "link_url": link_url,
    });
    let html = ctx.app.templates.render("content.html", &context).map_err(ApiError::internal)?;
    Ok(Response::builder().content_type("text/html; charset=utf-8").body(html))
}
