//! Writing an export directory from one consistent snapshot of the database.

use super::schema::{self, Columns, Kind};
use super::{DumpError, FORMAT, MANIFEST, Manifest, TableManifest, VERSION, blob_file, table_file};
use crate::store::{Backend, Store};
use futures_util::TryStreamExt;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use sqlx::{AnyConnection, Row};
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportSummary {
    /// Tables written.
    pub tables: usize,
    /// Rows written, over all tables.
    pub rows: u64,
    /// Distinct binary values written.
    pub blobs: usize,
}

impl Store {
    /// Writes the whole database to `dir` (new or empty), from one snapshot, so the export is
    /// consistent while the server goes on writing. The directory holds password hashes and
    /// the server's secrets, so it is made readable by its owner only.
    pub async fn export_to(&self, dir: &Path, site_id: &str) -> Result<ExportSummary, DumpError> {
        prepare_directory(dir)?;
        let mut snapshot = self.pool.begin().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *snapshot).await?;
        }
        let conn: &mut AnyConnection = &mut snapshot;
        let site = sqlx::query("SELECT uid FROM content WHERE path = $1").bind(format!("/{site_id}"));
        if site.fetch_optional(&mut *conn).await?.is_none() {
            return Err(DumpError::Refused(format!("this database holds no site '{site_id}'")));
        }
        let tables = schema::tables(conn, self.backend).await?;
        let migrations = schema::migrations(conn).await?;
        let mut blobs = BlobWriter { dir, written: HashSet::new() };
        let mut manifest_tables = BTreeMap::new();
        let mut rows = 0;
        for (table, columns) in &tables {
            let written = export_table(conn, dir, table, columns, &mut blobs).await?;
            rows += written;
            manifest_tables.insert(table.clone(), TableManifest { columns: columns.names(), rows: written });
        }
        snapshot.rollback().await?;
        let manifest = Manifest {
            format: FORMAT.to_owned(),
            version: VERSION,
            site_id: site_id.to_owned(),
            exported: chrono::Utc::now().to_rfc3339(),
            migrations,
            tables: manifest_tables,
        };
        write_manifest(dir, &manifest)?;
        Ok(ExportSummary { tables: tables.len(), rows, blobs: blobs.written.len() })
    }
}

/// Creates `dir` (or takes an empty one) with its two folders, readable by the owner only.
fn prepare_directory(dir: &Path) -> Result<(), DumpError> {
    std::fs::create_dir_all(dir).map_err(DumpError::file(dir))?;
    if std::fs::read_dir(dir).map_err(DumpError::file(dir))?.next().is_some() {
        return Err(DumpError::Refused(format!("{} is not empty; export into a new directory", dir.display())));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(DumpError::file(dir))?;
    }
    for sub in ["tables", "blobs"] {
        std::fs::create_dir(dir.join(sub)).map_err(DumpError::file(&dir.join(sub)))?;
    }
    Ok(())
}

async fn export_table(
    conn: &mut AnyConnection,
    dir: &Path,
    table: &str,
    columns: &Columns,
    blobs: &mut BlobWriter<'_>,
) -> Result<u64, DumpError> {
    let path = table_file(dir, table);
    let mut out = BufWriter::new(File::create_new(&path).map_err(DumpError::file(&path))?);
    let mut rows = sqlx::query(schema::select_all(table, columns)).fetch(&mut *conn);
    let mut count = 0;
    while let Some(row) = rows.try_next().await? {
        let mut object = Map::new();
        for (index, (name, kind)) in columns.0.iter().enumerate() {
            let value = match kind {
                Kind::Integer => row.try_get::<Option<i64>, _>(index)?.map(Value::from),
                Kind::Real => row.try_get::<Option<f64>, _>(index)?.map(Value::from),
                Kind::Text => row.try_get::<Option<String>, _>(index)?.map(Value::from),
                Kind::Bytes => match row.try_get::<Option<Vec<u8>>, _>(index)? {
                    Some(bytes) => Some(json!({"blob": blobs.put(&bytes)?})),
                    None => None,
                },
            };
            object.insert(name.clone(), value.unwrap_or(Value::Null));
        }
        serde_json::to_writer(&mut out, &object).map_err(|e| DumpError::file(&path)(e.into()))?;
        out.write_all(b"\n").map_err(DumpError::file(&path))?;
        count += 1;
    }
    finish_file(out, &path)?;
    Ok(count)
}

/// Writes each distinct binary value once, named by its SHA-256.
struct BlobWriter<'a> {
    dir: &'a Path,
    written: HashSet<String>,
}

impl BlobWriter<'_> {
    fn put(&mut self, bytes: &[u8]) -> Result<String, DumpError> {
        let sha256 = hex::encode(Sha256::digest(bytes));
        if self.written.insert(sha256.clone()) {
            let path = blob_file(self.dir, &sha256);
            let mut file = File::create_new(&path).map_err(DumpError::file(&path))?;
            file.write_all(bytes).map_err(DumpError::file(&path))?;
            file.sync_all().map_err(DumpError::file(&path))?;
        }
        Ok(sha256)
    }
}

fn finish_file(out: BufWriter<File>, path: &Path) -> Result<(), DumpError> {
    let file = out.into_inner().map_err(|e| DumpError::file(path)(e.into_error()))?;
    file.sync_all().map_err(DumpError::file(path))
}

/// Written last and renamed into place: its presence says the export is complete.
fn write_manifest(dir: &Path, manifest: &Manifest) -> Result<(), DumpError> {
    let (partial, path) = (dir.join(format!("{MANIFEST}.partial")), dir.join(MANIFEST));
    let mut out = BufWriter::new(File::create_new(&partial).map_err(DumpError::file(&partial))?);
    serde_json::to_writer_pretty(&mut out, manifest).map_err(|e| DumpError::file(&partial)(e.into()))?;
    finish_file(out, &partial)?;
    std::fs::rename(&partial, &path).map_err(DumpError::file(&path))
}
