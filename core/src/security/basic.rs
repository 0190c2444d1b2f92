//! HTTP Basic credentials and a short-lived cache of verified ones.
//!
//! argon2 takes tens of milliseconds on purpose, which would dominate every authenticated
//! request. Verified credentials are remembered for a minute under a SHA-256 of
//! `login:password`, so the password itself is never kept in memory.

use super::principal::User;
use super::verify_password;
use crate::http::ApiResult;
use crate::store::Store;
use base64::Engine;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const CACHE_TTL: Duration = Duration::from_secs(60);
const CACHE_CAPACITY: usize = 4096;

/// Splits a Basic token into login and password.
pub fn decode(token: &str) -> Option<(String, String)> {
    let raw = base64::engine::general_purpose::STANDARD.decode(token).ok()?;
    let text = String::from_utf8(raw).ok()?;
    let (login, password) = text.split_once(':')?;
    Some((login.to_owned(), password.to_owned()))
}

/// Verified credentials, keyed by a digest of `login:password`.
#[derive(Default)]
pub struct CredentialCache {
    entries: Mutex<HashMap<[u8; 32], (User, Instant)>>,
}

impl CredentialCache {
    /// Returns the user when the credentials are right, `None` when they are wrong.
    pub async fn verify(&self, store: &Store, login: &str, password: &str) -> ApiResult<Option<User>> {
        let key: [u8; 32] = Sha256::new()
            .chain_update(login.as_bytes())
            .chain_update(b":")
            .chain_update(password.as_bytes())
            .finalize()
            .into();
        if let Some(user) = self.lookup(&key) {
            return Ok(Some(user));
        }
        let Some(stored) = store.principal_by_login(login).await? else {
            return Ok(None);
        };
        let Some(hash) = stored.password_hash.as_deref() else {
            return Ok(None);
        };
        let (password, hash) = (password.to_owned(), hash.to_owned());
        let matches = tokio::task::spawn_blocking(move || verify_password(&password, &hash)).await.unwrap_or(false);
        if !matches {
            return Ok(None);
        }
        let user = User {
            fullname: if stored.fullname.is_empty() { stored.id.clone() } else { stored.fullname },
            id: stored.id,
            roles: stored.roles,
        };
        self.remember(key, user.clone());
        Ok(Some(user))
    }

    fn lookup(&self, key: &[u8; 32]) -> Option<User> {
        let entries = self.entries.lock().ok()?;
        let (user, at) = entries.get(key)?;
        (at.elapsed() < CACHE_TTL).then(|| user.clone())
    }

    fn remember(&self, key: [u8; 32], user: User) {
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= CACHE_CAPACITY {
                entries.retain(|_, (_, at)| at.elapsed() < CACHE_TTL);
                if entries.len() >= CACHE_CAPACITY {
                    entries.clear();
                }
            }
            entries.insert(key, (user, Instant::now()));
        }
    }

    /// Drops every cached entry.
    pub fn clear(&self) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.clear();
        }
    }
}
