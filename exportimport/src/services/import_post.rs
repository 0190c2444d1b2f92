//! `POST <site>/@import`: a ZIP of an export in plone.exportimport's format, as the multipart
//! field `file` (plone.exportimport's own endpoint takes it so), imported as `wcs import-plone`
//! imports it. The answer is plone.exportimport's: a status and the report's lines. A broken
//! export is refused with every problem named and nothing written; one that stops while
//! writing keeps what was written, and the same request goes on from there.

use super::IMPORT_SITE;
use crate::{Options, import_plone};
use poem_openapi::Object;
use std::io::Write;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, ErrorCode};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};
use wcs_core::services::form_file;

/// The service.
pub static IMPORT: Service = Service {
    method: Method::POST,
    name: "@import",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(IMPORT_SITE),
    csrf: Csrf::Cookie,
    routes: &[Route {
        other_media: &["multipart/form-data"],
        ..Route::new(
            "",
            "Import a ZIP of a plone.exportimport export (the multipart field file) into the site",
            endpoint!(import),
        )
    }],
};

/// What the import did.
#[derive(Object)]
#[oai(rename = "SiteImport")]
pub struct Imported {
    /// `success`.
    pub status: String,
    /// The summary, one line per kind of thing written or left out.
    pub report: Vec<String>,
}

async fn import(ctx: Ctx) -> ApiResult<poem_openapi::payload::Json<Imported>> {
    let content_type = ctx.request.header("content-type").unwrap_or_default();
    let zip = form_file(content_type, &ctx.body).await?;
    let failed = |e: std::io::Error| ApiError::internal(format!("keeping the upload: {e}"));
    let mut upload = tempfile::Builder::new().prefix("wcs-import-").suffix(".zip").tempfile().map_err(failed)?;
    upload.write_all(&zip).map_err(failed)?;
    drop(zip);
    let imported = import_plone(&ctx.app, upload.path(), &Options::default(), &|_, _| {}).await;
    let report = imported.map_err(|stopped| {
        let problems: Vec<String> = stopped.problems.iter().map(ToString::to_string).collect();
        let code = if stopped.after_writing { ErrorCode::Conflict } else { ErrorCode::BadRequest };
        ApiError::new(code, format!("The import stopped: {}", problems.join("; ")))
    })?;
    let lines = report.to_string().lines().map(str::to_owned).collect();
    Ok(poem_openapi::payload::Json(Imported { status: "success".into(), report: lines }))
}
