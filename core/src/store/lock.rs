//! Editing locks: who holds one on an object, since when, for how long.

use super::Store;
use crate::content::values::format_time;
use poem_openapi::Object;
use sqlx::Row;

/// One object's lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentLock {
    /// The object's uid.
    pub uid: String,
    /// The secret that lets a request edit despite the lock (`Lock-Token`).
    pub token: String,
    /// The user id that holds it.
    pub creator: String,
    /// When it was taken or last refreshed, seconds since the epoch.
    pub created: i64,
    /// For how many seconds after `created` it holds.
    pub timeout: i64,
    /// Whether others may release it.
    pub stealable: bool,
}

/// An object's lock in plone.restapi's shape; without one, only `locked` (false) and
/// `stealable` (true).
#[derive(Object)]
#[oai(skip_serializing_if_is_none)]
pub struct LockInfo {
    /// When it was taken or last refreshed (ISO 8601).
    pub created: Option<String>,
    /// The user id that holds it.
    pub creator: Option<String>,
    /// The holder's name.
    pub creator_name: Option<String>,
    /// The holder's author page.
    pub creator_url: Option<String>,
    /// Whether the object is locked.
    pub locked: bool,
    /// `plone.locking.stealable` or `plone.locking.nonstealable`.
    pub name: Option<String>,
    /// Whether others may release it.
    pub stealable: bool,
    /// `created` in seconds since the epoch.
    pub time: Option<i64>,
    /// For how many seconds after `created` it holds.
    pub timeout: Option<i64>,
    /// The secret that lets a request edit despite the lock (`Lock-Token`); for its holder
    /// only.
    pub token: Option<String>,
}

/// What a request shows of no lock.
pub fn unlocked() -> LockInfo {
    LockInfo {
        created: None,
        creator: None,
        creator_name: None,
        creator_url: None,
        locked: false,
        name: None,
        stealable: true,
        time: None,
        timeout: None,
        token: None,
    }
}

/// The timeout Plone gives the lock of a checked-out object: the largest it has.
const CHECKOUT_TIMEOUT: i64 = 4_294_967_280;

/// How a checked-out object shows as locked, as plone.app.iterate's lock shows: by whoever
/// made `copy`, since they made it, not stealable. It has no token: nothing but the check-in
/// or the cancel of the working copy releases it (see `ops::update::check_unlocked`).
pub fn checkout_lock(copy_creator: &str, copied_at: chrono::DateTime<chrono::Utc>, site_url: &str) -> LockInfo {
    LockInfo {
        created: Some(format_time(copied_at)),
        creator: Some(copy_creator.to_owned()),
        creator_name: Some(copy_creator.to_owned()),
        creator_url: Some(format!("{site_url}/author/{copy_creator}")),
        locked: true,
        name: Some("iterate.lock".to_owned()),
        stealable: false,
        time: Some(copied_at.timestamp()),
        timeout: Some(CHECKOUT_TIMEOUT),
        token: None,
    }
}

impl ContentLock {
    /// The lock in plone.restapi's shape; the token only for its holder (`viewer`), since it
    /// lets a request edit despite the lock.
    pub fn info(&self, site_url: &str, viewer: Option<&str>) -> LockInfo {
        LockInfo {
            created: chrono::DateTime::from_timestamp(self.created, 0).map(format_time),
            creator: Some(self.creator.clone()),
            creator_name: Some(self.creator.clone()),
            creator_url: Some(format!("{site_url}/author/{}", self.creator)),
            locked: true,
            name: Some(
                if self.stealable { "plone.locking.stealable" } else { "plone.locking.nonstealable" }.to_owned(),
            ),
            stealable: self.stealable,
            time: Some(self.created),
            timeout: Some(self.timeout),
            token: (viewer == Some(self.creator.as_str())).then(|| self.token.clone()),
        }
    }

    /// Whether it still holds at `now` (seconds).
    pub fn holds_at(&self, now: i64) -> bool {
        now < self.created.saturating_add(self.timeout)
    }
}

impl Store {
    /// The lock of an object, if one is stored (it may have run out; see
    /// [`ContentLock::holds_at`]).
    pub async fn lock_of(&self, uid: &str) -> Result<Option<ContentLock>, sqlx::Error> {
        self.remembered(&self.memo.locks, uid, self.read_lock(uid)).await
    }

    async fn read_lock(&self, uid: &str) -> Result<Option<ContentLock>, sqlx::Error> {
        self.count();
        let row = sqlx::query("SELECT token, creator, created, timeout, stealable FROM content_lock WHERE uid = $1")
            .bind(uid)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok(ContentLock {
                uid: uid.to_owned(),
                token: row.try_get(0)?,
                creator: row.try_get(1)?,
                created: row.try_get(2)?,
                timeout: row.try_get(3)?,
                stealable: row.try_get::<i64, _>(4)? != 0,
            })
        })
        .transpose()
    }

    /// Takes or refreshes a lock.
    pub async fn put_lock(&self, lock: &ContentLock) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO content_lock (uid, token, creator, created, timeout, stealable) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (uid) DO UPDATE SET token = excluded.token, creator = excluded.creator, \
             created = excluded.created, timeout = excluded.timeout, stealable = excluded.stealable",
        )
        .bind(&lock.uid)
        .bind(&lock.token)
        .bind(&lock.creator)
        .bind(lock.created)
        .bind(lock.timeout)
        .bind(i64::from(lock.stealable))
        .execute(&self.pool)
        .await?;
        self.memo.locks.forget();
        // Content answers show the lock.
        self.note_change();
        Ok(())
    }

    /// Releases an object's lock.
    pub async fn remove_lock(&self, uid: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("DELETE FROM content_lock WHERE uid = $1").bind(uid).execute(&self.pool).await?;
        self.memo.locks.forget();
        self.note_change();
        Ok(())
    }
}
