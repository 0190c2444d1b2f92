//! `POST <folder>/@tus-upload`: start an upload that creates an object here.

use super::start::{UploadStarted, start};
use super::uploads::Mode;
use crate::endpoint;
use crate::error::ApiResult;
use crate::http::{Ctx, Raw};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Starts an upload that creates an object here.
pub static TUS_UPLOAD: Service = Service {
    method: Method::POST,
    name: "@tus-upload",
    kind: ContentKind::Folderish,
    guard: Guard::Has(Permission::ADD_PORTAL_CONTENT),
    csrf: Csrf::Exempt,
    routes: &[Route {
        body_required: false,
        ..Route::new(
            "",
            "Start a resumable upload that creates an object here (headers Tus-Resumable, Upload-Length, Upload-Metadata)",
            endpoint!(start_create),
        )
    }],
};

async fn start_create(ctx: Ctx) -> ApiResult<Raw<UploadStarted>> {
    start(ctx, Mode::Create).await
}
