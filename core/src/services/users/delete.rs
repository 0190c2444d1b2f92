//! `DELETE @users/<id>`.

use super::load_user;
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, NoContent};
use crate::security::{Csrf, Permission, Principal};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::check_may_manage;
use poem::http::Method;
use serde_json::json;

/// Removes the user, its memberships and local roles (an account that administers the site:
/// Managers only).
pub static USERS_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::MANAGE_USERS),
    csrf: Csrf::Cookie,
    routes: &[Route::new("{id}", "Delete a user with its memberships and local roles", endpoint!(delete))],
};

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let id = ctx.param("id");
    let user = load_user(&ctx, id).await?;
    if matches!(&ctx.principal, Principal::User(u) if u.id == id) {
        return Err(ApiError::new(ErrorCode::BadRequest, "You cannot delete yourself."));
    }
    check_may_manage(&ctx, std::slice::from_ref(&user.id)).await?;
    let mut tx = ctx.app.store.begin().await?;
    tx.delete_principal(id).await?;
    tx.append_audit(&ctx.audit("user.delete", id, json!({"roles": user.roles, "groups": user.groups}))).await?;
    tx.commit().await?;
    ctx.app.credentials_changed();
    Ok(NoContent::NoContent)
}
