//! `DELETE @groups/<id>`.

use super::{load_group, stored_only};
use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::principal_segment;
use poem::Response;
use poem::http::{Method, StatusCode};

/// Deletes a stored group; the virtual AuthenticatedUsers cannot be.
pub static GROUPS_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any("Delete a group", crate::untyped!(|ctx| Box::pin(delete(ctx))))],
};

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    let id = principal_segment(&ctx)?
        .ok_or_else(|| ApiError::new(ErrorCode::MethodNotAllowed, "DELETE needs @groups/<id>."))?;
    stored_only(&id)?;
    load_group(&ctx, &id).await?;
    let mut tx = ctx.app.store.begin().await?;
    tx.delete_principal(&id).await?;
    tx.commit().await?;
    ctx.app.security.forget_credentials();
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
