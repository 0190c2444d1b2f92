//! `GET @users[?query=]` and `GET @users/<id>`.

use super::{UserItem, load_user, user_item, with_portraits};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json, JsonOrCsv, csv_file, wants_csv};
use crate::security::AUTHENTICATED_GROUP;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::{groups_filter, search_text};
use crate::services::principal_items::{PrincipalList, USER_LISTING_QUERY, principal_list};
use crate::store::PrincipalQuery;
use poem::http::Method;

/// Lists users (Manage users) or reads one (the user themselves, or Manage users). The service
/// declares `Set own properties`, the floor every reader needs, and each route narrows it.
pub static USERS_GET: Service = Service {
    method: Method::GET,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::SET_OWN_PROPERTIES),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            query: USER_LISTING_QUERY,
            guard: Some(Guard::Has(Permission::MANAGE_USERS)),
            ..Route::new(
                "",
                "List users (Manage users), batched; ?query= searches; Accept: text/csv exports them all",
                endpoint!(list),
            )
        },
        Route {
            guard: Some(Guard::SelfOr(Permission::MANAGE_USERS)),
            ..Route::new("{id}", "Read a user (the user themselves, or Manage users)", endpoint!(one))
        },
    ],
};

async fn list(ctx: Ctx) -> ApiResult<JsonOrCsv<PrincipalList<UserItem>>> {
    let (site, request) = (ctx.site_url(), ctx.request.request_url());
    if wants_csv(ctx.request.header("accept")) {
        return Ok(JsonOrCsv::Csv(csv_export(&ctx).await?));
    }
    let mut list = principal_list(&ctx, "user", "@users", |user| user_item(&site, &request, user)).await?;
    with_portraits(&ctx, &mut list.items).await?;
    Ok(JsonOrCsv::Json(list))
}

/// The most users a CSV export holds.
const MAX_CSV_USERS: i64 = 100_000;

/// Plone's users export: `id,username,fullname,email,roles,groups`, roles and groups each in
/// one cell, comma-separated (as the upload reads them back); `?query=` narrows it too.
async fn csv_export(ctx: &Ctx) -> ApiResult<Vec<u8>> {
    let in_groups = groups_filter(ctx)?;
    let query = PrincipalQuery { kind: Some("user"), search: search_text(ctx), match_email: true, in_groups };
    let users = ctx.app.store.principals(&query, 0, MAX_CSV_USERS).await?;
    let rows = users.iter().map(|user| {
        let groups: Vec<&str> = user.groups.iter().map(String::as_str).chain([AUTHENTICATED_GROUP]).collect();
        let login = user.login.clone().unwrap_or_else(|| user.id.clone());
        vec![
            user.id.clone(),
            login,
            user.fullname.clone(),
            user.email.clone(),
            user.roles.join(", "),
            groups.join(", "),
        ]
    });
    csv_file(&["id", "username", "fullname", "email", "roles", "groups"], rows)
}

async fn one(ctx: Ctx) -> ApiResult<Json<UserItem>> {
    let id = ctx.param("id");
    let mut user = user_item(&ctx.site_url(), &ctx.request.request_url(), &load_user(&ctx, id).await?);
    with_portraits(&ctx, std::slice::from_mut(&mut user)).await?;
    Ok(Json(user))
}
