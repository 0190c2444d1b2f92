//! Group commit on SQLite: write transactions that queue up behind one another share one
//! database commit, and so one `fsync`.
//!
//! SQLite has one writer, and a commit with `synchronous=FULL` waits for the disk (1–4 ms here),
//! so acknowledging every write after its own `fsync` caps writes at a few hundred per second
//! whatever the CPU does. Instead, write transactions run on the store's one writer connection
//! inside a database transaction that stays open while further writers are queued: the last
//! of them commits for all, and each is answered only after that commit. Durability is
//! unchanged (nothing is acknowledged before its `fsync`), and so is isolation (readers on the
//! pool see the whole group at once, or none of it). A writer that joins an open group runs in
//! a savepoint, so if it fails it takes back only its own changes; the first writer of a group
//! needs none (nobody else is in it yet), which spares a lone write two statements. A group is
//! bounded in members and in age, so the first member's wait stays short.

use sqlx::{AnyConnection, Executor};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Mutex, OwnedMutexGuard, oneshot};

/// The most write transactions one commit covers.
const MAX_MEMBERS: usize = 64;

/// A group is not kept open for further members once it is this old, so the first member's
/// answer is never held back for long.
const MAX_AGE: Duration = Duration::from_millis(10);

/// The one writer connection, and the group it has open.
#[derive(Clone)]
pub(super) struct Writer {
    state: Arc<Mutex<WriterState>>,
    /// Writers queued for the connection: while there are any, a finished member leaves the
    /// group open for them.
    queued: Arc<AtomicUsize>,
}

pub(super) struct WriterState {
    conn: AnyConnection,
    group: Option<Group>,
    /// What the running member would leave behind if it ended without committing (an error, a
    /// cancelled request): the next holder of the connection takes it back first.
    running: Running,
    /// Whether this process wrote at all (a tool that only reads leaves the WAL alone).
    wrote: bool,
}

/// What a member that has not committed yet has opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Running {
    Nothing,
    /// The group's transaction, which it opened.
    Transaction,
    /// A savepoint in a group others are already waiting in.
    Savepoint,
}

/// The members waiting for the commit of the open database transaction.
struct Group {
    opened: Instant,
    members: Vec<oneshot::Sender<Result<(), String>>>,
}

/// One write transaction's hold on the writer connection.
pub(super) struct Member {
    guard: OwnedMutexGuard<WriterState>,
    writer: Writer,
    settle: Settle,
}

