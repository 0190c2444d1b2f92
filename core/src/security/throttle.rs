//! Failed logins, counted per account and per client address, so guessing passwords is slow
//! whichever way it is spread: many guesses at one account from many addresses meet the
//! account's limit, many accounts from one address meet the address's. A right password
//! clears its account's count. Counted in this instance's memory, like every limit here.

use crate::error::{ApiError, ErrorCode};
use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long failures are remembered.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Failures an account takes in a window before logins to it wait.
pub const ACCOUNT_FAILURES: u32 = 10;
/// Failures a client address makes in a window before its logins wait.
pub const CLIENT_FAILURES: u32 = 50;
/// Accounts or addresses tracked at most; past it, finished windows are dropped first.
const MAX_TRACKED: usize = 100_000;

/// The failure counts.
#[derive(Default)]
pub struct LoginThrottle {
    accounts: Counts<String>,
    clients: Counts<IpAddr>,
}

impl LoginThrottle {
    /// Refuses a login attempt while its account or its client has failed too often, with
    /// `Retry-After`. Checked before the password, so a locked-out guess costs no hashing.
    pub fn admit(&self, login: &str, client: Option<IpAddr>, now: Instant) -> Result<(), ApiError> {
        let wait = [
            self.accounts.wait(&normalize(login), ACCOUNT_FAILURES, now),
            client.and_then(|client| self.clients.wait(&client, CLIENT_FAILURES, now)),
        ]
        .into_iter()
        .flatten()
        .max();
        match wait {
            None => Ok(()),
            Some(wait) => Err(ApiError::new(
                ErrorCode::TooManyRequests,
                "Too many failed logins; please wait before trying again.",
            )
            .with_header("Retry-After", wait.as_secs().max(1).to_string())),
        }
    }

    /// Counts a failed attempt.
    pub fn failed(&self, login: &str, client: Option<IpAddr>, now: Instant) {
        self.accounts.add(normalize(login), now);
        if let Some(client) = client {
            self.clients.add(client, now);
        }
    }

    /// A right password: the account starts afresh (its address keeps its count).
    pub fn succeeded(&self, login: &str) {
        self.accounts.remove(&normalize(login));
    }
}

/// Logins differ in case only by accident; counting them apart would double the guesses.
fn normalize(login: &str) -> String {
    login.trim().to_lowercase()
}

struct Counts<K> {
    windows: Mutex<HashMap<K, (Instant, u32)>>,
}

impl<K> Default for Counts<K> {
    fn default() -> Self {
        Counts { windows: Mutex::new(HashMap::new()) }
    }
}

impl<K: Eq + Hash> Counts<K> {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, (Instant, u32)>> {
        self.windows.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// How long `key` must wait, if it has reached `limit` in its window.
    fn wait(&self, key: &K, limit: u32, now: Instant) -> Option<Duration> {
        let windows = self.lock();
        let (start, count) = windows.get(key)?;
        let elapsed = now.saturating_duration_since(*start);
        (elapsed < WINDOW && *count >= limit).then(|| WINDOW - elapsed)
    }

    fn add(&self, key: K, now: Instant) {
        let mut windows = self.lock();
        if windows.len() >= MAX_TRACKED {
            windows.retain(|_, (start, _)| now.saturating_duration_since(*start) < WINDOW);
            if windows.len() >= MAX_TRACKED {
                windows.clear();
            }
        }
        let (start, count) = windows.entry(key).or_insert((now, 0));
        if now.saturating_duration_since(*start) >= WINDOW {
            *start = now;
            *count = 0;
        }
        *count += 1;
    }

    fn remove(&self, key: &K) {
        self.lock().remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounts_and_addresses_wait_after_their_limits() {
        let throttle = LoginThrottle::default();
        let now = Instant::now();
        let here: IpAddr = [192, 0, 2, 1].into();
        for n in 0..ACCOUNT_FAILURES {
            assert!(throttle.admit("Anna", Some(here), now).is_ok(), "attempt {n}");
            throttle.failed("anna", Some([192, 0, 2, n as u8 + 10].into()), now);
        }
        assert!(throttle.admit("ANNA ", Some(here), now).is_err(), "the account waits, from any address");
        assert!(throttle.admit("anna", None, now + WINDOW).is_ok(), "until its window ends");
        assert!(throttle.admit("ben", Some(here), now).is_ok(), "other accounts do not");
        throttle.succeeded("anna");
        assert!(throttle.admit("anna", Some(here), now).is_ok(), "a right password clears the account");
        for n in 0..CLIENT_FAILURES {
            throttle.failed(&format!("user{n}"), Some(here), now);
        }
        assert!(throttle.admit("carla", Some(here), now).is_err(), "the address waits, for any account");
        assert!(throttle.admit("carla", Some([192, 0, 2, 2].into()), now).is_ok());
    }
}
