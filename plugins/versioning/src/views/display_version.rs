//! `GET <obj>/display_version?version_id=<index>`.

use super::{Page, VERSION_ID, view};
use crate::ACCESS_VERSIONS;
use crate::render::render_body;
use crate::store::load_version;
use serde_json::json;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, HtmlPage, Raw};
use wcs_core::poem_reexports::Method;
use wcs_core::service::{Route, Service};

/// A version rendered as the page looked then.
pub static DISPLAY_VERSION: Service = view(
    Method::GET,
    "display_version",
    ACCESS_VERSIONS,
    &[Route {
        query: &[VERSION_ID],
        ..Route::new("", "HTML: the body of the version at position version_id (0 = oldest kept)", endpoint!(display))
    }],
);

async fn display(ctx: Ctx) -> ApiResult<Raw<HtmlPage>> {
    let page = Page::new(&ctx).await?;
    let (versions, chosen) = page.chosen(ctx.request.query_value("version_id")).await?;
    let (_, snapshot) = load_version(&ctx.app, &ctx.context.uid, chosen.seq, &ctx.request.service_url).await?;
    let body = render_body(&ctx.app, &snapshot, &page.translator);
    let version = page.version_json(&versions, &chosen);
    page.render("display_version.html", json!({"version": version, "body_html": body}))
}
