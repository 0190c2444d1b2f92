//! Where a refused browser goes: to the login form, and back afterwards.

use super::{ApiError, ApiResult, Ctx};
use poem::Response;
use poem::http::{Method, StatusCode};

/// What `came_from` escapes: everything but a readable path.
const CAME_FROM: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'/').remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// A browser (not the API) that is not logged in and navigates (`Accept: text/html`) to a
/// page it may not see is sent to the login form, which brings it back afterwards; everyone
/// else (images, scripts, API clients) gets the error.
pub(super) fn login_or(ctx: &Ctx, denied: ApiError) -> ApiResult<Response> {
    let wants_page = ctx.request.header("accept").is_some_and(|accept| accept.contains("text/html"));
    let anonymous_browser =
        wants_page && !ctx.request.api && ctx.request.method == Method::GET && ctx.principal.user_id().is_none();
    if !anonymous_browser {
        return Err(denied);
    }
    let site = ctx.context.site_id();
    let mut came_from = ctx.request.service_url.strip_prefix(&ctx.request.base_url).unwrap_or_default().to_owned();
    if !ctx.request.raw_query.is_empty() {
        came_from.push('?');
        came_from.push_str(&ctx.request.raw_query);
    }
    let location = format!("/{site}/login?came_from={}", percent_encoding::utf8_percent_encode(&came_from, CAME_FROM));
    Ok(Response::builder().status(StatusCode::FOUND).header("Location", location).finish())
}
