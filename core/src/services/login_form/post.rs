//! `POST <site>/login`.

use super::{render_form, safe_return, session_cookie};
use crate::app::SITE_TYPE;
use crate::http::{ApiResult, Ctx, parse_query};
use crate::security::{Csrf, Permission, User};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};

/// Checks the form and sets the `auth_token` cookie; a wrong password shows the form again.
pub static LOGIN_FORM_POST: Service = Service {
    method: Method::POST,
    name: "login",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    routes: &[crate::service::Route::any(
        "Submit the HTML login form (form-encoded login, password, came_from)",
        crate::untyped!(|ctx| Box::pin(form_post(ctx))),
    )],
};

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
