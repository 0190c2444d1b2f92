//! The small HTML page a browser gets for content (no `Accept: application/json`).

use crate::content::FieldKind;
use crate::content::markup::sanitize_html;
use crate::http::{ApiError, ApiResult, Ctx};
use crate::serialize::download_url;
use poem::Response;
use serde_json::{Value, json};

/// How many children the page lists.
const PAGE_ITEMS: i64 = 100;

/// Renders `content.html` for the context. Blocks are parts of their page, not pages: a browser is sent to the page, at the block
/// (ftw.simplelayout's `@@redirect_to_parent`).
pub async fn render(ctx: Ctx) -> ApiResult<Response> {
    let object = &ctx.context;
    if ctx.profile.is_block()
        && let Some(page) = ctx.parent()
    {
        let target = format!("{}#{}", ctx.url_of(page), object.uid);
        return Ok(Response::builder().status(poem::http::StatusCode::FOUND).header("location", target).finish());
    }
    let base = &ctx.request.base_url;
    let segments: Vec<&str> = object.path.split('/').filter(|s| !s.is_empty()).collect();
    let ancestor_paths: Vec<String> = (1..segments.len()).map(|n| format!("/{}", segments[..n].join("/"))).collect();
    let mut ancestors = ctx.app.store.content_at_paths(&ancestor_paths).await?;
    ancestors.sort_by_key(|a| a.path.len());
    let site_title = ancestors.first().map_or(object.title.as_str(), |site| site.title.as_str()).to_owned();
    let breadcrumbs: Vec<Value> = ancestors.iter().map(|a| json!({"url": a.url(base), "title": a.title})).collect();
    let items: Vec<Value> = if ctx.profile.folderish {
        let children = ctx.app.store.children(&object.uid, &ctx.visibility(), 0, PAGE_ITEMS).await?;
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
        .map(sanitize_html)
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
