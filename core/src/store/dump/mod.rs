//! `wcs export` and `wcs import`: a whole site as plain files, portable between SQLite and
//! PostgreSQL and between machines.
//!
//! The layout of an export directory:
//! - `manifest.json`: the format and its version, the site, the schema migrations the data
//!   belongs to, and each table's columns and row count. It is written last, so a directory
//!   without it is an export that did not finish.
//! - `tables/<table>.jsonl`: one JSON object per row, columns in table order. Integers and
//!   reals are numbers, text is a string, binary values are `{"blob": "<sha256>"}`.
//! - `blobs/<sha256>`: the bytes of every binary value (files, images, version snapshots),
//!   stored once however often they occur.
//!
//! Every table is exported except the migrations' own bookkeeping, so what a plugin stores
//! (versions, form submissions) travels without the export knowing the plugin. The search
//! index is not: it is derived from storage and rebuilt after an import.

mod checks;
mod export;
mod import;
mod schema;

pub use export::ExportSummary;
pub use import::ImportSummary;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The manifest's file name in an export directory.
const MANIFEST: &str = "manifest.json";

/// The value of `format` in every manifest.
const FORMAT: &str = "wcs-export";

/// The layout version; an import refuses any other.
const VERSION: u32 = 1;

/// What `manifest.json` says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// The layout version.
    pub version: u32,
    /// The id of the site the export holds (its content paths start with it).
    pub site_id: String,
    /// When the export was taken (RFC 3339).
    pub exported: String,
    /// The applied schema migrations, by owner (`core`, then each plugin): data is only
    /// imported into a schema at exactly the same versions.
    pub migrations: BTreeMap<String, Vec<i64>>,
    /// Each exported table.
    pub tables: BTreeMap<String, TableManifest>,
}

/// One exported table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableManifest {
    /// Column names in table order.
    pub columns: Vec<String>,
    /// How many rows its file holds.
    pub rows: u64,
}

/// Why an export or an import failed.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The export directory is not what an import can take, or the target is not ready.
    #[error("{0}")]
    Refused(String),
}

impl DumpError {
    fn file(path: &Path) -> impl FnOnce(std::io::Error) -> DumpError + '_ {
        move |source| DumpError::File { path: path.to_owned(), source }
    }
}

/// The file of a table's rows.
fn table_file(dir: &Path, table: &str) -> PathBuf {
    dir.join("tables").join(format!("{table}.jsonl"))
}

/// The file of a binary value.
fn blob_file(dir: &Path, sha256: &str) -> PathBuf {
    dir.join("blobs").join(sha256)
}
