//! A memory of the per-object facts every write checks first and that seldom change: the local
//! roles along a path, an object's lock, and whether it is checked out; and of the newest
//! version this process wrote of an object, the first guess at what the next write builds on.
//!
//! A PATCH reads all three before it writes, and on SQLite each read is a hand-off to a
//! connection's thread and back, which costs more than the statement. So on SQLite, where this
//! process is the only server using the database, what was read is remembered until a change
//! that could alter it commits (see [`Tx::commit`](super::Tx::commit) and the lock writes). As
//! in the memory of records, a read racing such a change keeps what it read only if no change
//! committed in between, so nothing stale is remembered. What another process changes in the
//! same SQLite file (a second instance, a `wcs` command) this process cannot see, so a fact is
//! read again once it is older than the memory's maximum age (1 s by default), which bounds
//! how late such changes show everywhere. On PostgreSQL, where other instances write too, the
//! same is remembered while the store follows the other instances' commits, which make it
//! forget (see [`super::follow`]); while it does not, every read asks the database.

use super::LocalRole;
use super::content_memo::ContentMemo;
use super::lock::ContentLock;
use super::room::make_room;
use super::{Backend, Store};
use crate::content::ContentObject;
use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most keys one memory holds: keys come from requests (any path), so the memory is
/// bounded and makes room when full (see [`make_room`]).
const MAX_REMEMBERED: usize = 4_096;

/// The most objects kept as written: whole objects, which can be large, and only the ones
/// being edited right now are worth keeping.
const MAX_WRITTEN: usize = 64;

/// The memories.
pub(super) struct ObjectMemo {
    /// Local roles by the uids they were read for, joined.
    pub(super) local_roles: Memo<Vec<LocalRole>>,
    /// Locks by object uid.
    pub(super) locks: Memo<Option<ContentLock>>,
    /// The path of a baseline's live working copy, by the baseline's uid.
    pub(super) working_copies: Memo<Option<String>>,
    /// The newest version of an object this process wrote, by uid. It may belong to a write
    /// that was then rolled back: it is only ever a guess that a guarded write checks.
    pub(super) written: Memo<Arc<ContentObject>>,
    /// Objects by path, as committed.
    pub(super) content: ContentMemo,
    /// Plugins' facts read from their own tables ([`Tx::remembered_fact`](super::Tx::remembered_fact)).
    pub(super) facts: Memo<Arc<dyn Any + Send + Sync>>,
    /// How old, in milliseconds, a remembered fact may be before it is read again.
    max_age_ms: AtomicU64,
    /// On PostgreSQL, whether other instances' commits are being followed (see
    /// [`super::follow`]): only then is anything remembered.
    pub(super) following: AtomicBool,
}

impl Default for ObjectMemo {
    fn default() -> Self {
        ObjectMemo {
            local_roles: Memo::new(MAX_REMEMBERED),
            locks: Memo::new(MAX_REMEMBERED),
            working_copies: Memo::new(MAX_REMEMBERED),
            written: Memo::new(MAX_WRITTEN),
            content: ContentMemo::default(),
            facts: Memo::new(MAX_REMEMBERED),
            max_age_ms: AtomicU64::new(1_000),
            following: AtomicBool::new(false),
        }
    }
}

impl ObjectMemo {
    /// Forgets what a commit's changes to content may have altered: local roles, working
    /// copies, objects as written and as committed (locks change only through their own
    /// writes).
    pub(super) fn forget_content_facts(&self) {
        self.local_roles.forget();
        self.working_copies.forget();
        self.written.forget();
        self.content.forget();
        self.facts.forget();
    }

    /// How old a remembered fact may be before it is read again.
    pub(super) fn max_age(&self) -> Duration {
        Duration::from_millis(self.max_age_ms.load(Ordering::Relaxed))
    }
}

impl Store {
    /// Sets how old a remembered fact may be (on SQLite) before it is read again: how late
    /// another process's changes to the same database may show. Zero remembers nothing.
    pub fn set_memory_max_age(&self, max_age: Duration) {
        let millis = u64::try_from(max_age.as_millis()).unwrap_or(u64::MAX);
        self.memo.max_age_ms.store(millis, Ordering::Relaxed);
    }

