//! `DELETE @groups/<id>`.

use super::{load_group, stored_only};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, NoContent};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::check_may_manage;
use poem::http::Method;
use serde_json::json;

/// Deletes a stored group; the virtual AuthenticatedUsers cannot be, and one that administers
/// the site only by Managers.
pub static GROUPS_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::MANAGE_USERS),
    csrf: Csrf::Cookie,
    routes: &[Route::new("{id}", "Delete a group", endpoint!(delete))],
};

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let id = ctx.param("id");
    stored_only(id)?;
    let group = load_group(&ctx, id).await?;
    check_may_manage(&ctx, std::slice::from_ref(&group.id)).await?;
    let members = ctx.app.store.group_members(id).await?;
    let mut tx = ctx.app.store.begin().await?;
    tx.delete_principal(id).await?;
    tx.append_audit(&ctx.audit("group.delete", id, json!({"roles": group.roles, "members": members}))).await?;
    tx.commit().await?;
    ctx.app.credentials_changed();
    Ok(NoContent::NoContent)
}
