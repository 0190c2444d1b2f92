//! `PUT <obj>`.

use super::content_query::CONTENT_QUERY;
use super::content_write::put;
use crate::endpoint;
use crate::http::shape_schema;
use crate::security::{Csrf, Permission};
use crate::serialize::ContentShape;
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Replaces every field: those not sent return to their defaults.
pub static PUT: Service = Service {
    method: Method::PUT,
    name: "",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: CONTENT_QUERY,
        request: Some(shape_schema::<ContentShape>),
        ..Route::new("", "Replace all fields (fields not sent are reset to their defaults)", endpoint!(put))
    }],
};
