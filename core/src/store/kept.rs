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
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Derived values by key, for any number of stores in the process.
pub struct Kept<V> {
    entries: Mutex<Option<HashMap<String, Entry<V>>>>,
    capacity: usize,
}

struct Entry<V> {
    generation: u64,
    made: Instant,
    value: V,
}

impl<V: Clone> Kept<V> {
    /// An empty memory holding at most `capacity` values; keys come from requests, so it starts
    /// over when full.
    pub const fn new(capacity: usize) -> Kept<V> {
        Kept { entries: Mutex::new(None), capacity }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Option<HashMap<String, Entry<V>>>> {
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
        match entries.as_ref().and_then(|entries| entries.get(&store_key(store, key))) {
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
        let mut entries = self.entries();
        let entries = entries.get_or_insert_with(HashMap::new);
        // What an older generation of this store derived is never valid again.
        let prefix = store_key(store, "");
        entries.retain(|kept, entry| entry.generation == generation || !kept.starts_with(&prefix));
        if entries.len() >= self.capacity {
            entries.clear();
        }
        entries.insert(key, Entry { generation, made: Instant::now(), value });
    }
}

/// Keys of different stores (servers in one process) never meet.
fn store_key(store: &Store, key: &str) -> String {
    format!("{} {key}", store.instance())
}
