//! `DELETE @users/<id>`.

use super::load_user;
use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::security::{Csrf, Permission, Principal};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::principal_segment;
use poem::Response;
use poem::http::{Method, StatusCode};

/// Removes the user, its memberships and local roles.
pub static USERS_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any("Delete a user", crate::untyped!(|ctx| Box::pin(delete(ctx))))],
};

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    let id = principal_segment(&ctx)?
        .ok_or_else(|| ApiError::new(ErrorCode::MethodNotAllowed, "DELETE needs @users/<id>."))?;
    load_user(&ctx, &id).await?;
    if matches!(&ctx.principal, Principal::User(u) if u.id == id) {
        return Err(ApiError::new(ErrorCode::BadRequest, "You cannot delete yourself."));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.delete_principal(&id).await?;
    tx.commit().await?;
    ctx.app.security.forget_credentials();
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
