//! The change feed's rows: appending a transaction's events, reading them by sequence
//! number, consumers' positions, and trimming.

use super::rows::{time_from_db, time_to_db};
use super::{Backend, Store, Tx};
use crate::events::Event;
use chrono::{DateTime, Utc};
use sqlx::Row;

/// One entry of the change feed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Its place in the feed, never reused: increasing in commit order on SQLite, in
    /// transaction order on PostgreSQL, where an entry is read only once none can appear below.
    pub seq: i64,
    /// The object.
    pub uid: String,
    /// What happened ([`Event::kind`]).
    pub kind: String,
    /// The object's path then, where the event names one (added, moved, removed).
    pub path: Option<String>,
    /// When the change was committed (near enough: when it was recorded).
    pub time: DateTime<Utc>,
}

/// The most entries [`Store::feed_lag`] and [`Store::entries_after`] count on PostgreSQL, which
/// bounds their cost.
const LAG_COUNTED: i64 = 100_000;

/// Rows per `INSERT` statement (four parameters each).
const ROWS_PER_STATEMENT: usize = 100;

fn path_of(event: &Event) -> Option<&str> {
    match event {
        Event::Added { path, .. } | Event::Removed { path, .. } => Some(path),
        Event::Moved { to, .. } => Some(to),
        _ => None,
    }
}

/// On PostgreSQL, an entry's number is the counter's frozen base plus its transaction's number
/// shifted by this many bits plus its place in the transaction: numbers then need no row that
/// every write keeps locked until its commit is on disk (see migration 0017).
const TRANSACTION_SHIFT: u32 = 24;

/// The counter: on SQLite the last number handed out, on PostgreSQL the base of its numbers.
const BASE: &str = "(SELECT last_seq FROM change_feed_counter WHERE id = 1)";

/// An entry waiting for its write group's commit, which writes the whole group's entries at
/// once (see [`insert_statements`]).
pub(super) struct FeedRow {
    uid: String,
    kind: &'static str,
    path: Option<String>,
    time: String,
}

/// The most entries one database transaction can number on PostgreSQL.
pub(super) const ROWS_PER_TRANSACTION: usize = 1 << TRANSACTION_SHIFT;

impl Tx {
    /// Queues `events` for the feed. Their rows are written by the write group's commit, with
    /// those of every other member, just before its `COMMIT` (nothing reads the feed inside a
    /// transaction): one statement for the group rather than one for each write, and each
    /// statement is a round trip to PostgreSQL or a hand-off to SQLite's thread that every
    /// writer waits for. A member rolled back takes its queued rows with it.
    pub(crate) fn append_changes(&mut self, events: &[Event]) {
        let time = time_to_db(Utc::now());
        self.feed.extend(events.iter().map(|event| FeedRow {
            uid: event.uid().to_owned(),
            kind: event.kind(),
            path: path_of(event).map(str::to_owned),
            time: time.clone(),
        }));
        // The statement is the group's, but counted with the write that needs it.
        if !events.is_empty() {
            self.count();
        }
    }

    /// Remembers that `consumer` has handled everything up to `seq`.
    pub async fn set_feed_position(&mut self, consumer: &str, seq: i64) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO change_feed_position (consumer, seq, updated) VALUES ($1, $2, $3) \
             ON CONFLICT (consumer) DO UPDATE SET seq = excluded.seq, updated = excluded.updated",
        )
        .bind(consumer)
        .bind(seq)
        .bind(time_to_db(Utc::now()))
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }
}

impl Store {
    /// How many entries the slowest registered consumer has not taken in yet (on PostgreSQL,
    /// whose numbers have gaps, counted up to [`LAG_COUNTED`]).
    pub async fn feed_lag(&self) -> Result<i64, sqlx::Error> {
        self.count();
        let sql = entries_after_sql(self.backend, "(SELECT MIN(seq) FROM change_feed_position)");
        sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_one(&self.pool).await?.try_get(0)
    }

    /// Up to `limit` entries after `seq`, oldest first: on PostgreSQL only those no entry
    /// can still appear below.
    pub async fn changes_after(&self, seq: i64, limit: i64) -> Result<Vec<Change>, sqlx::Error> {
        self.count();
        let below = match self.backend {
            Backend::Sqlite => String::new(),
            Backend::Postgres => format!(" AND seq < {}", horizon()),
        };
        let sql =
            format!("SELECT seq, uid, kind, path, time FROM change_feed WHERE seq > $1{below} ORDER BY seq LIMIT $2");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(seq).bind(limit).fetch_all(&self.pool).await?;
        changes_from(&rows)
    }