impl Writer {
    pub(super) fn new(conn: AnyConnection) -> Writer {
        Writer {
            state: Arc::new(Mutex::new(WriterState { conn, group: None, running: Running::Nothing, wrote: false })),
            queued: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Waits for the connection, then opens a group or joins the open one.
    pub(super) async fn join(&self) -> Result<Member, sqlx::Error> {
        let queued = Queued::new(self.clone());
        let guard = self.state.clone().lock_owned().await;
        queued.served();
        let mut member = Member { guard, writer: self.clone(), settle: Settle(Some(self.clone())) };
        member.guard.roll_back_abandoned().await;
        let state = &mut *member.guard;
        // Recorded before the statement: one cut off midway is taken back all the same.
        if state.group.is_none() {
            state.group = Some(Group { opened: Instant::now(), members: Vec::new() });
            state.running = Running::Transaction;
            state.wrote = true;
            state.conn.execute("BEGIN IMMEDIATE").await?;
        } else {
            state.running = Running::Savepoint;
            state.conn.execute("SAVEPOINT wcs_tx").await?;
        }
        Ok(member)
    }

    /// Rolls back what an abandoned member left, and commits an open group that nobody is
    /// queued to join: run after a member or a queued writer went away without finishing.
    async fn settle(self) {
        let mut guard = self.state.clone().lock_owned().await;
        guard.roll_back_abandoned().await;
        if guard.group.is_some() && self.queued.load(Ordering::Acquire) == 0 {
            finish(guard).await;
        }
    }
}

impl Writer {
    /// Commits what is still open and folds the WAL into the database file: the writer
    /// connection outlives the pool, so closing the pool alone leaves the WAL behind.
    pub(super) async fn close(&self) {
        let mut guard = self.state.clone().lock_owned().await;
        guard.roll_back_abandoned().await;
        let committed = guard.commit_group().await;
        if guard.wrote
            && let Err(err) = guard.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").await
        {
            tracing::warn!(%err, "checkpoint at shutdown failed; the WAL is replayed at the next start");
        }
        drop(guard);
        committed.tell();
    }
}

impl Member {
    /// The connection, inside this member's savepoint.
    pub(super) fn connection(&self) -> &AnyConnection {
        &self.guard.conn
    }

    /// The connection, inside this member's savepoint.
    pub(super) fn connection_mut(&mut self) -> &mut AnyConnection {
        &mut self.guard.conn
    }

    /// Keeps this member's changes and waits until they are durable: the group is committed
    /// now if nobody is queued to join it (or it is full or old), else by a later member.
    pub(super) async fn commit(self) -> Result<(), String> {
        let Member { mut guard, writer, settle } = self;
        if guard.running == Running::Savepoint {
            guard.conn.execute("RELEASE wcs_tx").await.map_err(|e| e.to_string())?;
        }
        guard.running = Running::Nothing;
        settle.disarm();
        let (sender, outcome) = oneshot::channel();
        let room_left = guard.group.as_mut().is_some_and(|group| {
            group.members.push(sender);
            group.members.len() < MAX_MEMBERS && group.opened.elapsed() < MAX_AGE
        });
        let keep_open = room_left && writer.queued.load(Ordering::Acquire) > 0;
        if !keep_open {
            // In a task of its own, so a cancelled request cannot interrupt the commit that
            // other members wait for.
            tokio::spawn(finish(guard));
        } else {
            drop(guard);
        }
        outcome.await.unwrap_or_else(|_| Err("the write group ended without an outcome".to_owned()))
    }
}

impl WriterState {
    async fn commit_group(&mut self) -> Committed {
        let Some(group) = self.group.take() else { return Committed(Vec::new(), Ok(())) };
        let outcome = match self.conn.execute("COMMIT").await {
            Ok(_) => Ok(()),
            Err(err) => {
                let _ = self.conn.execute("ROLLBACK").await;
                Err(err.to_string())
            }
        };
        Committed(group.members, outcome)
    }

    async fn roll_back_abandoned(&mut self) {
        let rolled_back = match std::mem::replace(&mut self.running, Running::Nothing) {
            Running::Nothing => return,
            Running::Transaction => {
                // Fails harmlessly if the BEGIN itself was cut off.
                let _ = self.conn.execute("ROLLBACK").await;
                self.group = None;
                return;
            }
            Running::Savepoint => match self.conn.execute("ROLLBACK TO wcs_tx").await {
                Ok(_) => self.conn.execute("RELEASE wcs_tx").await.map(|_| ()),
                Err(e) => Err(e),
            },
        };
        if let Err(err) = rolled_back {
            // The savepoint is not where it should be (its statement was cut off): nothing of
            // the group can be trusted, and none of it was acknowledged.
            let _ = self.conn.execute("ROLLBACK").await;
            if let Some(group) = self.group.take() {
                let cause = format!("rolling back an abandoned write failed: {err}");
                tracing::error!(%cause, "write group rolled back");
                for member in group.members {
                    let _ = member.send(Err(cause.clone()));
                }
            }
        }
    }
}

/// Commits the open group, frees the connection, then tells every member the outcome.
async fn finish(mut guard: OwnedMutexGuard<WriterState>) {
    let committed = guard.commit_group().await;
    drop(guard);
    committed.tell();
}

/// A group's members and how its commit went.
struct Committed(Vec<oneshot::Sender<Result<(), String>>>, Result<(), String>);

impl Committed {
    fn tell(self) {
        let Committed(members, outcome) = self;
        for member in members {
            let _ = member.send(outcome.clone());
        }
    }
}

/// Counts a writer as queued until it holds the connection; one that gives up waiting (its
/// request was cancelled) may leave a group open that nobody would commit, so it settles it.
struct Queued(Option<Writer>);

impl Queued {
    fn new(writer: Writer) -> Queued {
        writer.queued.fetch_add(1, Ordering::AcqRel);
        Queued(Some(writer))
    }

    fn served(mut self) {
        if let Some(writer) = self.0.take() {
            writer.queued.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        if let Some(writer) = self.0.take() {
            writer.queued.fetch_sub(1, Ordering::AcqRel);
            spawn_settle(writer);
        }
    }
}

/// Settles the writer when a member is dropped without committing.
struct Settle(Option<Writer>);

impl Settle {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for Settle {
    fn drop(&mut self) {
        if let Some(writer) = self.0.take() {
            spawn_settle(writer);
        }
    }
}

fn spawn_settle(writer: Writer) {
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(writer.settle());
    }
}

#[cfg(test)]
mod tests {
    use crate::store::Store;
    use sqlx::Row;
    use std::sync::atomic::Ordering;
    use std::time::Duration;
    use tokio::sync::oneshot;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    async fn store(dir: &tempfile::TempDir) -> Result<Store, Box<dyn std::error::Error>> {
        Ok(Store::open(&format!("sqlite://{}?mode=rwc", dir.path().join("wcs.db").display())).await?)
    }

    /// What a reader on the pool sees, bypassing the store's memory of records.
    async fn committed(store: &Store, name: &str) -> Result<Option<String>, sqlx::Error> {
        let row =
            sqlx::query("SELECT value FROM record WHERE name = $1").bind(name).fetch_optional(store.pool()).await?;
        row.map(|row| row.try_get(0)).transpose()
    }

    async fn wait_until(what: &str, mut done: impl FnMut() -> bool) -> TestResult {
        for _ in 0..500 {
            if done() {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        Err(format!("timed out waiting until {what}").into())
    }

    #[tokio::test]
    async fn a_writer_is_answered_after_the_group_commits_and_a_failed_member_takes_only_its_own_changes() -> TestResult
    {
        let dir = tempfile::tempdir()?;
        let store = store(&dir).await?;
        let writer = store.writer.clone().ok_or("SQLite has a writer")?;

        let mut first = store.begin().await?;
        first.set_record("first", "kept").await?;

        // A second writer queues behind the first, writes, then fails (is dropped) on cue.
        let (joined, has_joined) = oneshot::channel();
        let (fail, fail_now) = oneshot::channel::<()>();
        let second_store = store.clone();
        let second = tokio::spawn(async move {
            let mut tx = second_store.begin().await?;
            tx.set_record("second", "rolled back").await?;
            let _ = joined.send(());
            let _ = fail_now.await;
            drop(tx);
            Ok::<_, sqlx::Error>(())
        });
        wait_until("the second writer queues", || writer.queued.load(Ordering::Acquire) == 1).await?;

        let first_commit = tokio::spawn(first.commit());
        has_joined.await?;
        // The second writer joined the first one's group: the first is not answered yet, and
        // readers see nothing of the group.
        assert!(!first_commit.is_finished(), "the first writer was answered before its group committed");
        assert_eq!(committed(&store, "first").await?, None, "a reader saw an uncommitted group");

        fail.send(()).map_err(|_| "the second writer is gone")?;
        second.await??;
        tokio::time::timeout(Duration::from_secs(5), first_commit).await???;
        assert_eq!(committed(&store, "first").await?.as_deref(), Some("kept"));
        assert_eq!(committed(&store, "second").await?, None, "the failed member's write was committed");

        // The writer is free and the next transaction starts a group of its own.
        let mut third = store.begin().await?;
        third.set_record("third", "kept").await?;
        third.commit().await?;
        assert_eq!(committed(&store, "third").await?.as_deref(), Some("kept"));
        Ok(())
    }

    #[tokio::test]
    async fn concurrent_writers_are_all_durable_once_answered() -> TestResult {
        let dir = tempfile::tempdir()?;
        let store = store(&dir).await?;
        let writers: Vec<_> = (0..40)
            .map(|i| {
                let store = store.clone();
                tokio::spawn(async move {
                    let mut tx = store.begin().await?;
                    tx.set_record(&format!("writer-{i}"), &i.to_string()).await?;
                    tx.commit().await.map_err(|e| format!("{e:?}"))?;
                    // Answered means committed: a fresh reader sees it at once.
                    let seen = committed(&store, &format!("writer-{i}")).await?;
                    Ok::<_, Box<dyn std::error::Error + Send + Sync>>(seen == Some(i.to_string()))
                })
            })
            .collect();
        for (i, writer) in writers.into_iter().enumerate() {
            assert!(writer.await?.map_err(|e| e.to_string())?, "writer {i} was answered before its write was visible");
        }
        Ok(())
    }

    #[tokio::test]
    async fn a_writer_cancelled_midway_leaves_nothing_and_blocks_nobody() -> TestResult {
        let dir = tempfile::tempdir()?;
        let store = store(&dir).await?;
        let cancelled_store = store.clone();
        let (written, has_written) = oneshot::channel();
        let cancelled = tokio::spawn(async move {
            let mut tx = cancelled_store.begin().await?;
            tx.set_record("cancelled", "never").await?;
            let _ = written.send(());
            std::future::pending::<()>().await;
            Ok::<_, sqlx::Error>(())
        });
        has_written.await?;
        cancelled.abort();
        let mut next = tokio::time::timeout(Duration::from_secs(5), store.begin()).await??;
        next.set_record("next", "kept").await?;
        tokio::time::timeout(Duration::from_secs(5), next.commit()).await?.map_err(|e| format!("{e:?}"))?;
        assert_eq!(committed(&store, "cancelled").await?, None);
        assert_eq!(committed(&store, "next").await?.as_deref(), Some("kept"));
        Ok(())
    }
}
