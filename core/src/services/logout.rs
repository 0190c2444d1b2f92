//! `POST @logout`.

use super::login_form::clear_cookie;
use crate::endpoint;
use crate::http::{ApiResult, Ctx};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Route, Service};
use poem::http::Method;
use poem_openapi::ApiResponse;

/// Clears the browser cookie. Tokens are stateless and expire on their own.
pub static LOGOUT: Service = Service {
    method: Method::POST,
    name: "@logout",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
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

async fn logout(_: Ctx) -> ApiResult<LoggedOut> {
    Ok(LoggedOut::LoggedOut(clear_cookie()))
}
