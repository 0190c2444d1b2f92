//! What the server edge says about resumable uploads (the TUS protocol, `@tus-upload` and
//! `@tus-replace`): the protocol version, the extensions, the largest upload, and the headers
//! browsers may send and read across origins. The services themselves are in
//! `services::tus`; an `OPTIONS` request is answered here, before traversal, like every
//! preflight.

use poem::http::{HeaderMap, HeaderValue};

/// The protocol version spoken (and required in `Tus-Resumable`).
pub const TUS_VERSION: &str = "1.0.0";
/// The protocol extensions supported: plone.restapi's.
pub const TUS_EXTENSIONS: &str = "creation,expiration";
/// The largest file an upload may announce: below what one SQLite or PostgreSQL value holds.
pub const MAX_UPLOAD_BYTES: u64 = 512 * 1024 * 1024;

/// Whether `path` names an upload endpoint (whose `OPTIONS` answer advertises the protocol).
pub fn is_endpoint(path: &str) -> bool {
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
    matches!(last, "@tus-upload" | "@tus-replace")
}

/// Adds the protocol's discovery headers to an `OPTIONS` answer.
pub fn advertise(headers: &mut HeaderMap) {
    headers.insert("tus-resumable", HeaderValue::from_static(TUS_VERSION));
    headers.insert("tus-version", HeaderValue::from_static(TUS_VERSION));
    headers.insert("tus-extension", HeaderValue::from_static(TUS_EXTENSIONS));
    headers.insert("tus-max-size", HeaderValue::from(MAX_UPLOAD_BYTES));
}

#[cfg(test)]
mod tests {
    use super::is_endpoint;

    #[test]
    fn only_the_upload_endpoints_advertise() {
        assert!(is_endpoint("/Plone/folder/@tus-upload"));
        assert!(is_endpoint("/Plone/++api++/file/@tus-replace/"));
        assert!(!is_endpoint("/Plone/folder/@tus-upload/0123"));
        assert!(!is_endpoint("/Plone/folder"));
    }
}
