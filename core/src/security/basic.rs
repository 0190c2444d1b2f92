//! HTTP Basic credentials, and short-lived caches of verified users.
//!
//! argon2 takes tens of milliseconds on purpose, which would dominate every authenticated
//! request. Verified credentials are remembered for a minute under a SHA-256 of
//! `login:password`, so the password itself is never kept in memory. Users named by tokens
//! are remembered for a few seconds. Any change to principals clears both caches.
//!
//! Remembered credentials never lapse under load: after [`REFRESH_AFTER`] the next request
//! that presents them checks them again while the others go on with them, and credentials
//! nobody remembers are checked by one request at a time ([`SingleFlight`]), whose answer
//! the others then find.

use super::legacy_password::is_legacy;
use super::password::{hash_in_turn, verify_in_turn};
use super::principal::User;
use super::single_flight::SingleFlight;
use crate::error::ApiResult;
use crate::store::{Store, StoredPrincipal};
use base64::Engine;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

const CREDENTIAL_TTL: Duration = Duration::from_secs(60);
/// How old remembered credentials grow before they are checked again: early enough that the
/// check (one argon2 hash, even when the hashing turns are busy) ends well within the
/// minute.
const REFRESH_AFTER: Duration = Duration::from_secs(45);
const USER_TTL: Duration = Duration::from_secs(5);
const CACHE_CAPACITY: usize = 4096;

/// Splits a Basic token into login and password.
pub fn decode(token: &str) -> Option<(String, String)> {
    let raw = base64::engine::general_purpose::STANDARD.decode(token).ok()?;
    let text = String::from_utf8(raw).ok()?;
    let (login, password) = text.split_once(':')?;
    Some((login.to_owned(), password.to_owned()))
}

/// Replaces a legacy hash a moved site brought by an argon2 hash of the password it just let
/// in, so each user's weak hash is gone after their first login here.
async fn rehash(store: &Store, id: &str, legacy: &str, password: &str) -> ApiResult<()> {
    let argon2 = hash_in_turn(password).await?;
    let mut tx = store.begin().await?;
    tx.rehash_password(id, legacy, &argon2).await?;
    tx.commit().await?;
    tracing::info!(user = id, "replaced a legacy password hash by argon2 at login");
    Ok(())
}

/// A user as the security layer sees it: own roles plus the roles of its groups.
pub async fn load_user(store: &Store, stored: StoredPrincipal) -> ApiResult<User> {
    let mut roles = stored.roles;
    roles.extend(store.group_roles(&stored.groups).await?);
    roles.sort();
    roles.dedup();
    Ok(User {
        fullname: if stored.fullname.is_empty() { stored.id.clone() } else { stored.fullname },
        id: stored.id,
        roles,
        groups: stored.groups,
        token_generation: stored.token_generation,
    })
}

/// A time-limited map with a size bound.
struct TtlCache<K> {
    entries: Mutex<HashMap<K, Entry>>,
    ttl: Duration,
}

struct Entry {
    user: User,
    at: Instant,
    /// A request is verifying the entry again ([`TtlCache::claim`]).
    refreshing: bool,
}

/// What [`TtlCache::claim`] found.
#[derive(Debug)]
enum Claim {
    /// A user to go on with.
    Valid(User),
    /// The entry is due to be verified again, and the caller is the one to do it.
    Refresh,
    /// Nothing valid.
    Missing,
}

impl<K: Eq + Hash> TtlCache<K> {
    fn new(ttl: Duration) -> Self {
        TtlCache { entries: Mutex::new(HashMap::new()), ttl }
    }

    /// The user of a valid entry, except that the first caller to find it older than
    /// `refresh_after` is told to verify it again; everyone else goes on with it meanwhile.
    fn claim(&self, key: &K, refresh_after: Duration) -> Claim {
        let Ok(mut entries) = self.entries.lock() else { return Claim::Missing };
        let Some(entry) = entries.get_mut(key).filter(|entry| entry.at.elapsed() < self.ttl) else {
            return Claim::Missing;
        };
        if entry.refreshing || entry.at.elapsed() < refresh_after {
            return Claim::Valid(entry.user.clone());
        }
        entry.refreshing = true;
        Claim::Refresh
    }

