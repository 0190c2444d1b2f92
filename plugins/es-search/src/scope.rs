//! What every engine query is limited to: the request's search scope, core's one rule of what
//! a caller may find (the context's subtree, the caller's `allowed` tokens and, for callers who
//! may not see inactive content, the publication window), as engine filters.

use crate::engine::Filters;
use wcs_core::catalog::Scope;
use wcs_core::http::Ctx;

/// The filters of `scope`.
pub fn filters_within(scope: &Scope) -> Filters {
    Filters {
        subtrees: vec![scope.context_path.clone()],
        allowed: scope.visibility.tokens.clone(),
        active_at: scope.visibility.active_at.map(|at| at.timestamp()),
        ..Filters::default()
    }
}

/// The filters of a search below the request's context by its caller.
pub fn caller_filters(ctx: &Ctx) -> Filters {
    filters_within(&ctx.search_scope(&ctx.context.path))
}
