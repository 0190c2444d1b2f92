//! `PATCH <obj>`.

use super::content_write::write;
use crate::content::values::Mode;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::http::Method;

/// Changes the fields sent; `{"id": …}` renames, `{"ordering": …}` reorders children.
pub static PATCH: Service = Service {
    method: Method::PATCH,
    name: "",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Update fields (204, or 200 with Prefer: return=representation); rename; reorder children",
        crate::untyped!(|ctx| Box::pin(write(ctx, Mode::Patch))),
    )],
};
