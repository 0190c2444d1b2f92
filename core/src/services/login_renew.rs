//! `POST @login-renew` → a fresh token for the authenticated caller.

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::security::{Csrf, Permission, Principal};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::json;

/// Renews the caller's token before it expires, so clients need not keep the password.
pub static LOGIN_RENEW: Service = Service {
    method: Method::POST,
    name: "@login-renew",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    routes: &[crate::service::Route::any("Renew the caller's JWT", crate::untyped!(|ctx| Box::pin(renew(ctx))))],
};

async fn renew(ctx: Ctx) -> ApiResult<Response> {
    let Principal::User(user) = &ctx.principal else {
        return Err(ApiError::new(ErrorCode::Unauthorized, "Invalid or expired authentication token."));
    };
    Ok(json(&json!({"token": ctx.app.security.issue_token(user)?})))
}
