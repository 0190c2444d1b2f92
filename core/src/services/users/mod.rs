//! `@users` on the site root: list, read, create, update and delete users, one method per
//! file. Users may read and change themselves; everything else needs `Manage users`.

mod created;
pub mod delete;
pub mod get;
mod import;
pub mod patch;
mod portrait;
pub mod post;
mod reset_password;

use crate::http::schema::Nullable;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError};
use crate::security::{AUTHENTICATED_GROUP, Permission, hash_in_turn};
use crate::services::portrait::portrait_urls;
use crate::store::StoredPrincipal;
use poem_openapi::Object;
use serde_json::{Map, Value};

const MIN_PASSWORD: usize = 8;

/// A user as `@users` answers it; never the password hash.
#[derive(Object)]
pub struct UserItem {
    /// The user's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// The user id.
    pub id: String,
    /// The login name (the id unless set apart).
    pub username: String,
    /// The full name; null when none is set.
    pub fullname: Nullable<String>,
    /// The e-mail address, `""` when none is set.
    pub email: String,
    /// Free text about the user; null when none is set.
    pub description: Nullable<String>,
    /// Where the user is; null when none is set.
    pub location: Nullable<String>,
    /// The user's web site; null when none is set.
    pub home_page: Nullable<String>,
    /// The URL of the user's portrait (`@portrait/<id>`); null when the user has none.
    pub portrait: Nullable<String>,
    /// Global roles given to the user directly.
    pub roles: Vec<String>,
    /// The groups the user is a member of.
    pub groups: UserGroups,
}

/// The groups a user is a member of.
#[derive(Object)]
pub struct UserGroups {
    /// The URL the request was sent to, as plone.restapi echoes it.
    #[oai(rename = "@id")]
    pub url: String,
    /// How many there are.
    pub items_total: usize,
    /// The groups.
    pub items: Vec<UserGroupRef>,
}

/// A group a user belongs to.
#[derive(Object)]
pub struct UserGroupRef {
    /// The group id.
    pub id: String,
    /// The group id again, as plone.restapi has it.
    pub title: String,
}

/// `user` as `@users` answers it, on the site at `site_url`, for a request sent to
/// `request_url`; roles and groups by name, as Plone lists them. Every user is a member of the
/// virtual group `AuthenticatedUsers`.
pub fn user_item(site_url: &str, request_url: &str, user: &StoredPrincipal) -> UserItem {
    let mut ids: Vec<&str> =
        user.groups.iter().map(String::as_str).chain(std::iter::once(AUTHENTICATED_GROUP)).collect();
    ids.sort_unstable_by_key(|id| id.to_lowercase());
    let groups: Vec<UserGroupRef> =
        ids.into_iter().map(|g| UserGroupRef { id: g.to_owned(), title: g.to_owned() }).collect();
    UserItem {
        url: format!("{site_url}/@users/{}", user.id),
        id: user.id.clone(),
        username: user.login.clone().unwrap_or_else(|| user.id.clone()),
        fullname: unless_empty(&user.fullname),
        email: user.email.clone(),
        description: unless_empty(&user.description),
        location: unless_empty(&user.location),
        home_page: unless_empty(&user.home_page),
        portrait: Nullable(None),
        roles: sorted(&user.roles),
        groups: UserGroups { url: request_url.to_owned(), items_total: groups.len(), items: groups },
    }
}

/// A text property as plone.restapi answers it: null when it is not set.
fn unless_empty(text: &str) -> Nullable<String> {
    Nullable((!text.is_empty()).then(|| text.to_owned()))
}

/// Points the users that have a portrait at it, with one query for all of them.
async fn with_portraits(ctx: &Ctx, users: &mut [UserItem]) -> ApiResult<()> {
    let ids: Vec<&str> = users.iter().map(|u| u.id.as_str()).collect();
    let mut urls = portrait_urls(ctx, &ids).await?;
    for user in users.iter_mut() {
        user.portrait = Nullable(urls.remove(&user.id));
    }
    Ok(())
}

/// Roles in Plone's order: by name.
fn sorted(roles: &[String]) -> Vec<String> {
    let mut roles = roles.to_vec();
    roles.sort_unstable();
    roles
}

async fn load_user(ctx: &Ctx, id: &str) -> ApiResult<StoredPrincipal> {
    ctx.app
        .store
        .principal(id)
        .await?
        .filter(|p| p.kind == "user")
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("User '{id}' could not be found.")))
}

/// The check narrower than the services' `Set own properties`: one's own account, or
/// `Manage users` (refused with that permission's name, 401 or 403 as the dispatcher would).
fn require_self_or_manager(ctx: &Ctx, id: &str) -> ApiResult<()> {
    if ctx.principal.user_id() == Some(id) { Ok(()) } else { ctx.check(Permission::MANAGE_USERS) }
}

fn password(body: &Map<String, Value>, errors: &mut Vec<FieldError>) -> Option<String> {
    match body.get("password") {
        None | Some(Value::Null) => None,
        Some(Value::String(p)) if p.chars().count() >= MIN_PASSWORD && p.len() <= 1000 => Some(p.clone()),
        Some(_) => {
            errors.push(FieldError::new(
                "password",
                format!("The password must have at least {MIN_PASSWORD} characters."),
            ));
            None
        }
    }
}

async fn hash(password: &str) -> ApiResult<String> {
    hash_in_turn(password).await
}

/// Whether `old` is the current password of `user` (throttled like logins).
async fn check_old_password(ctx: &Ctx, user: &StoredPrincipal, old: &str) -> ApiResult<bool> {
    let login = user.login.as_deref().unwrap_or(&user.id);
    ctx.app.security.check_password(login, user.password_hash.as_deref(), old, ctx.request.client).await
}
