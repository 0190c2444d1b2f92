//! `POST <obj>/@untrash`.

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};

/// Restores a trashed object with what trashing it hid.
pub static UNTRASH: Service = Service {
    method: Method::POST,
    name: "@untrash",
    kind: ContentKind::Any,
    permission: Permission::DELETE_OBJECTS,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Restore this object from the trash",
        crate::untyped!(|ctx| Box::pin(untrash(ctx))),
    )],
};

async fn untrash(ctx: Ctx) -> ApiResult<Response> {
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
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
