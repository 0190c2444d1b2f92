//! Password hashing with argon2id; hashes are PHC strings that carry their own parameters.
//!
//! A hash takes tens of milliseconds of a core on purpose. Requests hash on blocking threads,
//! and at most one fewer at a time than the machine has cores (at least one), so a crowd of
//! logins or password changes slows logins, never every other request: the rest of the server
//! keeps a core. A hash that cannot start within [`MAX_WAIT`] is a 503 with `Retry-After`.

use super::legacy_password::{is_legacy, verify_legacy};
use crate::error::{ApiError, ApiResult, ErrorCode};
use argon2::{Argon2, PasswordHasher, PasswordVerifier};
use std::sync::LazyLock;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long a request waits for its turn to hash.
const MAX_WAIT: Duration = Duration::from_secs(10);

/// Turns to hash, one fewer than the cores.
static TURNS: LazyLock<Semaphore> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    Semaphore::new(cores.saturating_sub(1).max(1))
});

/// Hashes a password with a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, String> {
    Argon2::default().hash_password(password.as_bytes()).map(|hash| hash.to_string()).map_err(|e| e.to_string())
}

/// Checks a password against a stored hash: our argon2 PHC strings, or a hash a moved site
/// brought along ([`super::legacy_password`]); a malformed hash never matches.
pub fn verify_password(password: &str, stored: &str) -> bool {
    if is_legacy(stored) {
        return verify_legacy(password, stored);
    }
    Argon2::default().verify_password(password.as_bytes(), stored).is_ok()
}

/// [`hash_password`] for a request: in turn, off the request threads.
pub async fn hash_in_turn(password: &str) -> ApiResult<String> {
    let password = password.to_owned();
    in_turn(move || hash_password(&password)).await?.map_err(ApiError::internal)
}

/// [`verify_password`] for a request: in turn, off the request threads.
pub async fn verify_in_turn(password: &str, stored: &str) -> ApiResult<bool> {
    let (password, stored) = (password.to_owned(), stored.to_owned());
    in_turn(move || verify_password(&password, &stored)).await
}

async fn in_turn<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> ApiResult<T> {
    let busy = || {
        ApiError::new(ErrorCode::ServiceUnavailable, "The server is busy checking passwords; try again shortly.")
            .with_header("Retry-After", "1")
    };
    let _turn = tokio::time::timeout(MAX_WAIT, TURNS.acquire()).await.map_err(|_| busy())?.map_err(|_| busy())?;
    tokio::task::spawn_blocking(work).await.map_err(ApiError::internal)
}
