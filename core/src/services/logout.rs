//! `POST @logout`.

use super::login_form::clear_cookie;
use crate::endpoint;
use crate::events::{USER_LOGGED_OUT, user_event};
use crate::http::{ApiResult, Ctx};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::ApiResponse;

/// Clears the browser cookie and ends every token of the caller: a new token generation makes
/// all tokens issued before it invalid (on other instances within the few seconds their
/// caches keep users).
pub static LOGOUT: Service = Service {
    method: Method::POST,
    name: "@logout",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route::new("", "Log out (clears the auth_token cookie)", endpoint!(logout))],
};

/// 204 that drops the session cookie.
#[derive(ApiResponse)]
pub enum LoggedOut {
    /// Logged out; `Set-Cookie` expires the `auth_token` cookie.
    #[oai(status = 204)]
    LoggedOut(#[oai(header = "Set-Cookie")] String),
}

async fn logout(ctx: Ctx) -> ApiResult<LoggedOut> {
    if let Some(user_id) = ctx.principal.user_id() {
        let mut tx = ctx.app.store.begin().await?;
        tx.renew_token_generation(user_id).await?;
        tx.emit(user_event(&USER_LOGGED_OUT, &ctx.app.site_root().await?.uid, user_id));
        tx.commit().await?;
        ctx.app.credentials_changed();
    }
    Ok(LoggedOut::LoggedOut(clear_cookie(&ctx)))
}
