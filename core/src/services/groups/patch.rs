//! `PATCH @groups/<id>`.

use super::{load_group, membership_changes, stored_only};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, NoContent, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Route, Service};
use crate::services::principal_forms::{apply_text, finish, parse_roles};
use crate::services::principal_items::ListOrSwitches;
use poem::http::Method;
use poem_openapi::Object;

/// Details, roles, and `users: {"<id>": true|false}`.
pub static GROUPS_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
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
        tx.set_membership(id, member, *is_member).await?;
    }
    tx.commit().await?;
    ctx.app.credentials_changed();
    Ok(NoContent::NoContent)
}
