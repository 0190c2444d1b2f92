//! `@groups` on the site root: list (batched, like `@users`), read, create, update members,
//! delete; one method per file, each for `Manage users` only.

pub mod delete;
pub mod get;
pub mod patch;
pub mod post;

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError};
use crate::security::{AUTHENTICATED_GROUP, Role};
use crate::services::principal_forms::{authenticated_group, check_may_manage};
use crate::store::StoredPrincipal;
use poem_openapi::Object;
use serde_json::Value;

/// A group as `@groups` lists it.
#[derive(Object, Clone)]
pub struct GroupItem {
    /// The group's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// The group id.
    pub id: String,
    /// The group id again, as plone.restapi has it.
    pub groupname: String,
    /// The group's title.
    pub title: String,
    /// Free text about the group.
    pub description: String,
    /// The group's e-mail address, `""` when none is set.
    pub email: String,
    /// Global roles its members hold through it, then `Authenticated`, as Plone lists them.
    pub roles: Vec<String>,
    /// Its members, users and groups (in `@groups`, not in `@principals`).
    #[oai(skip_serializing_if_is_none)]
    pub members: Option<GroupMembers>,
}

/// The members of a group.
#[derive(Object, Clone)]
pub struct GroupMembers {
    /// The URL requested.
    #[oai(rename = "@id")]
    pub url: String,
    /// How many there are.
    pub items_total: usize,
    /// Their ids; none for the virtual AuthenticatedUsers.
    pub items: Vec<String>,
}

/// `group` as `@groups` lists it, on the site at `site_url`, without its members.
pub fn group_item(site_url: &str, group: &StoredPrincipal) -> GroupItem {
    let mut roles = group.roles.clone();
    // Its members hold Authenticated anyway; the virtual group of them all lists no roles.
    if group.id != AUTHENTICATED_GROUP {
        roles.push(Role::AUTHENTICATED.name().to_owned());
    }
    GroupItem {
        url: format!("{site_url}/@groups/{}", group.id),
        id: group.id.clone(),
        groupname: group.id.clone(),
        title: group.fullname.clone(),
        description: group.description.clone(),
        email: group.email.clone(),
        roles,
        members: None,
    }
}

/// `group` with its `members`, whose `@id` is the URL requested, as plone.restapi echoes it.
pub fn group_with_members(ctx: &Ctx, group: &StoredPrincipal, members: Vec<String>) -> GroupItem {
    GroupItem { members: Some(members_of(ctx, members)), ..group_item(&ctx.site_url(), group) }
}

/// The `members` of a group answered to `ctx`.
pub fn members_of(ctx: &Ctx, members: Vec<String>) -> GroupMembers {
    GroupMembers { url: ctx.request.request_url(), items_total: members.len(), items: members }
}

async fn load_group(ctx: &Ctx, id: &str) -> ApiResult<StoredPrincipal> {
    if id == AUTHENTICATED_GROUP {
        return Ok(authenticated_group());
    }
    ctx.app
        .store
        .principal(id)
        .await?
        .filter(|p| p.kind == "group")
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("Group '{id}' could not be found.")))
}

/// The members `changes` adds to and removes from a group whose members are `current`.
fn members_changed(current: &[String], changes: &[(String, bool)]) -> (Vec<String>, Vec<String>) {
    let added = changes.iter().filter(|(id, on)| *on && !current.contains(id)).map(|(id, _)| id.clone()).collect();
    let removed = changes.iter().filter(|(id, on)| !*on && current.contains(id)).map(|(id, _)| id.clone()).collect();
    (added, removed)
}

fn stored_only(id: &str) -> ApiResult<()> {
    if id == AUTHENTICATED_GROUP {
        return Err(ApiError::new(ErrorCode::BadRequest, "The virtual group AuthenticatedUsers cannot be changed."));
    }
    Ok(())
}

/// The members a request adds (`true`) or removes (`false`) under `field`: `users` names users
/// or groups, `groups` (plone.restapi's name on a new group) groups only. A group inside a
/// group gives its members the outer group's roles, as Plone's recursive groups do. Joining
/// or leaving changes what a member may do, so each member must be one the caller may manage.
async fn membership_changes(
    ctx: &Ctx,
    field: &str,
    value: Option<&Value>,
    errors: &mut Vec<FieldError>,
) -> ApiResult<Vec<(String, bool)>> {
    let changes: Vec<(String, bool)> = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(ids)) => ids.iter().filter_map(Value::as_str).map(|id| (id.to_owned(), true)).collect(),
        Some(Value::Object(map)) => map.iter().map(|(id, v)| (id.clone(), v.as_bool().unwrap_or(false))).collect(),
        Some(_) => {
            errors.push(FieldError::new(field, "Expected a list of ids or {\"<id>\": true|false}."));
            return Ok(Vec::new());
        }
    };
    let ids: Vec<String> = changes.iter().map(|(id, _)| id.clone()).collect();
    check_may_manage(ctx, &ids).await?;
    let known = ctx.app.store.principals_by_ids(&ids).await?;
    let groups_only = field == "groups";
    for (id, member) in &changes {
        let fits = known.iter().any(|p| &p.id == id && (!groups_only || p.kind == "group"));
        if *member && !fits {
            let what = if groups_only { "group" } else { "user or group" };
            errors.push(FieldError::new(field, format!("No {what} '{id}'.")));
        }
    }
    Ok(changes)
}
