//! What every engine query of a request is limited to: the caller's `allowed` tokens, the
//! context's subtree and, for callers who may not see inactive content, the publication window.

use crate::engine::Filters;
use wcs_core::http::Ctx;
use wcs_core::security::{Permission, Visibility};

/// The filters of the request's caller and context.
pub fn caller_filters(ctx: &Ctx) -> Filters {
    Filters {
        subtrees: vec![ctx.context.path.clone()],
        allowed: match ctx.visibility() {
            Visibility::All => None,
            Visibility::Tokens(tokens) => Some(tokens),
        },
        active_at: (!ctx.allows(Permission::ACCESS_INACTIVE_CONTENT)).then(|| chrono::Utc::now().timestamp()),
        ..Filters::default()
    }
}
