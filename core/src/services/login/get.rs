//! `GET @login`.

use crate::http::json;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::http::Method;
use serde_json::json;

/// External login options; none are configured, so clients offer only the password form.
pub static LOGIN_OPTIONS: Service = Service {
    method: Method::GET,
    name: "@login",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Exempt,
    routes: &[crate::service::Route::any(
        "External login options (none are configured)",
        crate::untyped!(|_| Box::pin(async { Ok(json(&json!({"options": []}))) })),
    )],
};
