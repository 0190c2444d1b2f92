//! The `comment` table: an object's conversation, read whole (it is bounded by
//! [`MAX_PER_OBJECT`]) and written in the caller's transaction.

use chrono::{DateTime, Utc};
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};
use wcs_core::store::{Migration, Store, Tx, placeholders, time_from_db, time_to_db};

/// The plugin's migrations.
pub static MIGRATIONS: [Migration; 1] = [Migration {
    version: 1,
    description: "comments",
    sqlite: include_str!("../migrations/sqlite/0001_comments.sql"),
    postgres: include_str!("../migrations/postgres/0001_comments.sql"),
}];

/// The most comments one object keeps: a conversation is read whole to thread it, so its
/// size is what bounds the cost of a listing.
pub const MAX_PER_OBJECT: usize = 5_000;

/// One comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The id, unique within the object's conversation: microseconds since 1970 when it was
    /// made (the next free number when two comments meet), as plone.app.discussion has it.
    pub id: i64,
    /// The comment it answers; `None` at the top of the conversation.
    pub in_reply_to: Option<i64>,
    /// The author's user id; `None` for anonymous comments.
    pub author_username: Option<String>,
    /// The author's name: a user's full name, or what an anonymous commenter gave.
    pub author_name: Option<String>,
    /// The author's e-mail address, never shown over the API.
    pub author_email: Option<String>,
    /// The text as typed.
    pub text: String,
    /// How the text is shown (`text/plain` or `text/x-web-intelligent`).
    pub mime_type: String,
    /// When it was made.
    pub created: DateTime<Utc>,
    /// When its text last changed.
    pub modified: DateTime<Utc>,
}

const COLUMNS: &str = "id, in_reply_to, author_username, author_name, author_email, text, mime_type, created, modified";

fn from_row(row: &AnyRow) -> Result<Comment, sqlx::Error> {
    let created: String = row.try_get(7)?;
    let modified: String = row.try_get(8)?;
    Ok(Comment {
        id: row.try_get(0)?,
        in_reply_to: row.try_get(1)?,
        author_username: row.try_get(2)?,
        author_name: row.try_get(3)?,
        author_email: row.try_get(4)?,
        text: row.try_get(5)?,
        mime_type: row.try_get(6)?,
        created: time_from_db(&created)?,
        modified: time_from_db(&modified)?,
    })
}

/// The comments of an object, oldest first.
pub async fn conversation(store: &Store, content_uid: &str) -> Result<Vec<Comment>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM comment WHERE content_uid = $1 ORDER BY id LIMIT $2");
    let limit = i64::try_from(MAX_PER_OBJECT).unwrap_or(i64::MAX);
    let rows = sqlx::query(AssertSqlSafe(sql)).bind(content_uid).bind(limit).fetch_all(store.pool()).await?;
    rows.iter().map(from_row).collect()
}

/// Every comment on an object out of the trash, with that object's uid, by object and id
/// (a site export).
pub async fn all_comments(store: &Store) -> Result<Vec<(String, Comment)>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS}, content_uid FROM comment WHERE content_uid IN (SELECT uid FROM content WHERE trashed = 0) \
         ORDER BY content_uid, id"
    );
    let rows = sqlx::query(AssertSqlSafe(sql)).fetch_all(store.pool()).await?;
    rows.iter().map(|row| Ok((row.try_get(9)?, from_row(row)?))).collect()
}

/// One comment of an object.
pub async fn comment(store: &Store, content_uid: &str, id: i64) -> Result<Option<Comment>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM comment WHERE content_uid = $1 AND id = $2");
    let row = sqlx::query(AssertSqlSafe(sql)).bind(content_uid).bind(id).fetch_optional(store.pool()).await?;
    row.as_ref().map(from_row).transpose()
}

/// Whether anyone has replied to a comment.
pub async fn has_replies(store: &Store, content_uid: &str, id: i64) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("SELECT 1 FROM comment WHERE content_uid = $1 AND in_reply_to = $2 LIMIT 1")
        .bind(content_uid)
        .bind(id)
        .fetch_optional(store.pool())
        .await?;
    Ok(row.is_some())
}

/// What [`insert`] stores; the id is assigned.
pub struct NewComment<'a> {
    /// See [`Comment::in_reply_to`].
    pub in_reply_to: Option<i64>,
    /// See [`Comment::author_username`].
    pub author_username: Option<&'a str>,
    /// See [`Comment::author_name`].
    pub author_name: Option<&'a str>,
    /// See [`Comment::author_email`].
    pub author_email: Option<&'a str>,
    /// See [`Comment::text`].
    pub text: &'a str,
    /// See [`Comment::mime_type`].
    pub mime_type: &'a str,
    /// When it is made.
    pub now: DateTime<Utc>,
}

/// Why a comment was not stored.
#[derive(Debug)]
pub enum InsertError {
    /// The object has [`MAX_PER_OBJECT`] comments.
    Full,
    /// The comment it answers is gone (deleted meanwhile).
    ParentGone,
    /// Too many comments arrived on the object at the same moment.
    Busy,
    /// The database failed.
    Database(sqlx::Error),
}

