//! `GET @users[?query=]` and `GET @users/<id>`.

use super::{UserItem, load_user, require_self_or_manager, user_item};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Route, Service};
use crate::services::principal_items::{LISTING_QUERY, PrincipalList, principal_list};
use poem::http::Method;

/// Lists users (Manage users) or reads one (the user or a manager). The table declares `Set
/// own properties`, the floor every reader needs, so anonymous callers are refused before the
/// handler; the handler narrows it to the user themselves or `Manage users`.
pub static USERS_GET: Service = Service {
    method: Method::GET,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::SET_OWN_PROPERTIES,
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            query: LISTING_QUERY,
            ..Route::new("", "List users (Manage users), batched; ?query= searches", endpoint!(list))
        },
        Route::new("{id}", "Read a user (the user themselves, or Manage users)", endpoint!(one)),
    ],
};

async fn list(ctx: Ctx) -> ApiResult<Json<PrincipalList<UserItem>>> {
    ctx.check(Permission::MANAGE_USERS)?;
    Ok(Json(principal_list(&ctx, "user", "@users", user_item).await?))
}

async fn one(ctx: Ctx) -> ApiResult<Json<UserItem>> {
    let id = ctx.param("id");
    require_self_or_manager(&ctx, id)?;
    Ok(Json(user_item(&ctx.site_url(), &load_user(&ctx, id).await?)))
}
