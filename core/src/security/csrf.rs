//! CSRF tokens: an HMAC of a server secret and the user id, so a token only works for the
//! user it was minted for and needs no server-side storage.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Which requests of a service must carry a token (in `X-CSRF-TOKEN`). Safe methods never do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Csrf {
    /// Unsafe requests authenticated by cookie; Basic and Bearer credentials cannot be sent
    /// by a foreign site, so they need none.
    Cookie,
    /// Every unsafe request, whatever the authentication (the versioning writes).
    Always,
    /// Never (e.g. `@submit`, `@workflow-set-state`, login).
    Exempt,
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
    fn tokens_are_bound_to_the_user() {
        let t = token(b"secret", "anna");
        assert!(verify(b"secret", "anna", &t));
        assert!(!verify(b"secret", "bob", &t));
        assert!(!verify(b"other", "anna", &t));
        assert!(!verify(b"secret", "anna", "zz"));
    }
}
