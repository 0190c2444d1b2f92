//! Conversions between `sqlx::Any` rows (text, integers) and our types.

use super::Backend;
use crate::content::ContentObject;
use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::any::AnyRow;
use std::sync::LazyLock;

/// The columns every content query selects, in the order [`content_from_row`] reads them.
pub const CONTENT_COLUMNS: &str = "uid, parent_uid, path, id, portal_type, position, title, description, \
     review_state, created, modified, effective, expires, creator, fields, block_local_roles, trash_root, \
     working_copy_of";

/// The field values summaries and navigation trees read (Plone's default summary metadata and
/// `exclude_from_nav`): small, whatever else an object holds.
pub const SUMMARY_FIELDS: [&str; 9] =
    ["nav_title", "head_title", "remoteUrl", "image", "preview_image", "file", "start", "end", "exclude_from_nav"];

/// [`CONTENT_COLUMNS`] with only the [`SUMMARY_FIELDS`] of the field values: for summaries of
/// objects whose fields may be large (Volto blocks, text). The projection is text, as the
/// stored column is. Built once per backend.
pub fn brief_columns(backend: Backend) -> &'static str {
    static SQLITE: LazyLock<String> = LazyLock::new(|| brief_columns_of(Backend::Sqlite));
    static POSTGRES: LazyLock<String> = LazyLock::new(|| brief_columns_of(Backend::Postgres));
    match backend {
        Backend::Sqlite => &SQLITE,
        Backend::Postgres => &POSTGRES,
    }
}

fn brief_columns_of(backend: Backend) -> String {
    let projection = match backend {
        Backend::Sqlite => {
            let pairs: Vec<String> =
                // `->` keeps JSON types (json_extract turns true into 1).
                SUMMARY_FIELDS.iter().map(|k| format!("'{k}', fields -> '$.{k}'")).collect();
            // `|| ''` makes it plain text, so `json_array` keeps it a string like the column.
            format!("json_object({}) || ''", pairs.join(", "))
        }
        Backend::Postgres => {
            // The stored text is parsed once per row, in the subquery (`OFFSET 0` keeps the
            // planner from folding it back into a cast per key): four times less work at
            // 10,000 objects, where parsing is most of a navigation tree's query.
            let pairs: Vec<String> = SUMMARY_FIELDS.iter().map(|k| format!("'{k}', parsed.f -> '{k}'")).collect();
            format!(
                "(SELECT CAST(jsonb_build_object({}) AS TEXT) FROM (SELECT CAST(fields AS jsonb) AS f OFFSET 0) AS parsed)",
                pairs.join(", ")
            )
        }
    };
    CONTENT_COLUMNS.replace("fields,", &format!("{projection},"))
}

/// Stored time format: microseconds keep text order equal to time order.
pub fn time_to_db(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%dT%H:%M:%S%.6f+00:00").to_string()
}

/// An object's fields as stored: written straight from the map, which a copy into a
/// `serde_json::Value` first would clone whole.
pub fn fields_to_db(fields: &serde_json::Map<String, serde_json::Value>) -> Result<String, sqlx::Error> {
    serde_json::to_string(fields).map_err(|e| sqlx::Error::Encode(e.into()))
}

/// Reads a stored time; a malformed one is a decode error, never a panic.
pub fn time_from_db(text: &str) -> Result<DateTime<Utc>, sqlx::Error> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| sqlx::Error::Decode(format!("bad stored time '{text}': {e}").into()))
}

/// One content row's columns as stored, in [`CONTENT_COLUMNS`] order. Deserialises from a JSON
/// array too, which is how [`packed`] queries return their rows.
#[derive(serde::Deserialize)]
struct ContentColumns {
    uid: String,
    parent_uid: Option<String>,
    path: String,
    id: String,
    portal_type: String,
    position: i64,
    title: String,
    description: String,
    review_state: Option<String>,
    created: String,
    modified: String,
    effective: Option<String>,
    expires: Option<String>,
    creator: String,
    fields: String,
    block_local_roles: i64,
    trash_root: Option<String>,
    working_copy_of: Option<String>,
}

