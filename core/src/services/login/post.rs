//! `POST @login {login, password}` → `{token}`.

use super::{AuthToken, TokenIssued, tell_user_event};
use crate::endpoint;
use crate::events::USER_LOGGED_IN;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::login_form::api_session_cookie;
use poem::http::Method;
use poem_openapi::Object;
use serde_json::Value;

/// Logs in; CSRF-exempt because the caller has no token before it is logged in.
pub static LOGIN: Service = Service {
    method: Method::POST,
    name: "@login",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route {
        request: Some(body_schema::<Credentials>),
        ..Route::new("", "Log in with login and password; returns a JWT", endpoint!(login))
    }],
};

/// What a client logs in with.
#[derive(Object)]
pub struct Credentials {
    /// The login name.
    pub login: String,
    /// The password.
    pub password: String,
}

fn wrong_credentials() -> ApiError {
    ApiError::new(ErrorCode::Unauthorized, "Wrong login and/or password.")
        .with_envelope("Invalid credentials")
        .with_header("WWW-Authenticate", "Basic realm=\"wcs\"")
}

async fn login(ctx: Ctx) -> ApiResult<TokenIssued> {
    let body = ctx.json_body()?;
    let (Some(Value::String(login)), Some(Value::String(password))) = (body.get("login"), body.get("password")) else {
        return Err(ApiError::new(ErrorCode::MissingProperty, "Login and password must be provided in body.")
            .with_envelope("Missing credentials"));
    };
    let user = ctx
        .app
        .security
        .login(&ctx.app.store, login, password, ctx.request.client)
        .await?
        .ok_or_else(wrong_credentials)?;
    tell_user_event(&ctx, &USER_LOGGED_IN, &user.id).await?;
    let token = ctx.app.security.issue_token(&user)?;
    let cookie = api_session_cookie(&ctx, &token);
    Ok(TokenIssued::Issued(Json(AuthToken { token }), cookie))
}
