//! `POST @login {login, password}` → `{token}`.

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// Logs in; CSRF-exempt because the caller has no token before it is logged in.
pub static LOGIN: Service = Service {
    method: Method::POST,
    name: "@login",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    routes: &[crate::service::Route::any(
        "Log in with login and password; returns a JWT",
        crate::untyped!(|ctx| Box::pin(login(ctx))),
    )],
};

fn wrong_credentials() -> ApiError {
    ApiError::new(ErrorCode::Unauthorized, "Wrong login and/or password.")
        .with_envelope("Invalid credentials")
        .with_header("WWW-Authenticate", "Basic realm=\"wcs\"")
}

async fn login(ctx: Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let (Some(Value::String(login)), Some(Value::String(password))) = (body.get("login"), body.get("password")) else {
        return Err(ApiError::new(ErrorCode::MissingProperty, "Login and password must be provided in body.")
            .with_envelope("Missing credentials"));
    };
    let user = ctx.app.security.login(&ctx.app.store, login, password).await?.ok_or_else(wrong_credentials)?;
    Ok(json(&json!({"token": ctx.app.security.issue_token(&user)?})))
}
