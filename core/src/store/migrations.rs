//! Plugin-owned tables: a plugin ships its migrations per backend
//! ([`crate::plugin::Registrar::migrations`]); they are applied at start-up, plugin by plugin
//! in build order, each in a transaction of its own, and recorded in `plugin_migration`.
//!
//! Several instances starting at once on PostgreSQL agree: each migration's record is written
//! first in its transaction, so a second instance waits for the first and then finds the
//! version taken, rolls back and goes on.

use super::rows::time_to_db;
use super::{Backend, Store, is_unique_violation};
use sqlx::{AssertSqlSafe, Row};

/// One schema change of a plugin.
pub struct Migration {
    /// Increasing per plugin, never reused.
    pub version: i64,
    /// What it does.
    pub description: &'static str,
    /// The statements for SQLite.
    pub sqlite: &'static str,
    /// The statements for PostgreSQL.
    pub postgres: &'static str,
}

impl Store {
    /// Applies the migrations of `plugin` that are not applied yet; returns how many it ran.
    pub(crate) async fn apply_plugin_migrations(
        &self,
        plugin: &str,
        migrations: &[Migration],
    ) -> Result<usize, sqlx::Error> {
        let applied: Vec<i64> = sqlx::query("SELECT version FROM plugin_migration WHERE plugin = $1")
            .bind(plugin)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()?;
        let mut ran = 0;
        for migration in migrations.iter().filter(|m| !applied.contains(&m.version)) {
            let mut tx = self.pool.begin().await?;
            let recorded = sqlx::query(
                "INSERT INTO plugin_migration (plugin, version, description, applied) VALUES ($1, $2, $3, $4)",
            )
            .bind(plugin)
            .bind(migration.version)
            .bind(migration.description)
            .bind(time_to_db(chrono::Utc::now()))
            .execute(&mut *tx)
            .await;
            match recorded {
                Err(err) if is_unique_violation(&err) => continue,
                other => other?,
            };
            let sql = match self.backend {
                Backend::Sqlite => migration.sqlite,
                Backend::Postgres => migration.postgres,
            };
            sqlx::raw_sql(AssertSqlSafe(sql)).execute(&mut *tx).await?;
            tx.commit().await?;
            ran += 1;
        }
        Ok(ran)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    static NOTES: [Migration; 2] = [
        Migration {
            version: 1,
            description: "notes",
            sqlite: "CREATE TABLE note (id TEXT PRIMARY KEY); CREATE INDEX note_id ON note (id);",
            postgres: "CREATE TABLE note (id TEXT PRIMARY KEY); CREATE INDEX note_id ON note (id);",
        },
        Migration {
            version: 2,
            description: "note text",
            sqlite: "ALTER TABLE note ADD COLUMN text TEXT;",
            postgres: "ALTER TABLE note ADD COLUMN text TEXT;",
        },
    ];

    #[tokio::test]
    async fn each_version_runs_once_and_is_recorded_per_plugin() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("m.db").display());
        let store = Store::open(&url).await.unwrap();
        assert_eq!(store.apply_plugin_migrations("notes", &NOTES[..1]).await.unwrap(), 1);
        assert_eq!(store.apply_plugin_migrations("notes", &NOTES).await.unwrap(), 1, "only the new one");
        let reopened = Store::open(&url).await.unwrap();
        assert_eq!(reopened.apply_plugin_migrations("notes", &NOTES).await.unwrap(), 0, "nothing twice");
        sqlx::query("INSERT INTO note (id, text) VALUES ('a', 'b')").execute(reopened.pool()).await.unwrap();
        let recorded: Vec<(String, i64)> = sqlx::query("SELECT plugin, version FROM plugin_migration ORDER BY version")
            .fetch_all(reopened.pool())
            .await
            .unwrap()
            .iter()
            .map(|row| (row.try_get(0).unwrap(), row.try_get(1).unwrap()))
            .collect();
        assert_eq!(recorded, [("notes".to_owned(), 1), ("notes".to_owned(), 2)]);
        let broken = [Migration { version: 3, description: "broken", sqlite: "CREATE TABLE (", postgres: "" }];
        assert!(reopened.apply_plugin_migrations("notes", &broken).await.is_err());
        let count: i64 = sqlx::query("SELECT COUNT(*) FROM plugin_migration")
            .fetch_one(reopened.pool())
            .await
            .unwrap()
            .try_get(0)
            .unwrap();
        assert_eq!(count, 2, "a failed migration is not recorded");
    }
}
