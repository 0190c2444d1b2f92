//! `GET @login`.

use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::Value;

/// External login options; none are configured, so clients offer only the password form.
pub static LOGIN_OPTIONS: Service = Service {
    method: Method::GET,
    name: "@login",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route::new("", "External login options (none are configured)", endpoint!(options))],
};

/// The ways to log in besides login and password.
#[derive(Object)]
pub struct LoginOptions {
    /// External providers; always empty, as none are configured.
    pub options: Vec<Value>,
}

async fn options(_: Ctx) -> ApiResult<Json<LoginOptions>> {
    Ok(Json(LoginOptions { options: Vec::new() }))
}
