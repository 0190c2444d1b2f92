//! `GET <any>/@@authenticator/token`: the caller's CSRF token as plain text.

use crate::endpoint;
use crate::http::{ApiResult, Ctx};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::ApiResponse;
use poem_openapi::payload::PlainText;

/// For scripts that authenticate with the cookie and must send the token in `X-CSRF-TOKEN`.
pub static AUTHENTICATOR: Service = Service {
    method: Method::GET,
    name: "@@authenticator",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route::new("token", "The caller's CSRF token, for the X-CSRF-TOKEN header", endpoint!(token))],
};

/// The token as plain text, never cached: it belongs to the caller.
#[derive(ApiResponse)]
pub enum CsrfToken {
    /// The token; `Cache-Control: no-store`.
    #[oai(status = 200)]
    Token(PlainText<String>, #[oai(header = "Cache-Control")] String),
}

async fn token(ctx: Ctx) -> ApiResult<CsrfToken> {
    Ok(CsrfToken::Token(PlainText(ctx.app.security.csrf_token(&ctx.principal)), "no-store".to_owned()))
}
