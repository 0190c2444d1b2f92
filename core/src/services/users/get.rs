//! `GET @users[?query=]` and `GET @users/<id>`.

use super::{UserItem, load_user, user_item};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_items::{LISTING_QUERY, PrincipalList, principal_list};
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
            query: LISTING_QUERY,
            guard: Some(Guard::Has(Permission::MANAGE_USERS)),
            ..Route::new("", "List users (Manage users), batched; ?query= searches", endpoint!(list))
        },
        Route {
            guard: Some(Guard::SelfOr(Permission::MANAGE_USERS)),
            ..Route::new("{id}", "Read a user (the user themselves, or Manage users)", endpoint!(one))
        },
    ],
};

async fn list(ctx: Ctx) -> ApiResult<Json<PrincipalList<UserItem>>> {
    let (site, request) = (ctx.site_url(), ctx.request.request_url());
    Ok(Json(principal_list(&ctx, "user", "@users", |user| user_item(&site, &request, user)).await?))
}

async fn one(ctx: Ctx) -> ApiResult<Json<UserItem>> {
    let id = ctx.param("id");
    Ok(Json(user_item(&ctx.site_url(), &ctx.request.request_url(), &load_user(&ctx, id).await?)))
}
