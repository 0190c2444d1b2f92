//! Following other instances' commits on PostgreSQL, so that what this instance keeps in memory
//! is never stale.
//!
//! Every statement that changes a table something is kept from queues a notification on the
//! channel [`CHANNEL`] (a trigger, see migration `0016_change_notify.sql`), which PostgreSQL
//! delivers when the transaction commits. An instance listens on one connection of its own; a
//! notification from another instance (or from any other writer, a `wcs` command or an
//! administrator's SQL) makes it forget everything it remembers and move its generation on, so
//! neither remembered facts nor kept answers outlive the change by more than the notification's
//! way here (milliseconds).
//!
//! The store remembers only while it listens: until the first `LISTEN` has succeeded, and from
//! the moment the listening connection fails until it has been opened again, every read asks
//! the database, and everything remembered is forgotten on both edges, since notifications
//! may have been missed in between. A connection that stops answering without failing (a
//! network that silently drops packets) is found by a probe every [`PROBE_EVERY`] that must
//! answer within [`PROBE_TIMEOUT`]; a silent stall therefore leaves facts remembered for at most
//! their sum, and objects and answers for at most the memory's maximum age, whichever is less.

use super::Store;
use sqlx::Executor;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The channel every instance's commits are announced on.
const CHANNEL: &str = "wcs_change";
/// How often the listening connection is probed.
const PROBE_EVERY: Duration = Duration::from_secs(2);
/// How long a probe may take before the connection counts as lost.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long to wait before connecting again after a failure.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// What an instance does besides forgetting the store's memories when another instance
/// committed a change (forget verified credentials, say).
pub type OnForeignChange = Arc<dyn Fn() + Send + Sync>;

impl Store {
    /// Starts listening for other instances' commits (PostgreSQL only; on SQLite this process
    /// is the only server of its database). From the first successful `LISTEN` on, this
    /// instance remembers what it reads, as it does on SQLite. The listener stops once every
    /// handle of the store is dropped.
    pub fn follow_other_instances(&self, on_change: OnForeignChange) {
        if self.backend != super::Backend::Postgres {
            return;
        }
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        if self.follower.set(stop).is_err() {
            return;
        }
        // The listener's own handle does not hold the stop signal, so dropping every other
        // handle ends it (and then its handle, and the pool).
        let store = Store { follower: Arc::default(), ..self.clone() };
        tokio::spawn(async move {
            tokio::select! {
                () = follow(&store, on_change) => {}
                _ = stopped => {}
            }
        });
    }

    /// Whether this store follows other instances' commits now (PostgreSQL, listening).
    pub fn follows_other_instances(&self) -> bool {
        self.backend == super::Backend::Postgres && self.memo.following.load(Ordering::Acquire)
    }

    /// This instance's name on its database connections: the listening connection's
    /// `application_name` is `wcs listener <name>`.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Forgets everything remembered, and every answer kept: another instance changed
    /// something, or its changes may have been missed.
    fn forget_everything(&self) {
        self.records.forget();
        self.memo.forget_content_facts();
        self.memo.locks.forget();
        self.note_change();
    }
}

/// Listens, connecting again after every failure, until stopped.
async fn follow(store: &Store, on_change: OnForeignChange) {
    loop {
        let Err(err) = listen(store, &on_change).await;
        tracing::warn!(%err, "lost the notifications of other instances' changes; reading storage meanwhile");
        store.memo.following.store(false, Ordering::Release);
        store.forget_everything();
        on_change();
        tokio::time::sleep(RETRY_AFTER).await;
    }
}

/// One listening connection's life, until it fails.
async fn listen(store: &Store, on_change: &OnForeignChange) -> Result<std::convert::Infallible, sqlx::Error> {
    let options = PgConnectOptions::from_str(&store.url)?.application_name(&format!("wcs listener {}", store.instance));
    let pool = PgPoolOptions::new().max_connections(1).connect_with(options).await?;
    let mut listener = PgListener::connect_with(&pool).await?;
    listener.listen(CHANNEL).await?;
    let schema: String = sqlx::query_scalar("SELECT current_schema()").fetch_one(&mut listener).await?;
    // Forgotten before remembering starts: what was kept while not listening may be stale.
    store.forget_everything();
    on_change();
    store.memo.following.store(true, Ordering::Release);
    loop {
        // Waiting is cancel-safe: a notification half read stays buffered for the next wait.
        let Ok(received) = tokio::time::timeout(PROBE_EVERY, listener.try_recv()).await else {
            match tokio::time::timeout(PROBE_TIMEOUT, (&mut listener).execute("SELECT 1")).await {
                Ok(answered) => answered?,
                Err(_) => return Err(sqlx::Error::Protocol("the listening connection stopped answering".into())),
            };
            continue;
        };
        let Some(notification) = received? else {
            return Err(sqlx::Error::Protocol("the listening connection closed".into()));
        };
        if is_foreign(notification.payload(), &schema, &store.instance) {
            store.forget_everything();
            on_change();
        }
    }
}

/// Whether a notification tells of a change in this instance's schema that another writer
/// made (this instance's own commits have already updated what it remembers).
fn is_foreign(payload: &str, schema: &str, instance: &str) -> bool {
    let (in_schema, by) = payload.split_once(' ').unwrap_or((payload, ""));
    in_schema == schema && by != instance
}

#[cfg(test)]
mod tests {
    use super::is_foreign;

    #[test]
    fn only_other_writers_in_the_same_schema_count() {
        assert!(is_foreign("public abc", "public", "def"));
        assert!(is_foreign("public ", "public", "def"), "a writer that is no instance");
        assert!(!is_foreign("public def", "public", "def"), "this instance's own commit");
        assert!(!is_foreign("other abc", "public", "def"), "another site's schema");
    }
}
