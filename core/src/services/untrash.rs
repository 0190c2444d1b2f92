//! `POST <obj>/@untrash`.

use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, NoContent};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Restores a trashed object with what trashing it hid.
pub static UNTRASH: Service = Service {
    method: Method::POST,
    name: "@untrash",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::DELETE_OBJECTS),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Restore this object from the trash", endpoint!(untrash))],
};

async fn untrash(ctx: Ctx) -> ApiResult<NoContent> {
    let object = &ctx.context;
    match object.trash_root.as_deref() {
        None => return Err(ApiError::new(ErrorCode::BadRequest, "This object is not in the trash.")),
        Some(root) if root != object.uid => {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "This object went to the trash with a container; restore that container instead.",
            ));
        }
        Some(_) => {}
    }
    if ctx.parent().is_some_and(|p| p.is_trashed()) {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "The container of this object is in the trash; restore it first.",
        ));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.untrash(&object.uid).await?;
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