    /// The newest `limit` entries still kept, newest first.
    pub async fn latest_changes(&self, limit: i64) -> Result<Vec<Change>, sqlx::Error> {
        self.count();
        let rows = sqlx::query("SELECT seq, uid, kind, path, time FROM change_feed ORDER BY seq DESC LIMIT $1")
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        changes_from(&rows)
    }

    /// How far `consumer` has read; 0 for one never seen.
    pub async fn feed_position(&self, consumer: &str) -> Result<i64, sqlx::Error> {
        self.count();
        let row = sqlx::query("SELECT seq FROM change_feed_position WHERE consumer = $1")
            .bind(consumer)
            .fetch_optional(&self.pool)
            .await?;
        row.map_or(Ok(0), |row| row.try_get(0))
    }

    /// Where a consumer that has just rebuilt everything from storage starts: the newest
    /// entry's number (0 for an empty feed) on SQLite; on PostgreSQL the last number below
    /// which no entry can still appear (entries above it that have already committed come to
    /// the consumer again, which takes them in once more).
    pub async fn feed_end(&self) -> Result<i64, sqlx::Error> {
        self.count();
        let sql = match self.backend {
            Backend::Sqlite => "SELECT last_seq FROM change_feed_counter WHERE id = 1".to_owned(),
            Backend::Postgres => format!("SELECT {} - 1", horizon()),
        };
        sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_one(&self.pool).await?.try_get(0)
    }

    /// The newest committed entry's number (0 for an empty feed): what a reader waits for to
    /// find every write acknowledged before it began. On PostgreSQL it can lie above
    /// [`Store::feed_end`] while a transaction that began earlier is still running (in any
    /// database of the cluster), until which a consumer cannot read past that transaction.
    pub async fn feed_newest(&self) -> Result<i64, sqlx::Error> {
        if self.backend == Backend::Sqlite {
            return self.feed_end().await;
        }
        self.count();
        let sql = format!("SELECT COALESCE((SELECT MAX(seq) FROM change_feed), {BASE})");
        sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_one(&self.pool).await?.try_get(0)
    }

    /// How many entries after `seq` a consumer there has still to read (on PostgreSQL, whose
    /// numbers have gaps, counted up to [`LAG_COUNTED`]).
    pub async fn entries_after(&self, seq: i64) -> Result<i64, sqlx::Error> {
        self.count();
        let sql = entries_after_sql(self.backend, "$1");
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(seq).fetch_one(&self.pool).await?.try_get(0)
    }

    /// Deletes the entries recorded before `cutoff` that every consumer seen since `alive` has
    /// read (a consumer gone longer, say an instance taken down for good, holds nothing back);
    /// returns how many went. The newest number deleted is kept ([`Store::feed_kept_after`]).
    pub async fn trim_feed(&self, cutoff: DateTime<Utc>, alive: DateTime<Utc>) -> Result<u64, sqlx::Error> {
        const TRIMMED: &str = "time < $1 \
             AND seq <= COALESCE((SELECT MIN(seq) FROM change_feed_position WHERE updated >= $2), seq)";
        // The oldest entry comes from the time index at once; the statements below scan.
        self.count();
        let oldest: Option<String> =
            sqlx::query_scalar("SELECT MIN(time) FROM change_feed").fetch_one(&self.pool).await?;
        if oldest.is_none_or(|oldest| oldest >= time_to_db(cutoff)) {
            return Ok(0);
        }
        let mut tx = self.pool.begin().await?;
        self.count();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE change_feed_counter SET trimmed = COALESCE((SELECT MAX(seq) FROM change_feed WHERE {TRIMMED}), trimmed) \
             WHERE id = 1"
        )))
        .bind(time_to_db(cutoff))
        .bind(time_to_db(alive))
        .execute(&mut *tx)
        .await?;
        self.count();
        let done = sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM change_feed WHERE {TRIMMED}")))
            .bind(time_to_db(cutoff))
            .bind(time_to_db(alive))
            .execute(&mut *tx)
            .await?;
        self.count();
        tx.commit().await?;
        Ok(done.rows_affected())
    }

    /// Whether every entry after `seq` is still in the feed, so a consumer that read up to
    /// there can go on from the feed rather than rebuild from storage. Numbers have gaps on
    /// PostgreSQL, so what trimming deleted is told by the newest number it deleted.
    pub async fn feed_kept_after(&self, seq: i64) -> Result<bool, sqlx::Error> {
        self.count();
        let trimmed: i64 =
            sqlx::query_scalar("SELECT trimmed FROM change_feed_counter WHERE id = 1").fetch_one(&self.pool).await?;
        Ok(seq >= trimmed)
    }
}

