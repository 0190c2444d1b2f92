//! `PATCH @groups/<id>`.

use super::{load_group, members_changed, membership_changes, stored_only};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, NoContent, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::{
    apply_text, check_may_manage, check_role_changes, finish, parse_roles, role_changes,
};
use crate::services::principal_items::ListOrSwitches;
use poem::http::Method;
use poem_openapi::Object;
use serde_json::json;

/// Details, roles, and `users: {"<id>": true|false}`; a group that administers the site (its
/// roles or members), and members who do, are changed by Managers only.
pub static GROUPS_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::MANAGE_USERS),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<GroupChanges>),
        ..Route::new("{id}", "Update a group and its members", endpoint!(patch))
    }],
};

/// What `PATCH @groups/<id>` changes; what is left out stays.
#[derive(Object)]
pub struct GroupChanges {
    /// The title; null clears it.
    pub title: Option<String>,
    /// Free text about the group.
    pub description: Option<String>,
    /// The group's e-mail address.
    pub email: Option<String>,
    /// Global roles its members hold through it: a list replaces them,
    /// `{"<role>": true|false}` gives or takes single ones.
    pub roles: Option<ListOrSwitches>,
    /// Members: user or group ids to add, or `{"<id>": true|false}` to add and remove.
    pub users: Option<ListOrSwitches>,
}

async fn patch(ctx: Ctx) -> ApiResult<NoContent> {
    let id = ctx.param("id");
    stored_only(id)?;
    let body = ctx.json_body()?;
    let mut group = load_group(&ctx, id).await?;
    check_may_manage(&ctx, std::slice::from_ref(&group.id)).await?;
    let mut errors = Vec::new();
    apply_text(&body, &mut group, &mut errors);
    let roles_before = group.roles.clone();
    if let Some(roles) = body.get("roles") {
        group.roles = parse_roles(roles, &group.roles, &mut errors).unwrap_or_default();
    }
    let members = membership_changes(&ctx, "users", body.get("users"), &mut errors).await?;
    finish(errors)?;
    check_role_changes(&ctx, &roles_before, &group.roles)?;
    let current = ctx.app.store.group_members(id).await?;
    let (added, removed) = members_changed(&current, &members);
    let mut tx = ctx.app.store.begin().await?;
    tx.update_principal(&group).await?;
    for (member, is_member) in &members {
        tx.set_membership(id, member, *is_member).await?;
    }
    if group.roles != roles_before {
        tx.append_audit(&ctx.audit("group.roles", id, role_changes(&roles_before, &group.roles))).await?;
    }
    if !added.is_empty() || !removed.is_empty() {
        tx.append_audit(&ctx.audit("group.members", id, json!({"added": added, "removed": removed}))).await?;
    }
    tx.commit().await?;
    ctx.app.credentials_changed();
    Ok(NoContent::NoContent)
}
