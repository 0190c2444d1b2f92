//! Conversions between `sqlx::Any` rows (text, integers) and our types.

use crate::content::ContentObject;
use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::any::AnyRow;

/// The columns every content query selects, in the order [`content_from_row`] reads them.
pub const CONTENT_COLUMNS: &str = "uid, parent_uid, path, id, portal_type, position, title, description, \
     review_state, created, modified, effective, expires, creator, fields, block_local_roles, trash_root, \
     working_copy_of";

/// [`CONTENT_COLUMNS`] without the field values (an empty object in their place): for
/// summaries, which need only the columns, of objects whose fields may be large.
pub const BRIEF_COLUMNS: &str = "uid, parent_uid, path, id, portal_type, position, title, description, \
     review_state, created, modified, effective, expires, creator, '{}', block_local_roles, trash_root, \
     working_copy_of";

/// Stored time format: microseconds keep text order equal to time order.
pub fn time_to_db(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%dT%H:%M:%S%.6f+00:00").to_string()
}

/// Reads a stored time; a malformed one is a decode error, never a panic.
pub fn time_from_db(text: &str) -> Result<DateTime<Utc>, sqlx::Error> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| sqlx::Error::Decode(format!("bad stored time '{text}': {e}").into()))
}

/// Reads one content row.
pub fn content_from_row(row: &AnyRow) -> Result<ContentObject, sqlx::Error> {
    let optional_time = |index: usize| -> Result<Option<DateTime<Utc>>, sqlx::Error> {
        row.try_get::<Option<String>, _>(index)?.as_deref().map(time_from_db).transpose()
    };
    let fields: String = row.try_get(14)?;
    let fields = match serde_json::from_str(&fields) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => {
            return Err(sqlx::Error::Decode("content.fields is not a JSON object".into()));
        }
    };
    Ok(ContentObject {
        uid: row.try_get(0)?,
        parent_uid: row.try_get(1)?,
        path: row.try_get(2)?,
        id: row.try_get(3)?,
        portal_type: row.try_get(4)?,
        position: row.try_get(5)?,
        title: row.try_get(6)?,
        description: row.try_get(7)?,
        review_state: row.try_get(8)?,
        created: time_from_db(&row.try_get::<String, _>(9)?)?,
        modified: time_from_db(&row.try_get::<String, _>(10)?)?,
        effective: optional_time(11)?,
        expires: optional_time(12)?,
        creator: row.try_get(13)?,
        fields,
        block_local_roles: row.try_get::<i64, _>(15)? != 0,
        trash_root: row.try_get(16)?,
        working_copy_of: row.try_get(17)?,
    })
}

/// `$first, $first+1, …` for an `IN (…)` list of `count` parameters.
pub fn placeholders(first: usize, count: usize) -> String {
    (first..first + count).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ")
}
