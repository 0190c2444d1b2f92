//! What every engine query of a request is limited to: the caller's `allowed` tokens, the
//! context's subtree and, for callers who may not see inactive content, the publication window.

use crate::engine::Filters;
use wcs_core::http::Ctx;

/// The filters of the request's caller and context.
pub fn caller_filters(ctx: &Ctx) -> Filters {
    let visibility = ctx.listing_visibility();
    Filters {
        subtrees: vec![ctx.context.path.clone()],
        allowed: visibility.tokens,
        active_at: visibility.active_at.map(|at| at.timestamp()),
        ..Filters::default()
    }
}
