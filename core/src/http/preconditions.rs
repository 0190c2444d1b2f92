//! Optimistic concurrency for content: a content GET's `ETag` names the object's state, and
//! `If-Match` on a PATCH, PUT or DELETE makes the write conditional on that state still
//! being the current one (412 otherwise), so two editors cannot overwrite each other unseen.
//!
//! The tag is weak (`W/"<state>.<body hash>"`): the body hash keeps `If-None-Match` exact for
//! each caller and representation, and `If-Match` compares the state part only. RFC 9110
//! asks for strong comparison there; a weak tag would never match, and no representation of
//! ours is byte-stable across encodings, so the state part is what is compared.

use super::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::content::ContentObject;

/// The state of the object a response shows, for its `ETag`.
#[derive(Clone, Debug)]
pub struct Revision(pub String);

/// An object's state: its last modification, to the microsecond (every write moves it on).
pub fn revision_of(object: &ContentObject) -> Revision {
    Revision(format!("{:x}", object.modified.timestamp_micros()))
}

/// Refuses the write when `If-Match` names neither `*` nor the object's current state.
pub fn check_if_match(ctx: &Ctx) -> ApiResult<()> {
    let Some(header) = ctx.request.header("if-match") else { return Ok(()) };
    let current = revision_of(&ctx.context).0;
    let matches = header.split(',').map(str::trim).any(|tag| {
        let bare = tag.trim_start_matches("W/").trim_matches('"');
        tag == "*" || bare.split('.').next() == Some(current.as_str())
    });
    if matches {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::PreconditionFailed,
        "The object changed since the state named in If-Match; read it again and reapply the change.",
    ))
}
