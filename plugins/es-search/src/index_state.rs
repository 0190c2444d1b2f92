//! What the index is doing, shared by the background indexer, rebuilds and `@es-admin`: one
//! writer at a time (the engine stages writes until a commit, so a rebuild and the indexer must
//! not commit each other's half-done work), whether a rebuild runs, and the last failure.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;
use tokio::sync::Notify;

/// The shared state of one application's index.
#[derive(Default)]
pub struct IndexState {
    /// Held while staging and committing; searches never wait for it.
    pub writing: tokio::sync::Mutex<()>,
    rebuilding: AtomicBool,
    last_error: Mutex<Option<String>>,
    /// The change-feed position the index is known to hold everything up to.
    indexed: AtomicI64,
    /// Told whenever `indexed` moves on.
    advanced: Notify,
    /// Tells the indexer not to finish its pause: a search waits for it.
    wake: Notify,
}

impl IndexState {
    /// Marks a rebuild as started; `false` if one already runs.
    pub fn start_rebuild(&self) -> bool {
        !self.rebuilding.swap(true, Ordering::SeqCst)
    }

    /// Marks the rebuild as ended.
    pub fn end_rebuild(&self) {
        self.rebuilding.store(false, Ordering::SeqCst);
    }

    /// Whether a rebuild runs.
    pub fn rebuilding(&self) -> bool {
        self.rebuilding.load(Ordering::SeqCst)
    }

    /// Records the outcome of indexing work: a failure is kept until work succeeds again.
    pub fn record(&self, outcome: Result<(), String>) {
        let failed = outcome.is_err();
        *self.last_error.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = outcome.err();
        if failed {
            self.advanced.notify_waiters();
        }
    }

    /// Notes that the index holds everything up to `position` of the change feed.
    pub fn indexed_up_to(&self, position: i64) {
        self.indexed.fetch_max(position, Ordering::AcqRel);
        self.advanced.notify_waiters();
    }

    /// Waits until the index holds everything up to `position`, waking the indexer if it
    /// pauses, or until indexing fails; `false` when that took longer than `limit`.
    pub async fn wait_for(&self, position: i64, limit: Duration) -> bool {
        let caught_up = async {
            loop {
                let advanced = self.advanced.notified();
                tokio::pin!(advanced);
                advanced.as_mut().enable();
                // An engine that fails answers the search itself, with its error, at once.
                if self.indexed.load(Ordering::Acquire) >= position || self.last_error().is_some() {
                    return;
                }
                self.wake.notify_one();
                advanced.await;
            }
        };
        tokio::time::timeout(limit, caught_up).await.is_ok()
    }

    /// Waits out the indexer's pause, or less when a search asks for what is not indexed yet.
    pub async fn pause(&self, pause: Duration) {
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = self.wake.notified() => {}
        }
    }

    /// The last failure, if the index has not recovered since.
    pub fn last_error(&self) -> Option<String> {
        self.last_error.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_waiting_search_wakes_the_indexer_and_goes_on_once_the_index_caught_up() {
        let state = std::sync::Arc::new(IndexState::default());
        state.indexed_up_to(3);
        assert!(state.wait_for(3, Duration::ZERO).await, "already there");
        let indexer = state.clone();
        let indexing = tokio::spawn(async move {
            indexer.pause(Duration::from_secs(3600)).await; // woken by the search
            indexer.indexed_up_to(5);
        });
        assert!(state.wait_for(5, Duration::from_secs(10)).await);
        indexing.await.unwrap();
        assert!(!state.wait_for(6, Duration::from_millis(20)).await, "nothing indexes 6");
    }
}
