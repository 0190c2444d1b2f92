//! `GET <obj>/compare_version?version_id=<index>`.

use super::{Page, VERSION_ID, view};
use crate::ACCESS_VERSIONS;
use crate::compare::{Row, compare};
use crate::store::load_version;
use serde_json::{Value, json};
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, HtmlPage, Raw};
use wcs_core::poem_reexports::Method;
use wcs_core::service::{Route, Service};

/// What changed between a version and the current content.
pub static COMPARE_VERSION: Service = view(
    Method::GET,
    "compare_version",
    ACCESS_VERSIONS,
    &[Route {
        query: &[VERSION_ID],
        ..Route::new(
            "",
            "HTML: the version at position version_id compared with the current content",
            endpoint!(compare_view),
        )
    }],
);

async fn compare_view(ctx: Ctx) -> ApiResult<Raw<HtmlPage>> {
    let page = Page::new(&ctx).await?;
    let (versions, chosen) = page.chosen(ctx.request.query_value("version_id")).await?;
    let (_, snapshot) = load_version(&ctx.app, &ctx.context.uid, chosen.seq, &ctx.request.service_url).await?;
    let comparison = compare(&ctx.app, &ctx.context, &snapshot, &page.translator, &ctx.request.base_url).await?;
    let rows = comparison.rows_json();
    let skipped_label = |row: &Row| match row {
        Row::Skipped(count) => page.translator.text_with("versioning-skipped", &[("count", count.to_string())]),
        _ => String::new(),
    };
    let rows: Vec<Value> = rows
        .into_iter()
        .zip(&comparison.rows)
        .map(|(mut json, row)| {
            if let Some(map) = json.as_object_mut() {
                map.insert("skipped_text".into(), json!(skipped_label(row)));
            }
            json
        })
        .collect();
    let version = page.version_json(&versions, &chosen);
    page.render(
        "compare_version.html",
        json!({"version": version, "rows": rows, "changes_total": comparison.changes_total()}),
    )
}
