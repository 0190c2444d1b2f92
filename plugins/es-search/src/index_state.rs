//! What the index is doing, shared by the background indexer, rebuilds and `@es-admin`: one
//! writer at a time (the engine stages writes until a commit, so a rebuild and the indexer must
//! not commit each other's half-done work), whether a rebuild runs, and the last failure.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The shared state of one application's index.
#[derive(Default)]
pub struct IndexState {
    /// Held while staging and committing; searches never wait for it.
    pub writing: tokio::sync::Mutex<()>,
    rebuilding: AtomicBool,
    last_error: Mutex<Option<String>>,
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
        *self.last_error.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = outcome.err();
    }

    /// The last failure, if the index has not recovered since.
    pub fn last_error(&self) -> Option<String> {
        self.last_error.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}
