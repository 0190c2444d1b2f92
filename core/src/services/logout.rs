//! `POST @logout`.

use super::login_form::clear_cookie;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};

/// Clears the browser cookie. Tokens are stateless and expire on their own.
pub static LOGOUT: Service = Service {
    method: Method::POST,
    name: "@logout",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    routes: &[crate::service::Route::any(
        "Log out (clears the auth_token cookie)",
        crate::untyped!(|_| {
            Box::pin(async {
                Ok(Response::builder().status(StatusCode::NO_CONTENT).header("Set-Cookie", clear_cookie()).finish())
            })
        }),
    )],
};
