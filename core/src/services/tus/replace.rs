//! `POST <object>/@tus-replace`: start an upload that replaces this object's file.

use super::start::{UploadStarted, start};
use super::uploads::Mode;
use crate::endpoint;
use crate::error::ApiResult;
use crate::http::{Ctx, Raw};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Starts an upload that replaces this object's file.
pub static TUS_REPLACE: Service = Service {
    method: Method::POST,
    name: "@tus-replace",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Exempt,
    routes: &[Route {
        body_required: false,
        ..Route::new(
            "",
            "Start a resumable upload that replaces this object's file (headers as for @tus-upload)",
            endpoint!(start_replace),
        )
    }],
};

async fn start_replace(ctx: Ctx) -> ApiResult<Raw<UploadStarted>> {
    start(ctx, Mode::Replace).await
}