/// The statements that write a write group's queued entries, `rows`, in order, each with the
/// values of its placeholders (`$1…`, four a row), numbered so that a consumer never sees an
/// entry appear below one it has read.
///
/// On SQLite, whose one writer commits in the order it writes, the numbers follow commits:
/// the first statement bumps the counter, which locks its row until the transaction ends (at
/// no cost there), and each row's number is the counter's new value minus its distance from
/// the end, read by a subquery that sees the bump already made.
///
/// On PostgreSQL, where writers commit side by side, the numbers follow transaction numbers
/// ([`TRANSACTION_SHIFT`]), and readers stop below the oldest transaction still running
/// ([`horizon`]): no row that every write keeps locked until its commit is on disk.
pub(super) fn insert_statements(backend: Backend, rows: &[FeedRow]) -> Vec<(String, Vec<Option<String>>)> {
    let count = rows.len();
    rows.chunks(ROWS_PER_STATEMENT)
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let start = chunk_index * ROWS_PER_STATEMENT;
            let mut params = Vec::with_capacity(chunk.len() * 4);
            let values: Vec<String> = chunk
                .iter()
                .enumerate()
                .map(|(i, row)| {
                    // Our own numbers, not input: safe to write into the statement.
                    let seq = match backend {
                        Backend::Sqlite => format!("{BASE} - {}", count - (start + i) - 1),
                        Backend::Postgres => format!(
                            "{BASE} + (pg_current_xact_id()::text::bigint << {TRANSACTION_SHIFT}) + {}",
                            start + i
                        ),
                    };
                    let p = i * 4;
                    params.extend([
                        Some(row.uid.clone()),
                        Some(row.kind.to_owned()),
                        row.path.clone(),
                        Some(row.time.clone()),
                    ]);
                    format!("({seq}, ${}, ${}, ${}, ${})", p + 1, p + 2, p + 3, p + 4)
                })
                .collect();
            let insert = format!("INSERT INTO change_feed (seq, uid, kind, path, time) VALUES {}", values.join(", "));
            let sql = match (chunk_index, backend) {
                (0, Backend::Sqlite) => {
                    format!("UPDATE change_feed_counter SET last_seq = last_seq + {count} WHERE id = 1;\n{insert}")
                }
                _ => insert,
            };
            (sql, params)
        })
        .collect()
}

/// The statement counting the entries a consumer at `after` (an SQL expression; none there
/// when it is null) has still to read: on SQLite the numbers up to the counter, on PostgreSQL,
/// whose numbers have gaps, the entries below the horizon, at most [`LAG_COUNTED`] of them.
fn entries_after_sql(backend: Backend, after: &str) -> String {
    match backend {
        Backend::Sqlite => {
            format!("SELECT MAX(last_seq - COALESCE({after}, last_seq), 0) FROM change_feed_counter WHERE id = 1")
        }
        Backend::Postgres => format!(
            "SELECT COUNT(*) FROM (SELECT 1 FROM change_feed WHERE seq > COALESCE({after}, {horizon}) \
             AND seq < {horizon} LIMIT {LAG_COUNTED}) AS behind",
            horizon = horizon()
        ),
    }
}

/// On PostgreSQL, the number below which every entry is final: the first a transaction still
/// running (or the next to start) may take. Every transaction numbered lower has ended.
fn horizon() -> String {
    format!("{BASE} + (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << {TRANSACTION_SHIFT})")
}

fn changes_from(rows: &[sqlx::any::AnyRow]) -> Result<Vec<Change>, sqlx::Error> {
    rows.iter()
        .map(|row| {
            Ok(Change {
                seq: row.try_get(0)?,
                uid: row.try_get(1)?,
                kind: row.try_get(2)?,
                path: row.try_get(3)?,
                time: time_from_db(&row.try_get::<String, _>(4)?)?,
            })
        })
        .collect()
}
