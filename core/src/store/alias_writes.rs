//! Aliases editors manage by hand (`POST`/`DELETE @aliases`): old paths that redirect to an
//! object, kept in the redirect table beside those moves record.

use super::Tx;
use super::rows::{placeholders, time_to_db};
use chrono::{DateTime, Utc};
use sqlx::AssertSqlSafe;

impl Tx {
    /// Makes `old_path` redirect to the object `target_uid` (replacing what it pointed at).
    pub async fn add_alias(
        &mut self,
        old_path: &str,
        target_uid: &str,
        created: DateTime<Utc>,
    ) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO redirect (old_path, target_uid, created, manual) VALUES ($1, $2, $3, 1) \
             ON CONFLICT (old_path) DO UPDATE SET target_uid = excluded.target_uid, created = excluded.created, \
             manual = 1",
        )
        .bind(old_path)
        .bind(target_uid)
        .bind(time_to_db(created))
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Removes the aliases at `old_paths` (only those to `target_uid`, when given); returns
    /// how many went.
    pub async fn remove_aliases(&mut self, old_paths: &[String], target_uid: Option<&str>) -> Result<u64, sqlx::Error> {
        if old_paths.is_empty() {
            return Ok(0);
        }
        let mut sql = format!("DELETE FROM redirect WHERE old_path IN ({})", placeholders(1, old_paths.len()));
        if target_uid.is_some() {
            sql.push_str(&format!(" AND target_uid = ${}", old_paths.len() + 1));
        }
        self.count();
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for path in old_paths {
            query = query.bind(path.as_str());
        }
        if let Some(uid) = target_uid {
            query = query.bind(uid);
        }
        Ok(query.execute(&mut *self.inner).await?.rows_affected())
    }
}
