//! `GET <obj>/hello_view`: a view name without `@`, as browser views have. A child object
//! with the same id wins over it, as traversal tries objects first.

use serde_json::json;
use wcs_core::http::json;
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Service};

/// The view.
pub static HELLO_VIEW: Service = Service {
    method: Method::GET,
    name: "hello_view",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "A plain-named view of the example plugin",
        wcs_core::untyped!(|ctx| Box::pin(async move {
            Ok(json(&json!({"view": "hello_view", "context": ctx.context.id})))
        })),
    )],
};