    /// Whether this store remembers what it reads: on SQLite, where this process is the only
    /// server of its database, always; on PostgreSQL while it follows other instances' commits.
    pub fn remembers(&self) -> bool {
        self.backend == Backend::Sqlite || self.memo.following.load(Ordering::Acquire)
    }

    /// How old a remembered fact may be before it is read again.
    pub fn memory_max_age(&self) -> Duration {
        self.memo.max_age()
    }

    /// The memory of objects by path, while the store [remembers](Store::remembers).
    pub(super) fn content_memo(&self) -> Option<&ContentMemo> {
        self.remembers().then_some(&self.memo.content)
    }

    /// What `read` gives for `key`; on SQLite, what an earlier read gave, as long as no change
    /// that could alter it has committed since.
    pub(super) async fn remembered<V: Clone>(
        &self,
        memo: &Memo<V>,
        key: &str,
        read: impl Future<Output = Result<V, sqlx::Error>>,
    ) -> Result<V, sqlx::Error> {
        if !self.remembers() {
            return read.await;
        }
        let generation = match memo.recall(key, self.memo.max_age()) {
            Ok(value) => return Ok(value),
            Err(generation) => generation,
        };
        let value = read.await?;
        memo.remember(generation, key.to_owned(), value.clone(), self.memo.max_age());
        Ok(value)
    }
}

/// Values by key, and how many changes have been committed since the start.
pub(super) struct Memo<V> {
    state: Mutex<Remembered<V>>,
    capacity: usize,
}

struct Remembered<V> {
    generation: u64,
    values: HashMap<String, (V, Instant)>,
}

impl<V: Clone> Memo<V> {
    fn new(capacity: usize) -> Memo<V> {
        Memo { state: Mutex::new(Remembered { generation: 0, values: HashMap::new() }), capacity }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Remembered<V>> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The remembered value, if it is younger than `max_age`, or the generation a read of the
    /// database must be tagged with.
    pub(super) fn recall(&self, key: &str, max_age: Duration) -> Result<V, u64> {
        let state = self.state();
        match state.values.get(key) {
            Some((value, at)) if at.elapsed() < max_age => Ok(value.clone()),
            _ => Err(state.generation),
        }
    }

    /// Remembers a read made at `generation`, unless a change committed since; when the memory
    /// is full, what is older than `max_age` makes room first.
    pub(super) fn remember(&self, generation: u64, key: String, value: V, max_age: Duration) {
        let mut state = self.state();
        if state.generation != generation {
            return;
        }
        if state.values.len() >= self.capacity {
            make_room(&mut state.values, self.capacity, |_| 1, |_, (_, at)| at.elapsed() < max_age);
        }
        state.values.insert(key, (value, Instant::now()));
    }

    /// Remembers what this process itself has just written, whatever was read meanwhile: it is
    /// recalled at any age.
    pub(super) fn put(&self, key: String, value: V) {
        let generation = self.state().generation;
        self.remember(generation, key, value, Duration::MAX);
    }

    /// Forgets everything: a change committed.
    pub(super) fn forget(&self) {
        let mut state = self.state();
        state.generation += 1;
        state.values.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;
    use std::time::Duration;

    const LONG: Duration = Duration::from_secs(3_600);

    #[test]
    fn a_read_that_raced_a_change_is_not_remembered() {
        let memo: Memo<u32> = Memo::new(2);
        let Err(generation) = memo.recall("a", LONG) else { panic!("an empty memory recalled a value") };
        memo.forget();
        memo.remember(generation, "a".to_owned(), 1, LONG);
        assert_eq!(memo.recall("a", LONG), Err(generation + 1), "a read from before the change was kept");
        memo.remember(generation + 1, "a".to_owned(), 2, LONG);
        assert_eq!(memo.recall("a", LONG), Ok(2));
        memo.forget();
        assert!(memo.recall("a", LONG).is_err(), "a value outlived the change that could alter it");
        memo.put("a".to_owned(), 1);
        memo.put("b".to_owned(), 2);
        memo.put("c".to_owned(), 3);
        let kept = ["a", "b"].iter().filter(|key| memo.recall(key, LONG).is_ok()).count();
        assert_eq!(kept, 1, "the full memory made room by half, not more and not less");
        assert_eq!(memo.recall("c", LONG), Ok(3), "the newest is kept");
        assert!(memo.recall("c", Duration::ZERO).is_err(), "a value older than the maximum age was recalled");
    }
}
