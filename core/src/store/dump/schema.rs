//! What tables and columns a database has, read from its own catalog, so the export needs no
//! list of them and plugins' tables travel too.

use super::DumpError;
use crate::store::Backend;
use sqlx::{AnyConnection, AssertSqlSafe, Row};
use std::collections::BTreeMap;

/// The migrations' bookkeeping: the target keeps its own, checked against the manifest.
const NOT_EXPORTED: [&str; 3] = ["_sqlx_migrations", "plugin_migration", "change_mark"];

/// How a column's values are read and bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Integer,
    Real,
    Text,
    Bytes,
}

impl Kind {
    /// From a declared type (SQLite's `BIGINT`, PostgreSQL's `bigint`, `bytea`…).
    fn of(declared: &str) -> Kind {
        let declared = declared.to_ascii_uppercase();
        if declared.contains("INT") || declared.contains("SERIAL") {
            Kind::Integer
        } else if declared.contains("BLOB") || declared.contains("BYTEA") {
            Kind::Bytes
        } else if ["REAL", "DOUBLE", "FLOAT", "NUMERIC"].iter().any(|t| declared.contains(t)) {
            Kind::Real
        } else {
            Kind::Text
        }
    }
}

/// A table's columns in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Columns(pub Vec<(String, Kind)>);

impl Columns {
    pub fn names(&self) -> Vec<String> {
        self.0.iter().map(|(name, _)| name.clone()).collect()
    }

    /// `"a", "b", "c"`, for statements (names are checked by [`quoted`]).
    pub fn list(&self) -> String {
        self.0.iter().map(|(name, _)| quoted(name)).collect::<Vec<_>>().join(", ")
    }
}

/// Every table to export or import, with its columns.
pub(super) async fn tables(conn: &mut AnyConnection, backend: Backend) -> Result<BTreeMap<String, Columns>, DumpError> {
    let names_sql = match backend {
        Backend::Sqlite => {
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        }
        Backend::Postgres => {
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        }
    };
    let names: Vec<String> = sqlx::query(names_sql)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| row.try_get::<String, _>(0))
        .collect::<Result<_, _>>()?;
    let mut tables = BTreeMap::new();
    for name in names.into_iter().filter(|n| !NOT_EXPORTED.contains(&n.as_str())) {
        check_identifier(&name)?;
        let columns_sql = match backend {
            Backend::Sqlite => "SELECT name, type FROM pragma_table_info($1) ORDER BY cid",
            Backend::Postgres => {
                "SELECT column_name::text, data_type::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position"
            }
        };
        let mut columns = Vec::new();
        for row in sqlx::query(columns_sql).bind(&name).fetch_all(&mut *conn).await? {
            let (column, declared): (String, String) = (row.try_get(0)?, row.try_get(1)?);
            check_identifier(&column)?;
            columns.push((column, Kind::of(&declared)));
        }
        tables.insert(name, Columns(columns));
    }
    Ok(tables)
}

/// The applied migrations by owner: `core` and each plugin.
pub(super) async fn migrations(conn: &mut AnyConnection) -> Result<BTreeMap<String, Vec<i64>>, DumpError> {
    let mut applied: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for row in
        sqlx::query("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version").fetch_all(&mut *conn).await?
    {
        applied.entry("core".to_owned()).or_default().push(row.try_get(0)?);
    }
    for row in sqlx::query("SELECT plugin, version FROM plugin_migration ORDER BY plugin, version")
        .fetch_all(&mut *conn)
        .await?
    {
        applied.entry(row.try_get(0)?).or_default().push(row.try_get(1)?);
    }
    Ok(applied)
}

/// A table or column name in double quotes. Names come from the database's own catalog (or a
/// manifest checked against it) and cannot be bound as parameters, so they are checked to be
/// plain identifiers first.
pub(super) fn quoted(name: &str) -> String {
    format!("\"{name}\"")
}

/// Refuses names that are not plain lower-case identifiers.
pub(super) fn check_identifier(name: &str) -> Result<(), DumpError> {
    let plain = !name.is_empty()
        && name.len() <= 63
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if plain { Ok(()) } else { Err(DumpError::Refused(format!("unexpected table or column name '{name}'"))) }
}

/// The statement reading a whole table in a stable order (every column, in table order), so
/// two exports of the same data are the same bytes.
pub(super) fn select_all(table: &str, columns: &Columns) -> AssertSqlSafe<String> {
    let order: Vec<String> = (1..=columns.0.len()).map(|n| n.to_string()).collect();
    let list = columns.0.iter().map(|(name, _)| exported_value(table, name)).collect::<Vec<_>>().join(", ");
    AssertSqlSafe(format!("SELECT {list} FROM {} ORDER BY {}", quoted(table), order.join(", ")))
}

/// What the export writes of a column: its value, except for the feed counter, which is written
/// as the last number handed out on either engine. On PostgreSQL the row holds only the base
/// below the numbers of transactions, which another database's transactions would start low
/// again; the imported counter then lies at or above every imported entry, and a second export
/// writes the same value.
fn exported_value(table: &str, column: &str) -> String {
    if (table, column) == ("change_feed_counter", "last_seq") {
        return "CASE WHEN (SELECT MAX(seq) FROM change_feed) > last_seq \
                THEN (SELECT MAX(seq) FROM change_feed) ELSE last_seq END AS last_seq"
            .to_owned();
    }
    quoted(column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_types_of_both_backends_map_to_kinds() {
        for (declared, kind) in [
            ("BIGINT", Kind::Integer),
            ("bigint", Kind::Integer),
            ("INTEGER", Kind::Integer),
            ("BIGSERIAL", Kind::Integer),
            ("TEXT", Kind::Text),
            ("text", Kind::Text),
            ("character varying", Kind::Text),
            ("BLOB", Kind::Bytes),
            ("bytea", Kind::Bytes),
            ("double precision", Kind::Real),
        ] {
            assert_eq!(Kind::of(declared), kind, "{declared}");
        }
    }

    #[test]
    fn only_plain_identifiers_are_accepted() {
        for good in ["content", "version_blob_data", "a1"] {
            assert!(check_identifier(good).is_ok(), "{good}");
        }
        for bad in ["", "Content", "a\"b", "a;drop", "1a", "a b"] {
            assert!(check_identifier(bad).is_err(), "{bad}");
        }
    }
}
