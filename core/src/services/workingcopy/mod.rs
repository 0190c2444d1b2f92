//! `@workingcopy` (plone.app.iterate): check out (POST), show (GET), check in (PATCH) and
//! cancel (DELETE) working copies, one method per file. Improvement over upstream: `POST`
//! answers with `Location` set to the working copy (upstream sends the baseline's URL there),
//! and conflicts are 409 `locked` rather than 403.

pub mod delete;
pub mod get;
pub mod patch;
pub mod post;

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::ops::working_copy::{WorkingCopyPair, pair_of};

/// The pair `ctx` must act on, or 404 when nothing is checked out.
async fn checked_out(ctx: &Ctx) -> ApiResult<WorkingCopyPair> {
    pair_of(&ctx.app, &ctx.context)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, "This object is not checked out."))
}
