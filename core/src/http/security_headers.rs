//! Headers every answer carries so a browser treats it as what it is. Pages rendered here
//! (the object view, the version views, the login form) hold editors' rich text, which is
//! sanitised, and no script of ours: their policy allows no script at all, so markup that got
//! past the sanitiser still runs nothing. JSON is data, never a page. Files keep the headers
//! their own answer sets (images add a sandbox for SVG).

use poem::Response;
use poem::http::HeaderValue;
use poem::http::header::{CONTENT_SECURITY_POLICY, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};

/// Pages: styles inline (the templates have them), images and frames as rich text embeds
/// them, forms only to this server, nothing else.
const PAGE_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https: http:; \
                           media-src 'self' https:; frame-src https: http:; form-action 'self'; base-uri 'none'; \
                           frame-ancestors 'self'";

/// JSON and error bodies: nothing may load, and no page may frame them.
const DATA_POLICY: &str = "default-src 'none'; frame-ancestors 'none'; sandbox";

/// Adds `X-Content-Type-Options` and a `Content-Security-Policy` fitting the body, where the
/// answer has none of its own.
pub fn decorate(response: &mut Response) {
    let media = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let policy = if media.starts_with("text/html") {
        Some(PAGE_POLICY)
    } else if media.starts_with("application/json") || media.contains("+json") {
        Some(DATA_POLICY)
    } else {
        None
    };
    let headers = response.headers_mut();
    if let Some(policy) = policy
        && !headers.contains_key(CONTENT_SECURITY_POLICY)
    {
        headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(policy));
    }
    headers.entry(X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
}
