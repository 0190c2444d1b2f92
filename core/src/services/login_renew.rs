//! `POST @login-renew` → a fresh token for the authenticated caller.

use super::login::{AuthToken, TokenIssued};
use super::login_form::api_session_cookie;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json};
use crate::security::{Csrf, Permission, Principal};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Renews the caller's token before it expires, so clients need not keep the password.
pub static LOGIN_RENEW: Service = Service {
    method: Method::POST,
    name: "@login-renew",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route::new("", "Renew the caller's JWT", endpoint!(renew))],
};

async fn renew(ctx: Ctx) -> ApiResult<TokenIssued> {
    let Principal::User(user) = &ctx.principal else {
        return Err(ApiError::new(ErrorCode::Unauthorized, "Invalid or expired authentication token."));
    };
    let token = ctx.app.security.issue_token(user)?;
    let cookie = api_session_cookie(&ctx, &token);
    Ok(TokenIssued::Issued(Json(AuthToken { token }), cookie))
}
