//! Bounds on what a request may make the server read, checked before anything else runs, so
//! an oversized request gets the catalogue's JSON error rather than the HTTP library's empty
//! one (whose own, larger limits stay behind these as a last resort).

use super::{ApiError, ApiResult, ErrorCode};
use poem::Request;
use std::time::Duration;

/// The longest URL (path and query) read.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// The most header fields read (the HTTP library refuses beyond 100 on its own).
pub const MAX_HEADERS: usize = 64;
/// The most bytes of header names and values read.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// How long a connection and a request body may keep the server waiting.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// A connection on which nothing moves for this long is closed: an idle keep-alive
    /// connection, headers or a body stopped midway.
    pub idle: Duration,
    /// A request body must have arrived in full within this time, however it trickles.
    pub body: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts { idle: Duration::from_secs(20), body: Duration::from_secs(60) }
    }
}

/// The error for a request beyond the bounds, if it is.
pub fn check(request: &Request) -> Option<ApiError> {
    let uri = request.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if uri > MAX_URI_BYTES {
        let message = format!("The URL is {uri} bytes long; at most {MAX_URI_BYTES} are read.");
        return Some(ApiError::new(ErrorCode::UriTooLong, message));
    }
    let headers = request.headers();
    let bytes: usize = headers.iter().map(|(name, value)| name.as_str().len() + value.len()).sum();
    if headers.len() > MAX_HEADERS || bytes > MAX_HEADER_BYTES {
        let message = format!(
            "The request has {} header fields of {bytes} bytes; at most {MAX_HEADERS} fields and {MAX_HEADER_BYTES} bytes are read.",
            headers.len()
        );
        return Some(ApiError::new(ErrorCode::HeaderFieldsTooLarge, message));
    }
    None
}

/// The body, at most `limit` bytes, arrived in full within `timeout`.
pub async fn read_body(req: &mut Request, limit: usize, timeout: std::time::Duration) -> ApiResult<Vec<u8>> {
    let declared =
        req.headers().get("content-length").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|len| len > limit) {
        return Err(too_large(limit));
    }
    let read = tokio::time::timeout(timeout, req.take_body().into_bytes_limit(limit)).await;
    let Ok(read) = read else {
        let message = format!("The request body did not arrive within {} seconds.", timeout.as_secs());
        return Err(ApiError::new(ErrorCode::RequestTimeout, message));
    };
    match read {
        Ok(bytes) => Ok(bytes.to_vec()),
        Err(poem::error::ReadBodyError::PayloadTooLarge) => Err(too_large(limit)),
        Err(e) => Err(ApiError::new(ErrorCode::BadRequest, format!("The request body could not be read: {e}"))),
    }
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(ErrorCode::PayloadTooLarge, format!("The request body is larger than {limit} bytes."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_urls_and_many_headers_are_refused_with_their_codes() {
        let long = Request::builder().uri_str(format!("/Plone?q={}", "x".repeat(MAX_URI_BYTES))).finish();
        assert_eq!(check(&long).map(|e| e.code), Some(ErrorCode::UriTooLong));
        let mut many = Request::builder().uri_str("/Plone");
        for n in 0..=MAX_HEADERS {
            many = many.header(format!("x-h{n}"), "1");
        }
        assert_eq!(check(&many.finish()).map(|e| e.code), Some(ErrorCode::HeaderFieldsTooLarge));
        let large = Request::builder().uri_str("/Plone").header("cookie", "c".repeat(MAX_HEADER_BYTES)).finish();
        assert_eq!(check(&large).map(|e| e.code), Some(ErrorCode::HeaderFieldsTooLarge));
        assert!(check(&Request::builder().uri_str("/Plone/a?b=1").header("accept", "x").finish()).is_none());
    }
}
