//! The CSRF rule each service declares, applied before its handler runs: an unsafe request
//! that needs a token must carry the caller's, in `X-CSRF-TOKEN` or in a form's
//! `_authenticator` field as Plone's forms send it.

use super::{ApiError, ApiResult, Ctx, ErrorCode, parse_query};
use crate::security::{AuthMethod, Csrf};
use poem::http::Method;

/// Refuses an unsafe request without the caller's CSRF token when the service needs one.
pub(super) fn check_csrf(ctx: &Ctx, policy: Csrf) -> ApiResult<()> {
    let unsafe_method = !matches!(ctx.request.method, Method::GET | Method::HEAD | Method::OPTIONS);
    let needed = match policy {
        Csrf::Exempt => false,
        Csrf::Always => unsafe_method,
        Csrf::Cookie => {
            ctx.auth == AuthMethod::Cookie
                && crate::security::csrf::sent_without_preflight(
                    ctx.request.method.as_str(),
                    ctx.request.header("content-type"),
                )
        }
    };
    if !needed {
        return Ok(());
    }
    let token = match ctx.request.header("x-csrf-token") {
        Some(token) => token.to_owned(),
        None => form_authenticator(ctx).unwrap_or_default(),
    };
    if ctx.app.security.verify_csrf(&ctx.principal, &token) {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::Forbidden,
        "Missing or invalid CSRF token: send the X-CSRF-TOKEN header from @@authenticator/token.",
    ))
}

/// The `_authenticator` field of an HTML form post, which carries the CSRF token as in Plone.
fn form_authenticator(ctx: &Ctx) -> Option<String> {
    let form = ctx.request.header("content-type")?.starts_with("application/x-www-form-urlencoded");
    if !form {
        return None;
    }
    let fields = parse_query(&String::from_utf8_lossy(&ctx.body));
    fields.into_iter().find(|(k, _)| k == "_authenticator").map(|(_, v)| v)
}
