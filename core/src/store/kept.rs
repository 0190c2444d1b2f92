//! Values that requests derive from storage and that many requests share, kept in memory
//! between requests: a navigation tree is the same for every caller with the same `allowed`
//! tokens until something it was built from changes, and building it is most of an editor's
//! page view.
//!
//! A value is kept only while the store [remembers](Store::remembers) what it reads, under the
//! same rules: it belongs to the store's [generation](Store::generation) it was derived in,
//! which every commit of this instance (and on PostgreSQL every other instance's, see
//! [`super::follow`]) moves on, and it is derived again once older than the memory's maximum
//! age, which bounds what no commit announces (a publication date passing, another process's
//! write to the same SQLite file). A key must name everything else the value depends on.

use super::Store;
use super::room::make_room;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Derived values by key, for any number of stores in the process.
pub struct Kept<V> {
    entries: Mutex<Option<Entries<V>>>,
    budget: usize,
    weigh: fn(&V) -> usize,
}

struct Entries<V> {
    by_key: HashMap<String, Entry<V>>,
    weight: usize,
}

struct Entry<V> {
    generation: u64,
    made: Instant,
    weight: usize,
    value: V,
}

/// Every value counts as one.
fn one<V>(_: &V) -> usize {
    1
}

impl<V: Clone> Kept<V> {
    /// An empty memory holding at most `capacity` values; keys come from requests, so it makes
    /// room when full (see [`make_room`]).
    pub const fn new(capacity: usize) -> Kept<V> {
        Kept::weighed(capacity, one::<V>)
    }

    /// An empty memory holding values that `weigh` at most `budget` together: for values whose
    /// size varies with what they were derived from.
    pub const fn weighed(budget: usize, weigh: fn(&V) -> usize) -> Kept<V> {
        Kept { entries: Mutex::new(None), budget, weigh }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Option<Entries<V>>> {
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value kept for `key` in `store`, if it is still valid; otherwise the generation to
    /// hand to [`Kept::keep`] with the value derived now (`None`: nothing is kept now).
    pub fn recall(&self, store: &Store, key: &str) -> Result<V, Option<u64>> {
        if !store.remembers() || store.memory_max_age().is_zero() {
            return Err(None);
        }
        let generation = store.generation();
        let entries = self.entries();
        match entries.as_ref().and_then(|entries| entries.by_key.get(&store_key(store, key))) {
            Some(entry) if entry.generation == generation && entry.made.elapsed() < store.memory_max_age() => {
                Ok(entry.value.clone())
            }
            _ => Err(Some(generation)),
        }
    }

    /// Keeps `value`, derived at `generation`, unless a change has moved the store on since.
    pub fn keep(&self, store: &Store, generation: Option<u64>, key: &str, value: V) {
        let Some(generation) = generation.filter(|generation| *generation == store.generation()) else {
            return;
        };
        let key = store_key(store, key);
        let weight = (self.weigh)(&value);
        let mut entries = self.entries();
        let entries = entries.get_or_insert_with(|| Entries { by_key: HashMap::new(), weight: 0 });
        if let Some(old) = entries.by_key.remove(&key) {
            entries.weight -= old.weight;
        }
        if entries.weight + weight > self.budget {
            // What an older generation of this store derived is never valid again.
            let (prefix, max_age) = (store_key(store, ""), store.memory_max_age());
            let fresh = |kept: &String, entry: &Entry<V>| {
                entry.made.elapsed() < max_age && (entry.generation == generation || !kept.starts_with(&prefix))
            };
            entries.weight = make_room(&mut entries.by_key, self.budget, |entry| entry.weight, fresh);
        }
        entries.weight += weight;
        entries.by_key.insert(key, Entry { generation, made: Instant::now(), weight, value });
    }
}

/// Keys of different stores (servers in one process) never meet.
fn store_key(store: &Store, key: &str) -> String {
    format!("{} {key}", store.instance())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::Kept;
    use crate::store::test_support::store;

    #[tokio::test]
    async fn a_full_memory_drops_what_a_change_outdated_before_what_is_still_valid() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir).await;
        let kept: Kept<usize> = Kept::weighed(10, |value| *value);
        let outdated = kept.recall(&store, "outdated").unwrap_err();
        kept.keep(&store, outdated, "outdated", 4);
        store.note_change();
        for key in ["a", "b"] {
            let generation = kept.recall(&store, key).unwrap_err();
            kept.keep(&store, generation, key, 2);
        }
        assert!(kept.recall(&store, "outdated").is_err(), "a value from before a change was recalled");
        let generation = kept.recall(&store, "c").unwrap_err();
        kept.keep(&store, generation, "c", 3);
        assert_eq!(
            ["a", "b", "c"].map(|key| kept.recall(&store, key).ok()),
            [Some(2), Some(2), Some(3)],
            "room was made from the outdated value alone"
        );
        let generation = kept.recall(&store, "d").unwrap_err();
        kept.keep(&store, generation, "d", 5);
        let left: usize = ["a", "b", "c", "d"].iter().filter_map(|key| kept.recall(&store, key).ok()).sum();
        assert!(left <= 10 && kept.recall(&store, "d") == Ok(5), "the budget holds, and the newest is kept");
    }
}
