//! CSRF tokens: an HMAC of a server secret and the user id, so a token only works for the
//! user it was minted for and needs no server-side storage.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Which requests of a service must carry a token (in `X-CSRF-TOKEN`). Safe methods never do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Csrf {
    /// Unsafe requests authenticated by cookie that a foreign page can make a browser send
    /// without asking first: a POST with a form's media type, `text/plain` or none. Anything
    /// else (JSON, PATCH, PUT, DELETE) needs a CORS preflight, which this server answers only
    /// for its configured origins, so as in plone.restapi JSON writes need no token. Basic and
    /// Bearer credentials cannot be sent by a foreign site at all.
    Cookie,
    /// Every unsafe request, whatever the authentication (the versioning writes).
    Always,
    /// Never (e.g. `@submit`, `@workflow-set-state`, login).
    Exempt,
}

/// Whether a browser sends a request of this method and media type cross-site without a CORS
/// preflight (a "simple request" of the Fetch standard: what an HTML form or `sendBeacon` can
/// send).
pub fn sent_without_preflight(method: &str, content_type: Option<&str>) -> bool {
    if method != "POST" {
        return false;
    }
    let Some(content_type) = content_type else {
        return true;
    };
    let media_type = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    matches!(media_type.as_str(), "application/x-www-form-urlencoded" | "multipart/form-data" | "text/plain" | "")
}

/// The token for `user_id` (`Anonymous` for anonymous callers).
pub fn token(secret: &[u8], user_id: &str) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return String::new();
    };
    mac.update(b"csrf:");
    mac.update(user_id.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// Whether `candidate` is the token of `user_id`, compared in constant time.
pub fn verify(secret: &[u8], user_id: &str, candidate: &str) -> bool {
    let Ok(candidate) = hex::decode(candidate.trim()) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return false;
    };
    mac.update(b"csrf:");
    mac.update(user_id.as_bytes());
    mac.verify_slice(&candidate).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_a_form_can_send_goes_without_preflight() {
        assert!(sent_without_preflight("POST", None));
        assert!(sent_without_preflight("POST", Some("application/x-www-form-urlencoded")));
        assert!(sent_without_preflight("POST", Some("Multipart/Form-Data; boundary=x")));
        assert!(sent_without_preflight("POST", Some("text/plain;charset=UTF-8")));
        assert!(!sent_without_preflight("POST", Some("application/json")));
        assert!(!sent_without_preflight("PATCH", Some("text/plain")));
        assert!(!sent_without_preflight("DELETE", None));
    }

    #[test]
    fn tokens_are_bound_to_the_user() {
        let t = token(b"secret", "anna");
        assert!(verify(b"secret", "anna", &t));
        assert!(!verify(b"secret", "bob", &t));
        assert!(!verify(b"other", "anna", &t));
        assert!(!verify(b"secret", "anna", "zz"));
    }
}