    /// The user of a valid entry, unless a request is verifying it again (that request must
    /// not take it as its answer).
    fn get(&self, key: &K) -> Option<User> {
        let entries = self.entries.lock().ok()?;
        let entry = entries.get(key).filter(|entry| !entry.refreshing)?;
        (entry.at.elapsed() < self.ttl).then(|| entry.user.clone())
    }

    /// Lets the next caller claim the entry again (verifying it failed for another reason
    /// than a wrong password).
    fn unclaim(&self, key: &K) {
        if let Ok(mut entries) = self.entries.lock()
            && let Some(entry) = entries.get_mut(key)
        {
            entry.refreshing = false;
        }
    }

    fn put(&self, key: K, user: User) {
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= CACHE_CAPACITY {
                entries.retain(|_, entry| entry.at.elapsed() < self.ttl);
                if entries.len() >= CACHE_CAPACITY {
                    entries.clear();
                }
            }
            entries.insert(key, Entry { user, at: Instant::now(), refreshing: false });
        }
    }

    fn remove(&self, key: &K) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.remove(key);
        }
    }

    fn clear(&self) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.clear();
        }
    }
}

/// Caches of verified credentials and of users named by tokens.
pub struct CredentialCache {
    credentials: TtlCache<[u8; 32]>,
    /// Credentials being checked.
    checking: SingleFlight<[u8; 32]>,
    users: TtlCache<String>,
    /// Password hashes checked so far: a guessing attack shows in `/metrics`, and it shows
    /// that an unknown user costs a check like a wrong password does.
    checks: AtomicU64,
}

impl Default for CredentialCache {
    fn default() -> Self {
        CredentialCache {
            credentials: TtlCache::new(CREDENTIAL_TTL),
            checking: SingleFlight::default(),
            users: TtlCache::new(USER_TTL),
            checks: AtomicU64::new(0),
        }
    }
}

impl CredentialCache {
    /// The user of credentials verified within the last minute; `None` also when they are
    /// due to be checked again and this caller is the one to [`verify`](Self::verify) them.
    pub fn cached(&self, login: &str, password: &str) -> Option<User> {
        match self.credentials.claim(&credential_key(login, password), REFRESH_AFTER) {
            Claim::Valid(user) => Some(user),
            Claim::Refresh | Claim::Missing => None,
        }
    }

    /// The user when login and password are right, `None` when they are wrong.
    pub async fn verify(&self, store: &Store, login: &str, password: &str) -> ApiResult<Option<User>> {
        let key = credential_key(login, password);
        if let Some(user) = self.credentials.get(&key) {
            return Ok(Some(user));
        }
        let _turn = self.checking.enter(key).await;
        // The request before this one in the flight may have just verified them.
        if let Some(user) = self.credentials.get(&key) {
            return Ok(Some(user));
        }
        match self.verify_stored(store, login, password).await {
            Ok(Some(user)) => {
                self.credentials.put(key, user.clone());
                Ok(Some(user))
            }
            Ok(None) => {
                // Changed elsewhere (another instance) since they were remembered.
                self.credentials.remove(&key);
                Ok(None)
            }
            Err(error) => {
                self.credentials.unclaim(&key);
                Err(error)
            }
        }
    }

    /// Checks login and password against the stored principal, replacing a legacy hash.
    async fn verify_stored(&self, store: &Store, login: &str, password: &str) -> ApiResult<Option<User>> {
        let stored = match store.principal_by_login(login).await? {
            Some(stored) => Some(stored),
            None if login.contains('@') && email_logins(store).await? => store.principal_by_email(login).await?,
            None => None,
        };
        let hash = stored.as_ref().and_then(|s| s.password_hash.as_deref());
        let matches = self.check(hash, password).await?;
        let (Some(stored), true) = (stored, matches) else {
            return Ok(None);
        };
        if let Some(legacy) = stored.password_hash.as_deref().filter(|hash| is_legacy(hash)) {
            rehash(store, &stored.id, legacy, password).await?;
        }
        Ok(Some(load_user(store, stored).await?))
    }

