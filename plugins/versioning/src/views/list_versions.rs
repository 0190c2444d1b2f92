//! `GET <obj>/list_versions`.

use super::{Page, view};
use crate::ACCESS_VERSIONS;
use serde_json::{Value, json};
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, HtmlPage, Raw};
use wcs_core::poem_reexports::Method;
use wcs_core::service::{Route, Service};

/// The versions with links to display, compare, restore and delete each.
pub static LIST_VERSIONS: Service = view(
    Method::GET,
    "list_versions",
    ACCESS_VERSIONS,
    &[Route::new("", "HTML: the versions with author, time, comment and actions", endpoint!(list))],
);

async fn list(ctx: Ctx) -> ApiResult<Raw<HtmlPage>> {
    let page = Page::new(&ctx).await?;
    let versions = crate::tables::versions(&ctx.app.store, &ctx.context.uid).await?;
    let items: Vec<Value> = versions.iter().map(|v| page.version_json(&versions, v)).collect();
    page.render("list_versions.html", json!({"versions": items}))
}
