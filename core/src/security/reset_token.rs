//! Password-reset tokens: `<expiry>.<mac>`, where the MAC covers the user, the expiry and the
//! user's current password hash. Nothing is stored: a token stops working when it expires or
//! once the password changes (so it is good for one reset).

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// A token for `user_id` whose password hash is `password_hash`, valid until `expires` (Unix
/// seconds).
pub fn issue(secret: &[u8], user_id: &str, password_hash: &str, expires: i64) -> String {
    format!("{expires}.{}", mac_hex(secret, user_id, password_hash, expires))
}

/// Whether `token` is a live token for the user as it is now.
pub fn verify(secret: &[u8], user_id: &str, password_hash: &str, token: &str, now: i64) -> bool {
    let Some((expires, mac)) = token.split_once('.') else { return false };
    let Ok(expires) = expires.parse::<i64>() else { return false };
    if expires < now {
        return false;
    }
    let Ok(given) = hex::decode(mac) else { return false };
    let Ok(mut expected) = Hmac::<Sha256>::new_from_slice(secret) else { return false };
    expected.update(message(user_id, password_hash, expires).as_bytes());
    expected.verify_slice(&given).is_ok()
}

fn message(user_id: &str, password_hash: &str, expires: i64) -> String {
    format!("password-reset\u{0}{user_id}\u{0}{expires}\u{0}{password_hash}")
}

fn mac_hex(secret: &[u8], user_id: &str, password_hash: &str, expires: i64) -> String {
    match Hmac::<Sha256>::new_from_slice(secret) {
        Ok(mut mac) => {
            mac.update(message(user_id, password_hash, expires).as_bytes());
            hex::encode(mac.finalize().into_bytes())
        }
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{issue, verify};

    #[test]
    fn tokens_are_bound_to_user_time_and_password() {
        let token = issue(b"key", "anna", "hash1", 1_000);
        assert!(verify(b"key", "anna", "hash1", &token, 999));
        assert!(!verify(b"key", "anna", "hash1", &token, 1_001), "expired");
        assert!(!verify(b"key", "bert", "hash1", &token, 999), "another user");
        assert!(!verify(b"key", "anna", "hash2", &token, 999), "the password changed since");
        assert!(!verify(b"other", "anna", "hash1", &token, 999), "another server's key");
        assert!(!verify(b"key", "anna", "hash1", "2000.00", 999), "forged");
    }
}
