//! Work a store does on its own while the application holds it: following other instances'
//! commits ([`super::follow`]) and trimming the change feed ([`super::change_feed`]).
//!
//! Each task runs on a handle of its own that holds none of the stop signals, and the signals
//! live in the handles the application holds; so once the last of those is dropped (a server
//! stopped, a test's server gone), every task ends and the pool with it.

use super::Store;
use std::future::Future;
use std::sync::{Arc, OnceLock};
use tokio::sync::oneshot;

/// The stop signal of each kind of background task, set when the task starts.
#[derive(Default)]
pub(super) struct Tasks {
    pub follower: OnceLock<oneshot::Sender<()>>,
    pub trimmer: OnceLock<oneshot::Sender<()>>,
}

impl Store {
    /// Starts `work` on a handle without stop signals, once per kind (`slot` says which): a
    /// second start of the same kind does nothing.
    pub(super) fn run_in_background<F>(
        &self,
        slot: fn(&Tasks) -> &OnceLock<oneshot::Sender<()>>,
        work: impl FnOnce(Store) -> F,
    ) where
        F: Future<Output = ()> + Send + 'static,
    {
        let (stop, stopped) = oneshot::channel::<()>();
        if slot(&self.tasks).set(stop).is_err() {
            return;
        }
        let work = work(Store { tasks: Arc::default(), ..self.clone() });
        tokio::spawn(async move {
            tokio::select! {
                () = work => {}
                _ = stopped => {}
            }
        });
    }
}
