//! `GET <site>/login`.

use super::render_form;
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Html};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use poem::http::Method;

/// The form; `came_from` is where a successful login returns to.
pub static LOGIN_FORM: Service = Service {
    method: Method::GET,
    name: "login",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route {
        query: &[QueryParam::new("came_from", ParamKind::String, "The path on this server to return to after login")],
        ..Route::new("", "HTML login form for browser views", endpoint!(form))
    }],
};

async fn form(ctx: Ctx) -> ApiResult<Html<String>> {
    let came_from = ctx.request.query_value("came_from").unwrap_or_default();
    Ok(Html(render_form(&ctx, "", came_from, "")?))
}
