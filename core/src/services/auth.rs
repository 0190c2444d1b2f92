//! Logging in and out: `@login` (JWT), `@login-renew`, `@logout`, the CSRF token at
//! `@@authenticator/token`, and the HTML login form at `<site>/login` for browser views.

use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json, parse_query};
use crate::security::{AUTH_COOKIE, Csrf, Permission, Principal, TOKEN_LIFETIME_SECS, User};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::{Value, json};

/// `POST @login {login, password}` → `{token}`.
pub static LOGIN: Service = Service {
    method: Method::POST,
    name: "@login",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    summary: "Log in with login and password; returns a JWT",
    request_schema: Some(super::schemas::login_request),
    response_schema: Some(super::schemas::token),
    handler: |ctx| Box::pin(login(ctx)),
};

/// `GET @login` → external login options (none).
pub static LOGIN_OPTIONS: Service = Service {
    method: Method::GET,
    name: "@login",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    summary: "External login options (none are configured)",
    request_schema: None,
    response_schema: None,
    handler: |_| Box::pin(async { Ok(json(&json!({"options": []}))) }),
};

/// `POST @login-renew` → a fresh token for the authenticated caller.
pub static LOGIN_RENEW: Service = Service {
    method: Method::POST,
    name: "@login-renew",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    summary: "Renew the caller's JWT",
    request_schema: None,
    response_schema: Some(super::schemas::token),
    handler: |ctx| Box::pin(renew(ctx)),
};

/// `POST @logout`: clears the browser cookie. Tokens are stateless and expire on their own.
pub static LOGOUT: Service = Service {
    method: Method::POST,
    name: "@logout",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    summary: "Log out (clears the auth_token cookie)",
    request_schema: None,
    response_schema: None,
    handler: |_| {
        Box::pin(async {
            Ok(Response::builder().status(StatusCode::NO_CONTENT).header("Set-Cookie", clear_cookie()).finish())
        })
    },
};

/// `GET <any>/@@authenticator/token`: the caller's CSRF token as plain text.
pub static AUTHENTICATOR: Service = Service {
    method: Method::GET,
    name: "@@authenticator",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    summary: "The caller's CSRF token (GET @@authenticator/token), for the X-CSRF-TOKEN header",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(authenticator(ctx)),
};

/// `GET <site>/login`: the login form.
pub static LOGIN_FORM: Service = Service {
    method: Method::GET,
    name: "login",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    summary: "HTML login form for browser views",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(form(ctx)),
};

/// `POST <site>/login`: checks the form and sets the `auth_token` cookie.
pub static LOGIN_FORM_POST: Service = Service {
    method: Method::POST,
    name: "login",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    summary: "Submit the HTML login form (form-encoded login, password, came_from)",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(form_post(ctx)),
};

fn wrong_credentials() -> ApiError {
    ApiError::new(ErrorCode::Unauthorized, "Wrong login and/or password.")
        .with_header("WWW-Authenticate", "Basic realm=\"wcs\"")
}

async fn login(ctx: Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let (Some(Value::String(login)), Some(Value::String(password))) = (body.get("login"), body.get("password")) else {
        return Err(ApiError::new(ErrorCode::MissingProperty, "Login and password must be provided in body."));
    };
    let user = ctx.app.security.login(&ctx.app.store, login, password).await?.ok_or_else(wrong_credentials)?;
    Ok(json(&json!({"token": ctx.app.security.issue_token(&user)?})))
}

async fn renew(ctx: Ctx) -> ApiResult<Response> {
    let Principal::User(user) = &ctx.principal else {
        return Err(ApiError::new(ErrorCode::Unauthorized, "Invalid or expired authentication token."));
    };
    Ok(json(&json!({"token": ctx.app.security.issue_token(user)?})))
}

async fn authenticator(ctx: Ctx) -> ApiResult<Response> {
    if ctx.subpath != ["token"] {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    Ok(Response::builder()
        .content_type("text/plain; charset=utf-8")
        .header("Cache-Control", "no-store")
        .body(ctx.app.security.csrf_token(&ctx.principal)))
}

fn session_cookie(token: &str) -> String {
    format!("{AUTH_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={TOKEN_LIFETIME_SECS}")
}

fn clear_cookie() -> String {
    format!("{AUTH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// Only paths on this server are followed after login, never another site.
fn safe_return(came_from: &str, fallback: &str) -> String {
    let path = came_from.trim();
    if path.starts_with('/') && !path.starts_with("//") && !path.contains(['\\', '\r', '\n']) {
        path.to_owned()
    } else {
        fallback.to_owned()
    }
}

async fn form(ctx: Ctx) -> ApiResult<Response> {
    let came_from = ctx.request.query_value("came_from").unwrap_or_default().to_owned();
    render_form(&ctx, StatusCode::OK, "", &came_from, "")
}

fn render_form(ctx: &Ctx, status: StatusCode, login: &str, came_from: &str, error: &str) -> ApiResult<Response> {
    let context = json!({
        "lang": "en",
        "site_title": ctx.context.title,
        "action": format!("/{}/login", ctx.context.id),
        "came_from": came_from,
        "login": login,
        "error": error,
    });
    let html = ctx.app.templates.render("login.html", &context).map_err(ApiError::internal)?;
    Ok(Response::builder().status(status).content_type("text/html; charset=utf-8").body(html))
}

async fn form_post(ctx: Ctx) -> ApiResult<Response> {
    let fields = parse_query(&String::from_utf8_lossy(&ctx.body));
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or_default();
    let (login, password, came_from) = (field("login"), field("password"), field("came_from"));
    let user: Option<User> =
        if login.is_empty() { None } else { ctx.app.security.login(&ctx.app.store, login, password).await? };
    let Some(user) = user else {
        return render_form(&ctx, StatusCode::UNAUTHORIZED, login, came_from, "Wrong login name or password.");
    };
    let token = ctx.app.security.issue_token(&user)?;
    let target = safe_return(came_from, &format!("/{}", ctx.context.id));
    Ok(Response::builder()
        .status(StatusCode::SEE_OTHER)
        .header("Location", target)
        .header("Set-Cookie", session_cookie(&token))
        .finish())
}

#[cfg(test)]
mod tests {
    use super::safe_return;

    #[test]
    fn only_local_paths_are_followed() {
        assert_eq!(safe_return("/Plone/doc", "/Plone"), "/Plone/doc");
        assert_eq!(safe_return("//evil.example/x", "/Plone"), "/Plone");
        assert_eq!(safe_return("https://evil.example", "/Plone"), "/Plone");
        assert_eq!(safe_return("/\\evil", "/Plone"), "/Plone");
    }
}
