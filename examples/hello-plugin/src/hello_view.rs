//! `GET <obj>/hello_view`: a view name without `@`, as browser views have. A child object
//! with the same id wins over it, as traversal tries objects first.

use poem_openapi::Object;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Json};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The view.
pub static HELLO_VIEW: Service = Service {
    method: Method::GET,
    name: "hello_view",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "A plain-named view of the example plugin", endpoint!(view))],
};

/// What the view shows: which view answered, on what.
#[derive(Object)]
struct HelloView {
    /// `hello_view`.
    view: String,
    /// The id of the object it was called on.
    context: String,
}

async fn view(ctx: Ctx) -> ApiResult<Json<HelloView>> {
    Ok(Json(HelloView { view: "hello_view".to_owned(), context: ctx.context.id.clone() }))
}