    /// Whether `password` matches `hash`. Without a hash (an unknown user, or one without a
    /// password) it is checked against a stand-in, so the answer takes as long as for a wrong
    /// password and does not tell who exists; it never matches then.
    pub async fn check(&self, hash: Option<&str>, password: &str) -> ApiResult<bool> {
        let matches = verify_in_turn(password, hash.unwrap_or(STAND_IN_HASH.as_str())).await?;
        self.checks.fetch_add(1, Ordering::Relaxed);
        Ok(matches && hash.is_some())
    }

    /// The user with this id (named by a token), `None` when it no longer exists.
    pub async fn user(&self, store: &Store, id: &str) -> ApiResult<Option<User>> {
        if let Some(user) = self.users.get(&id.to_owned()) {
            return Ok(Some(user));
        }
        let Some(stored) = store.principal(id).await?.filter(|p| p.kind == "user") else {
            return Ok(None);
        };
        let user = load_user(store, stored).await?;
        self.users.put(id.to_owned(), user.clone());
        Ok(Some(user))
    }

    /// How many password hashes were checked since start.
    pub fn password_checks(&self) -> u64 {
        self.checks.load(Ordering::Relaxed)
    }

    /// Drops every cached entry.
    pub fn clear(&self) {
        self.credentials.clear();
        self.users.clear();
    }
}

/// The cache key of a login and password: a SHA-256, so the password is not kept.
fn credential_key(login: &str, password: &str) -> [u8; 32] {
    Sha256::new().chain_update(login.as_bytes()).chain_update(b":").chain_update(password.as_bytes()).finalize().into()
}

/// A hash of a random password, with the parameters real hashes have.
static STAND_IN_HASH: LazyLock<String> =
    LazyLock::new(|| super::password::hash_password(&uuid::Uuid::new_v4().to_string()).unwrap_or_default());

/// Whether the security panel lets users log in with their e-mail address.
async fn email_logins(store: &Store) -> ApiResult<bool> {
    let values = store.record_values(&[&super::settings::USE_EMAIL_AS_LOGIN]).await?;
    Ok(values.first().and_then(serde_json::Value::as_bool).unwrap_or(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anna() -> User {
        User {
            id: "anna".into(),
            fullname: "Anna".into(),
            roles: Vec::new(),
            groups: Vec::new(),
            token_generation: String::new(),
        }
    }

    /// A cache holding anna's entry as if it had been verified `age` ago.
    fn remembered(age: Duration) -> TtlCache<u8> {
        let cache = TtlCache::new(CREDENTIAL_TTL);
        cache.put(1, anna());
        if let Ok(mut entries) = cache.entries.lock()
            && let (Some(entry), Some(at)) = (entries.get_mut(&1), Instant::now().checked_sub(age))
        {
            entry.at = at;
        }
        cache
    }

    #[test]
    fn young_entries_serve_everyone_and_nothing_serves_a_missing_or_lapsed_one() {
        let cache = remembered(Duration::from_secs(1));
        assert!(matches!(cache.claim(&1, REFRESH_AFTER), Claim::Valid(user) if user.id == "anna"));
        assert!(matches!(cache.claim(&2, REFRESH_AFTER), Claim::Missing));
        let lapsed = remembered(CREDENTIAL_TTL + Duration::from_secs(1));
        assert!(matches!(lapsed.claim(&1, REFRESH_AFTER), Claim::Missing));
        assert!(lapsed.get(&1).is_none());
    }

    #[test]
    fn an_ageing_entry_is_checked_again_by_one_caller_while_the_others_go_on_with_it() {
        let cache = remembered(REFRESH_AFTER + Duration::from_secs(1));
        assert!(matches!(cache.claim(&1, REFRESH_AFTER), Claim::Refresh), "the first caller checks again");
        assert!(matches!(cache.claim(&1, REFRESH_AFTER), Claim::Valid(_)), "the next ones go on");
        assert!(cache.get(&1).is_none(), "the checker does not take the entry as its answer");
        cache.unclaim(&1);
        assert!(matches!(cache.claim(&1, REFRESH_AFTER), Claim::Refresh), "a failed check is taken up again");
        cache.put(1, anna());
        assert!(matches!(cache.claim(&1, REFRESH_AFTER), Claim::Valid(_)), "a new check makes it young");
        assert!(cache.get(&1).is_some());
    }
}
