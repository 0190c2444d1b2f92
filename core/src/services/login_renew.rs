//! `POST @login-renew` → a fresh token for the authenticated caller.

use super::login::AuthToken;
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

async fn renew(ctx: Ctx) -> ApiResult<Json<AuthToken>> {
    let Principal::User(user) = &ctx.principal else {
        return Err(ApiError::new(ErrorCode::Unauthorized, "Invalid or expired authentication token."));
    };
    Ok(Json(AuthToken { token: ctx.app.security.issue_token(user)? }))
}
