//! `GET <site>/login`.

use super::render_form;
use crate::app::SITE_TYPE;
use crate::http::{ApiResult, Ctx};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};

/// The form; `came_from` is where a successful login returns to.
pub static LOGIN_FORM: Service = Service {
    method: Method::GET,
    name: "login",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    routes: &[crate::service::Route::any(
        "HTML login form for browser views",
        crate::untyped!(|ctx| Box::pin(form(ctx))),
    )],
};

async fn form(ctx: Ctx) -> ApiResult<Response> {
    let came_from = ctx.request.query_value("came_from").unwrap_or_default().to_owned();
    render_form(&ctx, StatusCode::OK, "", &came_from, "")
}
