//! `GET <any>/@@authenticator/token`: the caller's CSRF token as plain text.

use crate::http::{ApiError, ApiResult, Ctx};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// For scripts that authenticate with the cookie and must send the token in `X-CSRF-TOKEN`.
pub static AUTHENTICATOR: Service = Service {
    method: Method::GET,
    name: "@@authenticator",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    routes: &[crate::service::Route::any(
        "The caller's CSRF token (GET @@authenticator/token), for the X-CSRF-TOKEN header",
        crate::untyped!(|ctx| Box::pin(authenticator(ctx))),
    )],
};

async fn authenticator(ctx: Ctx) -> ApiResult<Response> {
    if ctx.subpath != ["token"] {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    Ok(Response::builder()
        .content_type("text/plain; charset=utf-8")
        .header("Cache-Control", "no-store")
        .body(ctx.app.security.csrf_token(&ctx.principal)))
}
