//! Online backups of the embedded database.

use super::{Backend, Store};
use std::path::Path;

/// Why no backup was written.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// PostgreSQL has its own tools, which also back up what other instances write meanwhile.
    #[error("the database is PostgreSQL: back it up with pg_dump (see the README)")]
    Postgres,
    /// An existing file is never overwritten.
    #[error("{0} exists already; name a new file")]
    Exists(String),
    /// The copy failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl Store {
    /// Writes a consistent copy of the SQLite database to `target` while the server keeps
    /// serving (`VACUUM INTO`: one read transaction, so the copy is the state at one instant,
    /// compacted). Readers are not blocked; writers wait only for SQLite's own locking.
    pub async fn backup_into(&self, target: &Path) -> Result<(), BackupError> {
        if self.backend == Backend::Postgres {
            return Err(BackupError::Postgres);
        }
        // Created empty and owner-only first (SQLite fills an empty file): the copy holds the
        // site's secrets and password hashes, readable by nobody else at any moment.
        create_owner_only(target).map_err(|err| match err.kind() {
            std::io::ErrorKind::AlreadyExists => BackupError::Exists(target.display().to_string()),
            _ => BackupError::Database(sqlx::Error::Io(err)),
        })?;
        self.count();
        let copied =
            sqlx::query("VACUUM INTO $1").bind(target.to_string_lossy().into_owned()).execute(&self.pool).await;
        if let Err(err) = copied {
            let _ = std::fs::remove_file(target);
            return Err(err.into());
        }
        Ok(())
    }
}

#[cfg(unix)]
fn create_owner_only(file: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(file).map(drop)
}

#[cfg(not(unix))]
fn create_owner_only(file: &Path) -> std::io::Result<()> {
    std::fs::OpenOptions::new().write(true).create_new(true).open(file).map(drop)
}
