//! `GET @users[?query=]` and `GET @users/<id>`.

use super::{load_user, require_self_or_manager};
use crate::app::SITE_TYPE;
use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::{principal_listing, principal_segment, user_json};
use poem::Response;
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
    routes: &[crate::service::Route::any(
        "List users (batched, ?query=) or read one (@users/<id>)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site = ctx.site_url();
    if let Some(id) = principal_segment(&ctx)? {
        require_self_or_manager(&ctx, &id)?;
        return Ok(json(&user_json(&site, &load_user(&ctx, &id).await?)));
    }
    ctx.check(Permission::MANAGE_USERS)?;
    Ok(json(&principal_listing(&ctx, "user", "@users", user_json).await?))
}
