//! Password hashing with argon2id; hashes are PHC strings that carry their own parameters.

use argon2::{Argon2, PasswordHasher, PasswordVerifier};

/// Hashes a password with a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, String> {
    Argon2::default().hash_password(password.as_bytes()).map(|hash| hash.to_string()).map_err(|e| e.to_string())
}

/// Checks a password against a stored PHC hash; a malformed hash never matches.
pub fn verify_password(password: &str, stored: &str) -> bool {
    Argon2::default().verify_password(password.as_bytes(), stored).is_ok()
}
