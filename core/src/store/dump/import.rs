//! Loading an export directory into a new database, in one transaction: an import that fails
//! leaves the database as it was.

use super::schema::{self, Columns, Kind, quoted};
use super::{DumpError, FORMAT, MANIFEST, Manifest, VERSION, blob_file, checks, table_file};
use crate::store::{Backend, Store};
use serde_json::Value;
use sha2::{Digest, Sha256};
use sqlx::{AnyConnection, AssertSqlSafe, Row};
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// What an import loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportSummary {
    /// Tables loaded.
    pub tables: usize,
    /// Rows loaded, over all tables.
    pub rows: u64,
}

/// Bound parameters per statement: well under PostgreSQL's 65,535 and SQLite's 32,766.
const MAX_PARAMETERS: usize = 2_000;

/// Bytes of binary values held for one statement.
const MAX_BATCH_BYTES: usize = 16 * 1024 * 1024;

impl Store {
    /// Loads the export in `dir` into this database, which must hold no content and no users
    /// yet (what migrations put in their tables is replaced). The schema must be at the same
    /// migrations as the exported one: export and import with the same version of wcs.
    pub async fn import_from(&self, dir: &Path, site_id: &str) -> Result<ImportSummary, DumpError> {
        let manifest = read_manifest(dir)?;
        if manifest.site_id != site_id {
            return Err(DumpError::Refused(format!(
                "the export holds the site '{}'; import it with --site-id {}",
                manifest.site_id, manifest.site_id
            )));
        }
        let mut tx = self.begin().await?;
        let conn = tx.connection();
        let target = schema::tables(conn, self.backend).await?;
        let here = schema::migrations(conn).await?;
        if here != manifest.migrations {
            return Err(DumpError::Refused(format!(
                "the export was taken at other schema migrations ({:?}) than this database has ({here:?}): \
                 import with the same version of wcs and the same plugins",
                manifest.migrations
            )));
        }
        for table in ["content", "principal"] {
            let found = sqlx::query(AssertSqlSafe(format!("SELECT 1 FROM {} LIMIT 1", quoted(table))));
            if found.fetch_optional(&mut *conn).await?.is_some() {
                return Err(DumpError::Refused(format!(
                    "this database already holds data (table {table}); import into a new database"
                )));
            }
        }
        let mut rows = 0;
        // Every row is checked as it is read; the whole import is one transaction, so a refusal
        // anywhere leaves the database as it was.
        for (table, exported) in &manifest.tables {
            let columns = target.get(table).ok_or_else(|| {
                DumpError::Refused(format!("this database has no table '{table}', which the export holds"))
            })?;
            if columns.names() != exported.columns {
                return Err(DumpError::Refused(format!("the columns of '{table}' differ from the export's")));
            }
            sqlx::query(AssertSqlSafe(format!("DELETE FROM {}", quoted(table)))).execute(&mut *conn).await?;
            let loaded = import_table(conn, dir, table, columns, site_id).await?;
            if loaded != exported.rows {
                return Err(DumpError::Refused(format!(
                    "tables/{table}.jsonl holds {loaded} rows, the manifest says {}",
                    exported.rows
                )));
            }
            rows += loaded;
        }
        let site = sqlx::query("SELECT 1 FROM content WHERE path = $1 AND parent_uid IS NULL")
            .bind(format!("/{site_id}"))
            .fetch_optional(&mut *conn)
            .await?;
        if site.is_none() {
            return Err(DumpError::Refused(format!("the export holds no site root at /{site_id}")));
        }
        // The feed's numbers go on above every imported entry, whichever engine numbered them:
        // PostgreSQL's follow transaction numbers, which a new database starts low again.
        sqlx::query(
            "UPDATE change_feed_counter SET last_seq = (SELECT MAX(seq) FROM change_feed) \
             WHERE id = 1 AND last_seq < (SELECT MAX(seq) FROM change_feed)",
        )
        .execute(&mut *conn)
        .await?;
        // Last, since PostgreSQL's sequences keep what they are set to even when the import is
        // rolled back: nothing may be refused after this.
        if self.backend == Backend::Postgres {
            for table in manifest.tables.keys() {
                advance_sequences(conn, table).await?;
            }
        }
        tx.commit().await.map_err(|e| DumpError::Refused(format!("committing the import failed: {}", e.message)))?;
        Ok(ImportSummary { tables: manifest.tables.len(), rows })
    }
}

/// A file of the export, `relative` to `dir`: refused unless it is a regular file reached
/// without a symbolic link below `dir`, so an export cannot make the import read (and store
/// as a blob) any file the server may read, such as its own database or `/etc/shadow`.
fn export_file(dir: &Path, relative: &Path) -> Result<PathBuf, DumpError> {
    let parts: Vec<_> = relative.components().collect();
    let mut path = dir.to_owned();
    for (index, part) in parts.iter().enumerate() {
        path.push(part);
        let meta = std::fs::symlink_metadata(&path).map_err(DumpError::file(&path))?;
        let last = index + 1 == parts.len();
        if meta.file_type().is_symlink() || (last && !meta.is_file()) || (!last && !meta.is_dir()) {
            return Err(DumpError::Refused(format!(
                "{} is not a plain {} of the export (symbolic links are not followed)",
                path.display(),
                if last { "file" } else { "directory" }
            )));
        }
    }
    Ok(path)
}

