//! `POST <site>/@export`: the site in plone.exportimport's format, as a ZIP, written to a
//! temporary file first and sent from there, so a large site does not sit in memory.

use super::EXPORT_SITE;
use crate::error::ImportError;
use crate::zipped;
use poem_openapi::registry::{MetaResponses, MetaSchema};
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, Raw, RawMeta, media_response};
use wcs_core::poem_reexports::{Body, Method, Response};
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The service.
pub static EXPORT: Service = Service {
    method: Method::POST,
    name: "@export",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(EXPORT_SITE),
    csrf: Csrf::Cookie,
    routes: &[Route {
        body_required: false,
        ..Route::new(
            "",
            "The whole site in plone.exportimport's format, as a ZIP: content, files, users with their password \
             hashes, relations, redirects, translations and comments",
            endpoint!(export),
        )
    }],
};

/// A ZIP file.
pub struct SiteArchive;

impl RawMeta for SiteArchive {
    fn meta() -> MetaResponses {
        let file = Some(("application/zip", MetaSchema::new_with_format("string", "binary")));
        MetaResponses { responses: vec![media_response(200, "The export, a ZIP", file)] }
    }
}

async fn export(ctx: Ctx) -> ApiResult<Raw<SiteArchive>> {
    let failed = |e: ImportError| ApiError::internal(format!("exporting the site: {e}"));
    let dir = tempfile::Builder::new()
        .prefix("wcs-export-")
        .tempdir()
        .map_err(|e| failed(ImportError::new("", e.to_string())))?;
    let summary = crate::export_plone(&ctx.app, dir.path(), &|_, _| {}).await.map_err(failed)?;
    let file = tempfile::tempfile().map_err(|e| failed(ImportError::new("", e.to_string())))?;
    let mut archive = zipped::pack(dir.path(), file).map_err(failed)?;
    std::io::Seek::rewind(&mut archive).map_err(|e| failed(ImportError::new("", e.to_string())))?;
    tracing::info!(objects = summary.objects, files = summary.files, "site exported over the web");
    let filename = format!("{}-export.zip", ctx.app.settings.site_id);
    let response = Response::builder()
        .content_type("application/zip")
        .header("Content-Disposition", format!("attachment; filename=\"{filename}\""))
        .body(Body::from_async_read(tokio::fs::File::from_std(archive)));
    Ok(Raw::new(response))
}
