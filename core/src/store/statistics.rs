//! The query planner's statistics, brought up to date after a bulk load: both engines plan
//! from what `ANALYZE` last saw, and a database that was empty when it was last analysed (or
//! never was: PostgreSQL without autovacuum, a fresh SQLite file) gets plans made for an empty
//! site, which at 10,000 objects cost listings and searches tens of milliseconds.
//!
//! SQLite is built with its query planner stability guarantee (`.cargo/config.toml`), so a
//! plan never depends on bound values and a cached statement is never prepared again because a
//! `LIMIT` or a pattern changed.

use super::Store;

impl Store {
    /// Gathers fresh planner statistics for every table (`ANALYZE`): after an import.
    pub async fn refresh_statistics(&self) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("ANALYZE").execute(&self.pool).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::store::test_support::{object, store};
    use sqlx::Row;

    #[tokio::test]
    async fn statistics_describe_the_content_after_a_refresh() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir).await;
        let mut tx = store.begin().await.unwrap();
        for n in 0..20 {
            tx.insert_content(&object(&format!("f{n}"))).await.unwrap();
        }
        tx.commit().await.unwrap();
        store.refresh_statistics().await.unwrap();
        let rows =
            sqlx::query("SELECT stat FROM sqlite_stat1 WHERE tbl = 'content'").fetch_all(&store.pool).await.unwrap();
        assert!(!rows.is_empty(), "the planner knows the content table");
        let stat: String = rows[0].try_get(0).unwrap();
        assert!(stat.starts_with("20"), "it counted the 20 objects: {stat}");
    }

    #[tokio::test]
    async fn sqlite_plans_do_not_depend_on_bound_values() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir).await;
        let rows = sqlx::query("SELECT 1 FROM pragma_compile_options WHERE compile_options = 'ENABLE_QPSG'")
            .fetch_all(&store.pool)
            .await
            .unwrap();
        assert_eq!(rows.len(), 1, "SQLite was built without SQLITE_ENABLE_QPSG: statements with LIMIT $n re-prepare");
    }
}
