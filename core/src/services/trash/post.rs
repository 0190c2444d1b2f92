//! `POST <obj>/@trash`.

use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, NoContent};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Moves the object and its subtree to the trash.
pub static TRASH: Service = Service {
    method: Method::POST,
    name: "@trash",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::DELETE_OBJECTS),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Move this object and its subtree to the trash", endpoint!(trash))],
};

async fn trash(ctx: Ctx) -> ApiResult<NoContent> {
    if ctx.context.is_site_root() {
        return Err(ApiError::new(ErrorCode::BadRequest, "The site root cannot be put in the trash."));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.trash(&ctx.context, chrono::Utc::now()).await?;
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
