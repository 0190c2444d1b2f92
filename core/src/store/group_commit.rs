//! Group commit: write transactions that queue up behind one another share one database
//! commit, and so one `fsync`.
//!
//! SQLite has one writer, and a commit with `synchronous=FULL` waits for the disk (1–4 ms here),
//! so acknowledging every write after its own `fsync` caps writes at a few hundred per second
//! whatever the CPU does. PostgreSQL lets writers commit side by side, but writes to one object
//! wait for one another's row lock, which is held until the commit is on disk: four editors
//! saving one page took turns at 600–850 writes/s. So on both, an instance's write transactions
//! run on the store's one writer connection
//! inside a database transaction that stays open while further writers are queued: the last
//! of them commits for all, and each is answered only after that commit. Durability is
//! unchanged (nothing is acknowledged before its `fsync`), and so is isolation (readers on the
//! pool see the whole group at once, or none of it). A writer that joins an open group runs in
//! a savepoint, so if it fails it takes back only its own changes; the first writer of a group
//! needs none (nobody else is in it yet), which spares a lone write two statements. A group is
//! bounded in members and in age, so the first member's wait stays short.
//!
//! Each statement is a round trip to PostgreSQL, or a hand-off to SQLite's connection thread
//! and back, which on a small machine costs more than a short statement; every write waits for
//! this one connection. So a finished member opens the next member's savepoint in the statement
//! that releases its own, and the change feed's rows of the whole group, which nothing reads
//! before the commit, are written by one statement just before it (on SQLite in the same
//! hand-off as the `COMMIT`; PostgreSQL prepares one statement at a time).
//!
//! On PostgreSQL other instances write beside this one's group, each with a group of its own:
//! a member waiting for a row another instance's group holds makes this instance's later
//! writers wait too (no longer than that group, which is bounded like this one), and two
//! groups waiting for each other are a deadlock that PostgreSQL breaks by failing one
//! member's statement, a 409 to that writer alone. The connection is tested before a group
//! when it lay idle or the last group failed, and replaced if dead, so a server restart
//! costs the writes in flight a 503 and nothing more.

use super::Backend;
use super::feed::{self, FeedRow};
pub(super) use link::Link;
use sqlx::{AnyConnection, Executor};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Mutex, OwnedMutexGuard, oneshot};

/// How a group's commit went, for every member: a database error as it was, so that a lost
/// connection is a 503 and a deadlock a 409 for each of them, or a cause in words.
#[derive(Clone, Debug)]
pub(super) enum Failure {
    Database(Arc<sqlx::Error>),
    Lost(&'static str),
}

type Outcome = Result<(), Failure>;

/// A group is not kept open for further members once its first member has been waiting this
/// long for its answer, so that answer is never held back for long.
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
    conn: Link,
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
    /// When the first member finished (or, until then, began): the age [`MAX_AGE`] bounds.
    opened: Instant,
    /// How many members it may have.
    max_members: usize,
    members: Vec<oneshot::Sender<Outcome>>,
    /// The change feed's rows of the members so far, written just before the commit.
    feed: Vec<FeedRow>,
    /// A savepoint a finished member opened for the next one, in the same statement as its
    /// own release: the next member starts without a statement of its own.
    spare: bool,
}

impl Group {
    /// Whether one more member may join before the group commits: it is neither full nor old.
    fn has_room(&self) -> bool {
        self.members.len() + 1 < self.max_members && self.opened.elapsed() < MAX_AGE
    }
}

/// One write transaction's hold on the writer connection.
pub(super) struct Member {
    guard: OwnedMutexGuard<WriterState>,
    writer: Writer,
    settle: Settle,
}

impl Writer {
    pub(super) fn new(conn: Link) -> Writer {
        let state = WriterState { conn, group: None, running: Running::Nothing, wrote: false };
        Writer { state: Arc::new(Mutex::new(state)), queued: Arc::new(AtomicUsize::new(0)) }
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
        match &mut state.group {
            None => {
                state.conn.make_ready().await?;
                let max_members = state.conn.max_members();
                state.group = Some(Group {
                    opened: Instant::now(),
                    max_members,
                    members: Vec::new(),
                    feed: Vec::new(),
                    spare: false,
                });
                state.running = Running::Transaction;
                state.wrote = true;
                let begin = state.conn.begin_statement();
                state.conn.execute(begin).await?;
            }
            Some(group) if group.spare => {
                group.spare = false;
                state.running = Running::Savepoint;
            }
            Some(_) => {
                state.running = Running::Savepoint;
                state.conn.execute("SAVEPOINT wcs_tx").await?;
            }
        }
        Ok(member)
    }

    /// Rolls back what an abandoned member left, and commits an open group that nobody is
    /// queued to join, or that is full or old: run after a member or a queued writer went away
    /// without finishing. Without the bound, writers that keep failing (a stream of 412s on a
    /// busy object) would keep the group open, and the writes in it unanswered and unseen.
    async fn settle(self) {
        let mut guard = self.state.clone().lock_owned().await;
        guard.roll_back_abandoned().await;
        let nobody_queued = self.queued.load(Ordering::Acquire) == 0;
        if guard.group.as_ref().is_some_and(|group| nobody_queued || !group.has_room()) {
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
            && guard.conn.backend == Backend::Sqlite
            && let Err(err) = guard.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").await
        {
            tracing::warn!(%err, "checkpoint at shutdown failed; the WAL is replayed at the next start");
        }
        drop(guard);
        committed.tell();
    }
}

/// The connection, inside this member's savepoint or transaction.
impl std::ops::Deref for Member {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        &self.guard.conn
    }
}

