//! `POST <site>/login`.

use super::{render_form, safe_return, session_cookie};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::events::USER_LOGGED_IN;
use crate::http::{ApiResult, Ctx, Html, parse_query};
use crate::security::{Csrf, Permission, User};
use crate::service::{ContentKind, FORM, Guard, Route, Service};
use crate::services::login::tell_user_event;
use poem::http::Method;
use poem_openapi::ApiResponse;

/// Checks the form and sets the `auth_token` cookie; a wrong password shows the form again.
pub static LOGIN_FORM_POST: Service = Service {
    method: Method::POST,
    name: "login",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route {
        other_media: &[FORM],
        ..Route::new("", "Submit the HTML login form (form-encoded login, password, came_from)", endpoint!(form_post))
    }],
};

/// What submitting the form leads to.
#[derive(ApiResponse)]
pub enum LoginFormReply {
    /// Logged in: `Set-Cookie` sets the session cookie and the browser goes on to `Location`
    /// (`came_from` when it is a path on this server, else the site).
    #[oai(status = 303)]
    LoggedIn(#[oai(header = "Location")] String, #[oai(header = "Set-Cookie")] String),
    /// Wrong login name or password: the form again, saying so.
    #[oai(status = 401)]
    Refused(Html<String>),
}

async fn form_post(ctx: Ctx) -> ApiResult<LoginFormReply> {
    let fields = parse_query(&String::from_utf8_lossy(&ctx.body));
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or_default();
    let (login, password, came_from) = (field("login"), field("password"), field("came_from"));
    let user: Option<User> = if login.is_empty() {
        None
    } else {
        ctx.app.security.login(&ctx.app.store, login, password, ctx.request.client).await?
    };
    let Some(user) = user else {
        let form = render_form(&ctx, login, came_from, "Wrong login name or password.")?;
        return Ok(LoginFormReply::Refused(Html(form)));
    };
    tell_user_event(&ctx, &USER_LOGGED_IN, &user.id).await?;
    let token = ctx.app.security.issue_token(&user)?;
    let target = safe_return(came_from, &format!("/{}", ctx.context.id));
    Ok(LoginFormReply::LoggedIn(target, session_cookie(&ctx, &token)))
}
