//! `PATCH <obj>`.

use super::content_query::CONTENT_QUERY;
use super::content_write::patch;
use crate::endpoint;
use crate::http::shape_schema;
use crate::security::{Csrf, Permission};
use crate::serialize::ContentShape;
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Changes the fields sent; `{"id": …}` renames, `{"ordering": …}` reorders children.
pub static PATCH: Service = Service {
    method: Method::PATCH,
    name: "",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: CONTENT_QUERY,
        request: Some(shape_schema::<ContentShape>),
        ..Route::new(
            "",
            "Update fields (204, or 200 with Prefer: return=representation); rename; reorder children",
            endpoint!(patch),
        )
    }],
};