impl ContentColumns {
    fn from_row(row: &AnyRow) -> Result<ContentColumns, sqlx::Error> {
        Ok(ContentColumns {
            uid: row.try_get(0)?,
            parent_uid: row.try_get(1)?,
            path: row.try_get(2)?,
            id: row.try_get(3)?,
            portal_type: row.try_get(4)?,
            position: row.try_get(5)?,
            title: row.try_get(6)?,
            description: row.try_get(7)?,
            review_state: row.try_get(8)?,
            created: row.try_get(9)?,
            modified: row.try_get(10)?,
            effective: row.try_get(11)?,
            expires: row.try_get(12)?,
            creator: row.try_get(13)?,
            fields: row.try_get(14)?,
            block_local_roles: row.try_get(15)?,
            trash_root: row.try_get(16)?,
            working_copy_of: row.try_get(17)?,
        })
    }

    fn into_object(self) -> Result<ContentObject, sqlx::Error> {
        let optional_time = |text: Option<String>| text.as_deref().map(time_from_db).transpose();
        let fields = match serde_json::from_str(&self.fields) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => return Err(sqlx::Error::Decode("content.fields is not a JSON object".into())),
        };
        Ok(ContentObject {
            uid: self.uid,
            parent_uid: self.parent_uid,
            path: self.path,
            id: self.id,
            portal_type: self.portal_type,
            position: self.position,
            title: self.title,
            description: self.description,
            review_state: self.review_state,
            created: time_from_db(&self.created)?,
            modified: time_from_db(&self.modified)?,
            effective: optional_time(self.effective)?,
            expires: optional_time(self.expires)?,
            creator: self.creator,
            fields,
            block_local_roles: self.block_local_roles != 0,
            trash_root: self.trash_root,
            working_copy_of: self.working_copy_of,
        })
    }
}

/// Reads one content row.
pub fn content_from_row(row: &AnyRow) -> Result<ContentObject, sqlx::Error> {
    ContentColumns::from_row(row)?.into_object()
}

/// A select list that returns every matching row of `columns` ([`CONTENT_COLUMNS`] or
/// [`brief_columns`]) in one row, as a JSON array of arrays, for reads of many objects. A row
/// costs the driver a hand-over between threads and a copy of each value, which for a page
/// of results was most of the request; one text per query is parsed much faster. Aggregates
/// keep no order, so only unordered reads use it.
pub fn packed(backend: Backend, columns: &str) -> String {
    match backend {
        Backend::Sqlite => format!("json_group_array(json_array({columns}))"),
        Backend::Postgres => format!("COALESCE(json_agg(json_build_array({columns})), '[]')::text"),
    }
}

/// Reads the one row of a [`packed`] query.
pub fn content_from_packed(row: &AnyRow) -> Result<Vec<ContentObject>, sqlx::Error> {
    let text: String = row.try_get(0)?;
    let rows: Vec<ContentColumns> =
        serde_json::from_str(&text).map_err(|e| sqlx::Error::Decode(format!("packed content rows: {e}").into()))?;
    rows.into_iter().map(ContentColumns::into_object).collect()
}

/// A statement of `sql` with `binds` bound as text, `$1` first: the queries whose conditions
/// are built from a variable number of values.
pub fn with_text_binds(sql: String, binds: &[String]) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments> {
    binds.iter().fold(sqlx::query(sqlx::AssertSqlSafe(sql)), |query, bind| query.bind(bind.as_str()))
}

/// `LIMIT $n+1 OFFSET $n+2` after `n` parameters, for a page of a listing.
pub fn page_clause(n: usize) -> String {
    format!("LIMIT ${} OFFSET ${}", n + 1, n + 2)
}

/// `$first, $first+1, …` for an `IN (…)` list of `count` parameters.
pub fn placeholders(first: usize, count: usize) -> String {
    (first..first + count).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ")
}
