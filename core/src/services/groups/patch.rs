//! `PATCH @groups/<id>`.

use super::{load_group, membership_changes, stored_only};
use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::{apply_text, finish, parse_roles, principal_segment};
use poem::Response;
use poem::http::{Method, StatusCode};

/// Details, roles, and `users: {"<id>": true|false}`.
pub static GROUPS_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Update a group and its members",
        crate::untyped!(|ctx| Box::pin(patch(ctx))),
    )],
};

async fn patch(ctx: Ctx) -> ApiResult<Response> {
    let id = principal_segment(&ctx)?
        .ok_or_else(|| ApiError::new(ErrorCode::MethodNotAllowed, "PATCH needs @groups/<id>."))?;
    stored_only(&id)?;
    let body = ctx.json_body()?;
    let mut group = load_group(&ctx, &id).await?;
    let mut errors = Vec::new();
    apply_text(&body, &mut group, &mut errors);
    if let Some(roles) = body.get("roles") {
        group.roles = parse_roles(&ctx, roles, &group.roles, &mut errors).unwrap_or_default();
    }
    let members = membership_changes(&ctx, body.get("users"), &mut errors).await?;
    finish(errors)?;
    let mut tx = ctx.app.store.begin().await?;
    tx.update_principal(&group).await?;
    for (member, is_member) in &members {
        tx.set_membership(&id, member, *is_member).await?;
    }
    tx.commit().await?;
    ctx.app.security.forget_credentials();
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