impl std::ops::DerefMut for Member {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.guard.conn
    }
}

impl Member {
    /// Keeps this member's changes, with `feed` for the change feed, and waits until they are
    /// durable: the group is committed now if nobody is queued to join it (or it is full or
    /// old), else by a later member.
    pub(super) async fn commit(self, feed: Vec<FeedRow>) -> Outcome {
        let Member { mut guard, writer, settle } = self;
        let numbered = guard.group.as_ref().map_or(0, |group| group.feed.len()) + feed.len();
        if numbered >= feed::ROWS_PER_TRANSACTION {
            // Left open: `settle` takes this member back.
            let cause = format!("{numbered} changes in one transaction are more than the feed numbers");
            return Err(Failure::Database(Arc::new(sqlx::Error::Protocol(cause))));
        }
        // The first member's wait for its answer starts now, however long it ran.
        if guard.running == Running::Transaction
            && let Some(group) = guard.group.as_mut()
        {
            group.opened = Instant::now();
        }
        let room_left = guard.group.as_ref().is_some_and(Group::has_room);
        let keep_open = room_left && writer.queued.load(Ordering::Acquire) > 0;
        // A group kept open gets the next member's savepoint in the same statement; one about
        // to commit needs no release, since the commit keeps every savepoint's changes.
        let statement = match (guard.running == Running::Savepoint, keep_open) {
            (true, true) => Some("RELEASE wcs_tx; SAVEPOINT wcs_tx"),
            (false, true) => Some("SAVEPOINT wcs_tx"),
            (_, false) => None,
        };
        // A failure leaves this member's savepoint or transaction open, and `settle` takes it
        // back.
        if let Some(statement) = statement {
            guard.conn.execute(statement).await.map_err(|e| Failure::Database(Arc::new(e)))?;
        }
        guard.running = Running::Nothing;
        settle.disarm();
        let (sender, outcome) = oneshot::channel();
        if let Some(group) = guard.group.as_mut() {
            group.members.push(sender);
            group.feed.extend(feed);
            group.spare = keep_open;
        }
        if !keep_open {
            // In a task of its own, so a cancelled request cannot interrupt the commit that
            // other members wait for.
            tokio::spawn(finish(guard));
        } else {
            drop(guard);
        }
        outcome.await.unwrap_or(Err(Failure::Lost("the write group ended without an outcome")))
    }
}

impl WriterState {
    async fn commit_group(&mut self) -> Committed {
        let Some(group) = self.group.take() else { return Committed(Vec::new(), Ok(())) };
        let outcome = match self.write_feed_and_commit(&group.feed).await {
            Ok(()) => Ok(()),
            Err(err) => {
                let _ = self.conn.execute("ROLLBACK").await;
                self.conn.doubt();
                Err(Failure::Database(Arc::new(err)))
            }
        };
        Committed(group.members, outcome)
    }

    /// Writes the group's change feed rows and commits: on SQLite the last statement goes
    /// in the same hand-off as the `COMMIT`.
    async fn write_feed_and_commit(&mut self, rows: &[FeedRow]) -> Result<(), sqlx::Error> {
        let backend = self.conn.backend;
        let mut statements = feed::insert_statements(backend, rows);
        let last = match backend {
            Backend::Sqlite => statements.pop(),
            Backend::Postgres => None,
        };
        for (sql, values) in statements {
            bound(sql, values).execute(&mut *self.conn).await?;
        }
        match last {
            Some((sql, values)) => bound(format!("{sql};\nCOMMIT"), values).execute(&mut *self.conn).await?,
            None => self.conn.execute("COMMIT").await?,
        };
        Ok(())
    }

    async fn roll_back_abandoned(&mut self) {
        let running = std::mem::replace(&mut self.running, Running::Nothing);
        if running != Running::Nothing {
            self.conn.doubt();
        }
        let rolled_back = match running {
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
                tracing::error!(%err, "rolling back an abandoned write failed: write group rolled back");
                let failure = Failure::Database(Arc::new(err));
                for member in group.members {
                    let _ = member.send(Err(failure.clone()));
                }
            }
        }
    }
}

/// `sql` with its placeholders' `values`: our own statements, with input only in the values.
fn bound(sql: String, values: Vec<Option<String>>) -> sqlx::query::Query<'static, sqlx::Any, sqlx::any::AnyArguments> {
    values.into_iter().fold(sqlx::query(sqlx::AssertSqlSafe(sql)), |query, value| query.bind(value))
}

/// Commits the open group, frees the connection, then tells every member the outcome.
async fn finish(mut guard: OwnedMutexGuard<WriterState>) {
    let committed = guard.commit_group().await;
    drop(guard);
    committed.tell();
}

/// A group's members and how its commit went.
struct Committed(Vec<oneshot::Sender<Outcome>>, Outcome);

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

mod link;
#[cfg(test)]
mod tests;
