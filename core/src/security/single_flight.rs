//! One check at a time per key. When remembered credentials lapse under load, every request
//! that presents them would otherwise hash the password itself, in turn, since hashing has
//! fewer turns than requests ([`super::password`]); in a single flight the first request
//! checks and the others wait for it and then find its answer remembered.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use tokio::sync::OwnedMutexGuard;

/// The keys being checked, each with the lock its checkers take in turn.
pub(super) struct SingleFlight<K> {
    turns: Mutex<HashMap<K, Arc<tokio::sync::Mutex<()>>>>,
}

impl<K> Default for SingleFlight<K> {
    fn default() -> Self {
        SingleFlight { turns: Mutex::new(HashMap::new()) }
    }
}

/// The right to check a key, held until dropped; the key's entry goes with the last holder,
/// so the map holds only keys being checked now, however a request ends.
pub(super) struct Turn<'a, K: Eq + Hash> {
    flight: &'a SingleFlight<K>,
    key: K,
    lock: Arc<tokio::sync::Mutex<()>>,
    guard: Option<OwnedMutexGuard<()>>,
}

impl<K: Eq + Hash + Clone> SingleFlight<K> {
    /// Waits until nobody else checks `key`.
    pub(super) async fn enter(&self, key: K) -> Turn<'_, K> {
        let lock = match self.turns.lock() {
            Ok(mut turns) => turns.entry(key.clone()).or_default().clone(),
            // A poisoned map only loses the sharing: this request checks on its own.
            Err(_) => Arc::default(),
        };
        let guard = Some(lock.clone().lock_owned().await);
        Turn { flight: self, key, lock, guard }
    }

    /// How many keys are being checked.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.turns.lock().map_or(0, |turns| turns.len())
    }
}

impl<K: Eq + Hash> Drop for Turn<'_, K> {
    fn drop(&mut self) {
        self.guard.take();
        if let Ok(mut turns) = self.flight.turns.lock()
            && turns.get(&self.key).is_some_and(|lock| Arc::ptr_eq(lock, &self.lock))
            // The map's handle and this turn's: nobody else waits.
            && Arc::strong_count(&self.lock) == 2
        {
            turns.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn checkers_of_one_key_take_turns_and_the_last_leaves_nothing_behind() {
        let flight = SingleFlight::<u8>::default();
        let (inside, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let check = || async {
            let _turn = flight.enter(7).await;
            let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(5)).await;
            inside.fetch_sub(1, Ordering::SeqCst);
        };
        tokio::join!(check(), check(), check(), check());
        assert_eq!(most.load(Ordering::SeqCst), 1, "one checker of the key at a time");
        assert_eq!(flight.len(), 0, "no key is left once its checkers are done");
    }

    #[tokio::test]
    async fn other_keys_do_not_wait_and_a_dropped_wait_leaves_nothing_behind() {
        let flight = SingleFlight::<u8>::default();
        let first = flight.enter(1).await;
        let other = tokio::time::timeout(Duration::from_secs(5), flight.enter(2)).await;
        assert!(other.is_ok(), "another key is checked at once");
        drop(other);
        let waiting = tokio::time::timeout(Duration::from_millis(20), flight.enter(1)).await;
        assert!(waiting.is_err(), "the same key waits for its turn");
        drop(first);
        assert_eq!(flight.len(), 0, "a cancelled wait leaves no key behind");
    }
}