impl From<sqlx::Error> for InsertError {
    fn from(error: sqlx::Error) -> Self {
        InsertError::Database(error)
    }
}

/// Stores a comment under the next free id. Two comments made at once on one object may pick
/// the same id; the later one takes the next free number (a conflicting insert changes
/// nothing, so the transaction stays usable on PostgreSQL).
pub async fn insert(tx: &mut Tx, content_uid: &str, new: &NewComment<'_>) -> Result<i64, InsertError> {
    let row = sqlx::query("SELECT COUNT(*), MAX(id) FROM comment WHERE content_uid = $1")
        .bind(content_uid)
        .fetch_one(tx.connection())
        .await?;
    let count: i64 = row.try_get(0)?;
    let last: Option<i64> = row.try_get(1)?;
    if usize::try_from(count).unwrap_or(usize::MAX) >= MAX_PER_OBJECT {
        return Err(InsertError::Full);
    }
    if let Some(parent) = new.in_reply_to {
        let exists = sqlx::query("SELECT 1 FROM comment WHERE content_uid = $1 AND id = $2")
            .bind(content_uid)
            .bind(parent)
            .fetch_optional(tx.connection())
            .await?;
        if exists.is_none() {
            return Err(InsertError::ParentGone);
        }
    }
    let mut id = new.now.timestamp_micros().max(last.map_or(0, |l| l.saturating_add(1)));
    let now = time_to_db(new.now);
    for _ in 0..MAX_ID_ATTEMPTS {
        let stored = sqlx::query(
            "INSERT INTO comment (content_uid, id, in_reply_to, author_username, author_name, author_email, text, \
             mime_type, created, modified) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) \
             ON CONFLICT (content_uid, id) DO NOTHING",
        )
        .bind(content_uid)
        .bind(id)
        .bind(new.in_reply_to)
        .bind(new.author_username)
        .bind(new.author_name)
        .bind(new.author_email)
        .bind(new.text)
        .bind(new.mime_type)
        .bind(&now)
        .execute(tx.connection())
        .await?;
        if stored.rows_affected() == 1 {
            return Ok(id);
        }
        id = id.saturating_add(1);
    }
    Err(InsertError::Busy)
}

/// Stores a comment as another site had it (its id and dates kept), unless the conversation
/// has a comment of that id already (an import run again).
pub async fn insert_as_given(tx: &mut Tx, content_uid: &str, comment: &Comment) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO comment (content_uid, id, in_reply_to, author_username, author_name, author_email, text, \
         mime_type, created, modified) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
         ON CONFLICT (content_uid, id) DO NOTHING",
    )
    .bind(content_uid)
    .bind(comment.id)
    .bind(comment.in_reply_to)
    .bind(comment.author_username.as_deref())
    .bind(comment.author_name.as_deref())
    .bind(comment.author_email.as_deref())
    .bind(&comment.text)
    .bind(&comment.mime_type)
    .bind(time_to_db(comment.created))
    .bind(time_to_db(comment.modified))
    .execute(tx.connection())
    .await?;
    Ok(())
}

/// How many ids an insert tries before giving up (only a burst of comments on one object
/// within microseconds reaches more than one).
const MAX_ID_ATTEMPTS: usize = 100;

/// Changes a comment's text; `false` when it is gone.
pub async fn update_text(
    tx: &mut Tx,
    content_uid: &str,
    id: i64,
    text: &str,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE comment SET text = $1, modified = $2 WHERE content_uid = $3 AND id = $4")
        .bind(text)
        .bind(time_to_db(now))
        .bind(content_uid)
        .bind(id)
        .execute(tx.connection())
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Deletes a comment with every reply below it, as plone.app.discussion does; the ids
/// deleted, none when it was gone.
pub async fn delete_thread(tx: &mut Tx, content_uid: &str, id: i64) -> Result<Vec<i64>, sqlx::Error> {
    let rows = sqlx::query("SELECT id, in_reply_to FROM comment WHERE content_uid = $1")
        .bind(content_uid)
        .fetch_all(tx.connection())
        .await?;
    let links: Vec<(i64, Option<i64>)> =
        rows.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect::<Result<_, sqlx::Error>>()?;
    if !links.iter().any(|(comment, _)| *comment == id) {
        return Ok(Vec::new());
    }
    let mut doomed = vec![id];
    let mut next = 0;
    while let Some(parent) = doomed.get(next).copied() {
        doomed.extend(links.iter().filter(|(_, reply_to)| *reply_to == Some(parent)).map(|(child, _)| *child));
        next += 1;
    }
    for chunk in doomed.chunks(500) {
        let sql = format!("DELETE FROM comment WHERE content_uid = $1 AND id IN ({})", placeholders(2, chunk.len()));
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(content_uid);
        for id in chunk {
            query = query.bind(*id);
        }
        query.execute(tx.connection()).await?;
    }
    Ok(doomed)
}

/// Drops the comments of objects that no longer exist: run in the transaction that deleted
/// them.
pub async fn drop_orphans(tx: &mut Tx) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM comment WHERE NOT EXISTS (SELECT 1 FROM content c WHERE c.uid = comment.content_uid)")
        .execute(tx.connection())
        .await?;
    Ok(())
}
