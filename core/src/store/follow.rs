//! Following other instances' commits on PostgreSQL, so that what this instance keeps in memory
//! is never stale.
//!
//! Every statement that changes a table something is kept from leaves a mark naming its
//! transaction and the writing instance (a trigger, see migrations `0016_change_notify.sql` and
//! `0017_change_marks.sql`). An instance reads the marks every [`POLL_EVERY`] on one connection
//! of its own; a mark of another instance (or of any other writer, a `wcs` command or an
//! administrator's SQL) makes it forget everything it remembers and move its generation on, so
//! neither remembered facts nor kept answers outlive another's commit by more than one poll.
//!
//! Marks, not `NOTIFY`: PostgreSQL commits every transaction that notified under one lock for
//! the whole database, held until its commit is on disk, so writers could not share a flush of
//! the write-ahead log and every write waited for the one before it (4 writers: 675 writes/s).
//! A mark is a row of a transaction's own, which takes no lock others wait for.
//!
//! Which marks are new is told by transaction numbers, not by the order of commits: each poll
//! reads the marks of transactions numbered from the previous poll's horizon on, the oldest
//! transaction that was still running then. Every transaction below the horizon had ended, and
//! its marks were seen; every one from it on is read again until the horizon passes it, so a
//! mark is never missed (and at worst seen twice, which only forgets once more).
//!
//! The store remembers only while it follows: until the first poll has succeeded, and from a
//! poll that fails or takes longer than [`POLL_TIMEOUT`] (a network that silently drops
//! packets) until the connection has been opened again, every read asks the database, and
//! everything remembered is forgotten on both edges, since marks may have been missed in
//! between. Marks are trimmed once every instance must have read them ([`MARKS_KEPT`]).

use super::Store;
use sqlx::Connection;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use std::collections::VecDeque;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often the marks are read: how late another instance's commit shows here, at most
/// (plus the poll's own few milliseconds).
pub const POLL_EVERY: Duration = Duration::from_millis(50);
/// How long a poll may take before the connection counts as lost.
const POLL_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a mark is kept: an instance whose last successful poll is older than
/// [`POLL_TIMEOUT`] plus one [`POLL_EVERY`] has started over, so every following instance has
/// read a mark this old.
const MARKS_KEPT: Duration = Duration::from_secs(10);
/// How often an instance trims the marks.
const TRIM_EVERY: Duration = Duration::from_secs(5);
/// How long to wait before connecting again after a failure.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The oldest transaction still running (or, with none, the next to start), comparable with
/// the marks' numbers.
const HORIZON: &str = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint";

/// The horizon now, and whether a transaction from the last horizon on that another writer ran
/// has left a mark; both from the statement's one snapshot.
const POLL: &str = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint, \
     EXISTS (SELECT 1 FROM change_mark WHERE xid >= $1 AND instance <> $2)";

/// What an instance does besides forgetting the store's memories when another instance
/// committed a change (forget verified credentials, say).
pub type OnForeignChange = Arc<dyn Fn() + Send + Sync>;

impl Store {
    /// Starts following other instances' commits (PostgreSQL only; on SQLite this process is
    /// the only server of its database). From the first successful poll on, this instance
    /// remembers what it reads, as it does on SQLite. The follower stops once every handle of
    /// the store is dropped.
    pub fn follow_other_instances(&self, on_change: OnForeignChange) {
        if self.backend != super::Backend::Postgres {
            return;
        }
        self.run_in_background(|tasks| &tasks.follower, |store| async move { follow(&store, on_change).await });
    }

    /// Whether this store follows other instances' commits now (PostgreSQL, polling).
    pub fn follows_other_instances(&self) -> bool {
        self.backend == super::Backend::Postgres && self.memo.following.load(Ordering::Acquire)
    }

    /// This instance's name on its database connections: the following connection's
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

/// Follows, connecting again after every failure, until stopped.
async fn follow(store: &Store, on_change: OnForeignChange) {
    loop {
        let Err(err) = poll(store, &on_change).await;
        tracing::warn!(%err, "lost track of other instances' changes; reading storage meanwhile");
        store.memo.following.store(false, Ordering::Release);
        store.forget_everything();
        on_change();
        tokio::time::sleep(RETRY_AFTER).await;
    }
}

/// One following connection's life, until it fails.
async fn poll(store: &Store, on_change: &OnForeignChange) -> Result<std::convert::Infallible, sqlx::Error> {
    let options = PgConnectOptions::from_str(&store.url)?.application_name(&format!("wcs listener {}", store.instance));
    let mut connection = PgConnection::connect_with(&options).await?;
    let mut horizon: i64 = within_timeout(sqlx::query_scalar(HORIZON).fetch_one(&mut connection)).await?;
    // Forgotten after the horizon was read and before remembering starts: what was kept while
    // not following may be stale, and whatever commits from now on lies at or above it.
    store.forget_everything();
    on_change();
    store.memo.following.store(true, Ordering::Release);
    let mut trimming = Trimming::default();
    loop {
        tokio::time::sleep(POLL_EVERY).await;
        let (next, foreign): (i64, bool) =
            within_timeout(sqlx::query_as(POLL).bind(horizon).bind(&*store.instance).fetch_one(&mut connection))
                .await?;
        horizon = next;
        if foreign {
            store.forget_everything();
            on_change();
        }
        if let Some(below) = trimming.due(horizon) {
            within_timeout(sqlx::query("DELETE FROM change_mark WHERE xid < $1").bind(below).execute(&mut connection))
                .await?;
        }
    }
}

/// A statement on the following connection, which counts as lost when it takes too long.
async fn within_timeout<T>(statement: impl Future<Output = Result<T, sqlx::Error>>) -> Result<T, sqlx::Error> {
    tokio::time::timeout(POLL_TIMEOUT, statement)
        .await
        .unwrap_or_else(|_| Err(sqlx::Error::Protocol("the following connection stopped answering".into())))
}

/// When to trim the marks, and below which transaction: the horizon seen [`MARKS_KEPT`] ago.
/// Horizons only grow, and every instance that still follows has polled since then, so it has
/// read every mark below that one.
#[derive(Default)]
struct Trimming {
    /// Horizons seen at each trim time, oldest first.
    seen: VecDeque<(Instant, i64)>,
}

impl Trimming {
    /// The horizon to trim below, when a trim is due.
    fn due(&mut self, horizon: i64) -> Option<i64> {
        let now = Instant::now();
        if self.seen.back().is_some_and(|(at, _)| now.duration_since(*at) < TRIM_EVERY) {
            return None;
        }
        self.seen.push_back((now, horizon));
        let mut below = None;
        while let Some((at, seen)) = self.seen.front().copied() {
            if now.duration_since(at) < MARKS_KEPT {
                break;
            }
            below = Some(seen);
            self.seen.pop_front();
        }
        below
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_trimmed_below_a_horizon_seen_long_enough_ago() {
        let mut trimming = Trimming::default();
        assert_eq!(trimming.due(10), None, "nothing is old enough at first");
        assert_eq!(trimming.due(20), None, "nor before the next trim is due");
        let long_ago = Instant::now() - MARKS_KEPT - TRIM_EVERY;
        trimming.seen = VecDeque::from([(long_ago, 10), (long_ago + TRIM_EVERY, 15)]);
        assert_eq!(trimming.due(30), Some(15), "the newest horizon seen long enough ago");
        assert_eq!(trimming.seen.iter().map(|(_, h)| *h).collect::<Vec<_>>(), [30]);
    }
}
