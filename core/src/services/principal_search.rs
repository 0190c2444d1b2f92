//! `GET <site>/@principals?search=`: users and groups matching a term, for sharing forms.
//! The virtual `AuthenticatedUsers` group is shown to Managers only.

use super::groups::{GroupItem, group_item};
use super::principal_forms::authenticated_group;
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::schema::Nullable;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission, Role};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::services::portrait::portrait_urls;
use crate::store::{PrincipalQuery, StoredPrincipal};
use poem::http::Method;
use poem_openapi::{Object, Union};

/// The most principals of each kind one search returns.
const LIMIT: i64 = 100;

/// Searches users and groups by id, login, full name or e-mail (authenticated callers).
pub static PRINCIPALS: Service = Service {
    method: Method::GET,
    name: "@principals",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: &[QueryParam::new(
            "search",
            ParamKind::String,
            "Words to look for in ids, logins, full names and e-mail addresses; empty finds all",
        )],
        ..Route::new("", "Search users and groups (logged-in callers; at most 100 of each)", endpoint!(search))
    }],
};

/// What a search found.
#[derive(Object)]
pub struct PrincipalSearch {
    /// The search's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// The users, then the groups.
    pub items: Vec<FoundPrincipal>,
    /// How many match, beyond the 100 of each kind shown.
    pub items_total: i64,
    /// The users found.
    pub users: Vec<FoundUser>,
    /// The groups found.
    pub groups: Vec<FoundGroup>,
}

/// A user or a group found; `@type` tells which.
#[derive(Union, Clone)]
#[oai(one_of)]
pub enum FoundPrincipal {
    /// A user.
    User(FoundUser),
    /// A group.
    Group(FoundGroup),
}

/// A user found by `@principals`.
#[derive(Object, Clone)]
pub struct FoundUser {
    /// The user's URL under `@principals`.
    #[oai(rename = "@id")]
    pub url: String,
    /// Always `user`.
    #[oai(rename = "@type")]
    pub kind: String,
    /// The user id.
    pub id: String,
    /// The login name.
    pub username: String,
    /// The full name.
    pub fullname: String,
    /// Free text about the user.
    pub description: String,
    /// Where the user is.
    pub location: String,
    /// The e-mail address, for callers who manage users; `""` for everyone else.
    pub email: String,
    /// The user's web site; null when none is set.
    pub home_page: Nullable<String>,
    /// The URL of the user's portrait; null when the user has none.
    pub portrait: Nullable<String>,
    /// Global roles given to the user directly.
    pub roles: Vec<String>,
}

/// A group found by `@principals`: the group as `@groups` lists it, addressed under
/// `@principals`.
#[derive(Object, Clone)]
pub struct FoundGroup {
    /// The group.
    #[oai(flatten)]
    pub group: GroupItem,
    /// Always `group`.
    #[oai(rename = "@type")]
    pub kind: String,
}

fn found_user(site: &str, user: &StoredPrincipal, with_address: bool, portrait: Option<String>) -> FoundUser {
    FoundUser {
        // plone.restapi points each found principal at its own resource.
        url: format!("{site}/@users/{}", user.id),
        kind: "user".to_owned(),
        id: user.id.clone(),
        username: user.login.clone().unwrap_or_else(|| user.id.clone()),
        fullname: user.fullname.clone(),
        description: user.description.clone(),
        location: user.location.clone(),
        email: if with_address { user.email.clone() } else { String::new() },
        home_page: Nullable((!user.home_page.is_empty()).then(|| user.home_page.clone())),
        portrait: Nullable(portrait),
        roles: user.roles.clone(),
    }
}

fn found_group(site: &str, group: &StoredPrincipal) -> FoundGroup {
    FoundGroup { group: group_item(site, group), kind: "group".to_owned() }
}

async fn search(ctx: Ctx) -> ApiResult<Json<PrincipalSearch>> {
    if ctx.principal.user_id().is_none() {
        return Err(ApiError::new(ErrorCode::Unauthorized, "Log in to search users and groups.")
            .with_header("WWW-Authenticate", "Basic realm=\"wcs\""));
    }
    let term = ctx.request.query_value("search").unwrap_or_default().trim().to_owned();
    let site = ctx.site_url();
    // E-mail addresses are personal data: only those who manage users read or search them.
    let addresses = ctx.allows(Permission::MANAGE_USERS);
    let users_query = PrincipalQuery {
        kind: Some("user"),
        search: Some(term.clone()),
        match_email: addresses,
        in_groups: Vec::new(),
    };
    let groups_query = PrincipalQuery {
        kind: Some("group"),
        search: Some(term.clone()),
        match_email: addresses,
        in_groups: Vec::new(),
    };
    let users = ctx.app.store.principals(&users_query, 0, LIMIT).await?;
    let mut groups = ctx.app.store.principals(&groups_query, 0, LIMIT).await?;
    let mut total =
        ctx.app.store.count_principals(&users_query).await? + ctx.app.store.count_principals(&groups_query).await?;
    let virtual_group = authenticated_group();
    let matches_virtual = term.is_empty()
        || virtual_group.id.to_lowercase().contains(&term.to_lowercase())
        || virtual_group.fullname.to_lowercase().contains(&term.to_lowercase());
    if matches_virtual && ctx.principal.has_role(Role::MANAGER) {
        groups.insert(0, virtual_group);
        total += 1;
    }
    groups.retain(|g| g.id != AUTHENTICATED_GROUP || ctx.principal.has_role(Role::MANAGER));
    let ids: Vec<&str> = users.iter().map(|u| u.id.as_str()).collect();
    let mut portraits = portrait_urls(&ctx, &ids).await?;
    let users: Vec<FoundUser> =
        users.iter().map(|u| found_user(&site, u, addresses, portraits.remove(&u.id))).collect();
    let groups: Vec<FoundGroup> = groups.iter().map(|g| found_group(&site, g)).collect();
    let items =
        users.iter().cloned().map(FoundPrincipal::User).chain(groups.iter().cloned().map(FoundPrincipal::Group));
    Ok(Json(PrincipalSearch {
        url: format!("{site}/@principals"),
        items: items.collect(),
        items_total: total,
        users,
        groups,
    }))
}
