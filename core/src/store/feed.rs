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
    /// Its place in the feed: increasing in commit order, never reused.
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

/// Rows per `INSERT` statement (four parameters each).
const ROWS_PER_STATEMENT: usize = 100;

fn path_of(event: &Event) -> Option<&str> {
    match event {
        Event::Added { path, .. } | Event::Removed { path, .. } => Some(path),
        Event::Moved { to, .. } => Some(to),
        _ => None,
    }
}

impl Tx {
    /// Appends `events` to the feed. Reserving their numbers locks the counter row until this
    /// transaction ends, so numbers follow commit order.
    ///
    /// Each row's number is the counter's new value minus its distance from the end, read by a
    /// subquery that sees the bump already made; so the bump and the rows need no answer from
    /// the database in between. On SQLite, where every write waits for the one writer
    /// connection's thread, they go to it as one script, and the last of them with the commit's
    /// own statement (nothing reads the feed inside the transaction).
    pub(crate) async fn append_changes(&mut self, events: &[Event]) -> Result<(), sqlx::Error> {
        let count = events.len();
        let now = time_to_db(Utc::now());
        // Our own number, not input: safe to write into the statement.
        let bump = format!("UPDATE change_feed_counter SET last_seq = last_seq + {count} WHERE id = 1");
        let last = count.saturating_sub(1) / ROWS_PER_STATEMENT;
        for (i, chunk) in events.chunks(ROWS_PER_STATEMENT).enumerate() {
            let (insert, values) = insert_rows(i * ROWS_PER_STATEMENT, count, chunk, &now);
            let sql = match (i, self.store.backend()) {
                (0, Backend::Sqlite) => format!("{bump};\n{insert}"),
                (0, Backend::Postgres) => {
                    self.count();
                    sqlx::query(sqlx::AssertSqlSafe(bump.clone())).execute(&mut *self.inner).await?;
                    insert
                }
                _ => insert,
            };
            self.count();
            let now_or_later = if i == last { self.close_with(sql, values) } else { Some((sql, values)) };
            let Some((sql, values)) = now_or_later else { continue };
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for value in values {
                query = query.bind(value);
            }
            query.execute(&mut *self.inner).await?;
        }
        Ok(())
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
    /// How many entries the slowest registered consumer has not taken in yet.
    pub async fn feed_lag(&self) -> Result<i64, sqlx::Error> {
        self.count();
        sqlx::query(
            "SELECT last_seq - COALESCE((SELECT MIN(seq) FROM change_feed_position), last_seq) \
             FROM change_feed_counter WHERE id = 1",
        )
        .fetch_one(&self.pool)
        .await?
        .try_get(0)
    }

    /// Up to `limit` entries after `seq`, oldest first.
    pub async fn changes_after(&self, seq: i64, limit: i64) -> Result<Vec<Change>, sqlx::Error> {
        self.count();
        let rows =
            sqlx::query("SELECT seq, uid, kind, path, time FROM change_feed WHERE seq > $1 ORDER BY seq LIMIT $2")
                .bind(seq)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
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

    /// The newest entry's number (0 for an empty feed): where a consumer that has just
    /// rebuilt everything from storage starts.
    pub async fn feed_end(&self) -> Result<i64, sqlx::Error> {
        self.count();
        sqlx::query("SELECT last_seq FROM change_feed_counter WHERE id = 1").fetch_one(&self.pool).await?.try_get(0)
    }

    /// Deletes the entries recorded before `cutoff` that every consumer seen since `alive` has
    /// read (a consumer gone longer, say an instance taken down for good, holds nothing back);
    /// returns how many went.
    pub async fn trim_feed(&self, cutoff: DateTime<Utc>, alive: DateTime<Utc>) -> Result<u64, sqlx::Error> {
        self.count();
        let done = sqlx::query(
            "DELETE FROM change_feed WHERE time < $1 \
             AND seq <= COALESCE((SELECT MIN(seq) FROM change_feed_position WHERE updated >= $2), seq)",
        )
        .bind(time_to_db(cutoff))
        .bind(time_to_db(alive))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }
}

/// One `INSERT` of the feed rows `chunk`, which start at `start` among `count` events; its
/// placeholders are `$1…`.
fn insert_rows(start: usize, count: usize, chunk: &[Event], now: &str) -> (String, Vec<Option<String>>) {
    let mut params = Vec::with_capacity(chunk.len() * 4);
    let rows: Vec<String> = chunk
        .iter()
        .enumerate()
        .map(|(i, event)| {
            // Our own numbers, not input: safe to write into the statement.
            let back = count - (start + i) - 1;
            let p = i * 4;
            params.extend([
                Some(event.uid().to_owned()),
                Some(event.kind().to_owned()),
                path_of(event).map(str::to_owned),
                Some(now.to_owned()),
            ]);
            format!(
                "((SELECT last_seq FROM change_feed_counter WHERE id = 1) - {back}, ${}, ${}, ${}, ${})",
                p + 1,
                p + 2,
                p + 3,
                p + 4
            )
        })
        .collect();
    (format!("INSERT INTO change_feed (seq, uid, kind, path, time) VALUES {}", rows.join(", ")), params)
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
