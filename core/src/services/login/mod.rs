//! `@login`: the options a client may log in with (GET) and logging in with login and
//! password for a JWT (POST).

pub mod get;
pub mod post;

use crate::events::{EventKind, user_event};
use crate::http::{ApiResult, Ctx, Json};
use poem_openapi::{ApiResponse, Object};

/// Tells an event about a user on the site root, in a transaction of its own, so what reacts
/// to it (a content rule of "User logged in") queues durably. A login costs this one write.
pub async fn tell_user_event(ctx: &Ctx, kind: &'static EventKind, user_id: &str) -> ApiResult<()> {
    let root = ctx.app.site_root().await?;
    let mut tx = ctx.app.store.begin().await?;
    tx.emit(user_event(kind, &root.uid, user_id));
    tx.commit().await
}

/// A fresh authentication token, as `@login` and `@login-renew` answer.
#[derive(Object)]
pub struct AuthToken {
    /// The JWT, for `Authorization: Bearer`.
    pub token: String,
}

/// A token issued by `@login` or `@login-renew`, in the body and as the `auth_token` cookie.
/// @plone/client never sends the token itself: it relies on the cookie, as plone.restapi sets
/// it, so a client that logs in this way stays logged in.
#[derive(ApiResponse)]
pub enum TokenIssued {
    /// The token; `Set-Cookie` sets it as the `auth_token` cookie (SameSite=Lax, Secure when
    /// the site is reached over https; not HttpOnly, since Volto reads and rewrites it).
    #[oai(status = 200)]
    Issued(Json<AuthToken>, #[oai(header = "Set-Cookie")] String),
}
