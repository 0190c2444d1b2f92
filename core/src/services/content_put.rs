//! `PUT <obj>`.

use super::content_write::write;
use crate::content::values::Mode;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::http::Method;

/// Replaces every field: those not sent return to their defaults.
pub static PUT: Service = Service {
    method: Method::PUT,
    name: "",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Replace all fields (fields not sent are reset to their defaults)",
        crate::untyped!(|ctx| Box::pin(write(ctx, Mode::Replace))),
    )],
};
