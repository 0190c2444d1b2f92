//! The media type a request body must be sent as. A route that takes JSON takes only JSON
//! (`application/json`, or an `application/…+json` type); the form posts and uploads a route
//! declares besides are taken as well; anything else is 415. Besides clearer errors, this
//! closes a cross-site hole: a foreign page can post `text/plain` with a browser's cached
//! Basic credentials, but cannot send `application/json` without the browser asking this server
//! first (CORS), which it refuses for foreign origins.

use super::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::service::Route;

/// Refuses a body of a media type `route` does not take. Requests without a body, and routes
/// that declare none (they read nothing), pass.
pub fn check_body_media(ctx: &Ctx, route: &Route) -> ApiResult<()> {
    if ctx.body.iter().all(u8::is_ascii_whitespace) || (route.request.is_none() && route.other_media.is_empty()) {
        return Ok(());
    }
    let sent = ctx.request.header("content-type").unwrap_or_default();
    let media = sent.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let json = media == "application/json" || (media.starts_with("application/") && media.ends_with("+json"));
    if (json && route.request.is_some()) || route.other_media.iter().any(|m| m.eq_ignore_ascii_case(&media)) {
        return Ok(());
    }
    let taken: Vec<&str> =
        route.request.map(|_| "application/json").into_iter().chain(route.other_media.iter().copied()).collect();
    let sent = if media.is_empty() { "without a Content-Type".to_owned() } else { format!("as '{media}'") };
    Err(ApiError::new(
        ErrorCode::UnsupportedMediaType,
        format!("The body was sent {sent}; this request takes {}.", taken.join(" or ")),
    ))
}