fn read_manifest(dir: &Path) -> Result<Manifest, DumpError> {
    let path = export_file(dir, Path::new(MANIFEST))?;
    let text = std::fs::read_to_string(&path).map_err(DumpError::file(&path))?;
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|e| DumpError::Refused(format!("{} is not an export manifest: {e}", path.display())))?;
    if manifest.format != FORMAT || manifest.version != VERSION {
        return Err(DumpError::Refused(format!(
            "{} is format '{}' version {}; this wcs reads '{FORMAT}' version {VERSION}",
            path.display(),
            manifest.format,
            manifest.version
        )));
    }
    for (table, exported) in &manifest.tables {
        schema::check_identifier(table)?;
        exported.columns.iter().try_for_each(|c| schema::check_identifier(c))?;
    }
    Ok(manifest)
}

/// One column value, ready to bind.
enum Bound {
    Integer(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
    Bytes(Option<Vec<u8>>),
}

async fn import_table(
    conn: &mut AnyConnection,
    dir: &Path,
    table: &str,
    columns: &Columns,
    site_id: &str,
) -> Result<u64, DumpError> {
    let path = export_file(dir, &table_file(Path::new(""), table))?;
    let file = std::fs::File::open(&path).map_err(DumpError::file(&path))?;
    let rows_per_statement = (MAX_PARAMETERS / columns.0.len().max(1)).max(1);
    let mut batch: Vec<Vec<Bound>> = Vec::new();
    let (mut batch_bytes, mut count) = (0, 0);
    for (number, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(DumpError::file(&path))?;
        let where_ = || format!("tables/{table}.jsonl line {}", number + 1);
        let row: BTreeMap<String, Value> =
            serde_json::from_str(&line).map_err(|e| DumpError::Refused(format!("{}: {e}", where_())))?;
        if let Some(problem) = checks::problem(table, &row, site_id) {
            return Err(DumpError::Refused(format!("{}, {problem}", where_())));
        }
        let mut values = Vec::with_capacity(columns.0.len());
        for (name, kind) in &columns.0 {
            let value = row.get(name).unwrap_or(&Value::Null);
            let bound = bind_value(dir, *kind, value)
                .map_err(|problem| DumpError::Refused(format!("{}, column {name}: {problem}", where_())))?;
            if let Bound::Bytes(Some(bytes)) = &bound {
                batch_bytes += bytes.len();
            }
            values.push(bound);
        }
        batch.push(values);
        count += 1;
        if batch.len() >= rows_per_statement || batch_bytes >= MAX_BATCH_BYTES {
            insert(conn, table, columns, std::mem::take(&mut batch)).await?;
            batch_bytes = 0;
        }
    }
    if !batch.is_empty() {
        insert(conn, table, columns, batch).await?;
    }
    Ok(count)
}

/// Checks a value against the column's kind and loads binary values, whose SHA-256 must match.
fn bind_value(dir: &Path, kind: Kind, value: &Value) -> Result<Bound, String> {
    let wrong = || format!("expected {kind:?}, found {value}");
    Ok(match (kind, value) {
        (Kind::Integer, Value::Null) => Bound::Integer(None),
        (Kind::Integer, Value::Number(n)) => Bound::Integer(Some(n.as_i64().ok_or_else(wrong)?)),
        (Kind::Real, Value::Null) => Bound::Real(None),
        (Kind::Real, Value::Number(n)) => Bound::Real(Some(n.as_f64().ok_or_else(wrong)?)),
        (Kind::Text, Value::Null) => Bound::Text(None),
        (Kind::Text, Value::String(s)) => Bound::Text(Some(s.clone())),
        (Kind::Bytes, Value::Null) => Bound::Bytes(None),
        (Kind::Bytes, Value::Object(blob)) => {
            let sha256 = blob.get("blob").and_then(Value::as_str).ok_or_else(wrong)?;
            let plain = sha256.len() == 64 && sha256.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase());
            if !plain {
                return Err(format!("'{sha256}' is not a SHA-256"));
            }
            let path = export_file(dir, &blob_file(Path::new(""), sha256)).map_err(|e| e.to_string())?;
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if hex::encode(Sha256::digest(&bytes)) != sha256 {
                return Err(format!("{} does not match its SHA-256 (damaged?)", path.display()));
            }
            Bound::Bytes(Some(bytes))
        }
        _ => return Err(wrong()),
    })
}

async fn insert(
    conn: &mut AnyConnection,
    table: &str,
    columns: &Columns,
    rows: Vec<Vec<Bound>>,
) -> Result<(), DumpError> {
    let width = columns.0.len();
    let tuples: Vec<String> =
        (0..rows.len()).map(|row| format!("({})", crate::store::placeholders(row * width + 1, width))).collect();
    let sql = format!("INSERT INTO {} ({}) VALUES {}", quoted(table), columns.list(), tuples.join(", "));
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for value in rows.into_iter().flatten() {
        query = match value {
            Bound::Integer(v) => query.bind(v),
            Bound::Real(v) => query.bind(v),
            Bound::Text(v) => query.bind(v),
            Bound::Bytes(v) => query.bind(v),
        };
    }
    query.execute(&mut *conn).await?;
    Ok(())
}

/// Rows were written with their ids, so each serial column's sequence continues after the
/// highest one (else the next insert would collide with an imported row).
async fn advance_sequences(conn: &mut AnyConnection, table: &str) -> Result<(), DumpError> {
    let serials = sqlx::query(
        "SELECT column_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = $1 AND column_default LIKE 'nextval(%'",
    )
    .bind(table)
    .fetch_all(&mut *conn)
    .await?;
    for row in serials {
        let column: String = row.try_get(0)?;
        schema::check_identifier(&column)?;
        let sql = format!(
            "SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX({}) FROM {}), 0) + 1, false)",
            quoted(&column),
            quoted(table)
        );
        sqlx::query(AssertSqlSafe(sql)).bind(table).bind(&column).execute(&mut *conn).await?;
    }
    Ok(())
}
