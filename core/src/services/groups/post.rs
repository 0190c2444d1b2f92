//! `POST @groups`: create a group.

use super::{GroupItem, group_with_members, membership_changes};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, Json, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::{apply_text, check_id, check_role_changes, finish, parse_roles};
use crate::services::principal_items::ListOrSwitches;
use crate::store::StoredPrincipal;
use poem::http::Method;
use poem_openapi::{ApiResponse, Object};
use serde_json::{Value, json};

/// `POST @groups {groupname, title, description, email, roles, users, groups}`.
pub static GROUPS_POST: Service = Service {
    method: Method::POST,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::MANAGE_USERS),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<NewGroup>),
        ..Route::new("", "Create a group, with members", endpoint!(create))
    }],
};

/// A new group; `groupname` (or `id`) is required.
#[derive(Object)]
pub struct NewGroup {
    /// The group id.
    pub groupname: Option<String>,
    /// Taken for `groupname` when that is missing.
    pub id: Option<String>,
    /// The title; the id when left out.
    pub title: Option<String>,
    /// Free text about the group.
    pub description: Option<String>,
    /// The group's e-mail address.
    pub email: Option<String>,
    /// Global roles its members hold through it: a list, or `{"<role>": true}`.
    pub roles: Option<ListOrSwitches>,
    /// Its first members: user or group ids, or `{"<id>": true}`.
    pub users: Option<ListOrSwitches>,
    /// Groups to make members too, whose members then hold this group's roles (Plone's
    /// recursive groups).
    pub groups: Option<ListOrSwitches>,
}

/// 201 with the new group.
#[derive(ApiResponse)]
pub enum GroupCreated {
    /// Created; `Location` is the group's URL.
    #[oai(status = 201)]
    Created(Json<GroupItem>, #[oai(header = "Location")] String),
}

async fn create(ctx: Ctx) -> ApiResult<GroupCreated> {
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let id = body.get("groupname").or_else(|| body.get("id")).and_then(Value::as_str).unwrap_or_default().to_owned();
    check_id("groupname", &id, &mut errors);
    let mut group =
        StoredPrincipal { id: id.clone(), kind: "group".into(), fullname: id.clone(), ..Default::default() };
    apply_text(&body, &mut group, &mut errors);
    if let Some(roles) = body.get("roles") {
        group.roles = parse_roles(roles, &[], &mut errors).unwrap_or_default();
    }
    let mut members = membership_changes(&ctx, "users", body.get("users"), &mut errors).await?;
    for change in membership_changes(&ctx, "groups", body.get("groups"), &mut errors).await? {
        if change.0 == id {
            errors.push(FieldError::new("groups", "A group cannot be a member of itself."));
        } else if !members.contains(&change) {
            members.push(change);
        }
    }
    finish(errors)?;
    check_role_changes(&ctx, &[], &group.roles)?;
    if ctx.app.store.principal_exists(&id).await? {
        return Err(ApiError::new(ErrorCode::Conflict, format!("The id '{id}' is already taken by a user or group.")));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.insert_principal(&group).await?;
    for (member, is_member) in &members {
        tx.set_membership(&id, member, *is_member).await?;
    }
    let added: Vec<&String> = members.iter().filter(|(_, on)| *on).map(|(member, _)| member).collect();
    tx.append_audit(&ctx.audit("group.create", &id, json!({"roles": group.roles, "members": added}))).await?;
    tx.commit().await?;
    ctx.app.credentials_changed();
    let site = ctx.site_url();
    let mut added: Vec<String> = added.into_iter().cloned().collect();
    added.sort();
    Ok(GroupCreated::Created(Json(group_with_members(&ctx, &group, added)), format!("{site}/@groups/{id}")))
}
