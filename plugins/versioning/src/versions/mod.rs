//! `@versions`: list, read and compare (GET), create and restore (POST) and delete (DELETE)
//! versions by stable id; one method per file.
//!
//! Every handler first checks that the caller may see the object itself: a caller who holds
//! Access versions but not View on this object gets 404 for its versions, as if they did
//! not exist (SPEC Authentication rule 3).

pub mod delete;
pub mod get;
pub mod post;

use wcs_core::http::{ApiError, ApiResult, Ctx};
use wcs_core::security::Permission;

/// Versions of an object the caller may not see do not exist for them.
pub(crate) fn check_object_visible(ctx: &Ctx) -> ApiResult<()> {
    if ctx.allows(Permission::VIEW) { Ok(()) } else { Err(ApiError::not_found(&ctx.request.service_url)) }
}
