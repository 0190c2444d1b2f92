//! How big storage is, for Site Setup's database page.

use super::{Backend, Store};
use sqlx::Row;

impl Store {
    /// The database's size in bytes and the number of content objects.
    pub async fn database_size(&self) -> Result<(i64, i64), sqlx::Error> {
        let bytes_sql = match self.backend {
            Backend::Sqlite => "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
            Backend::Postgres => "SELECT CAST(pg_database_size(current_database()) AS BIGINT)",
        };
        self.count();
        let bytes: i64 = sqlx::query(bytes_sql).fetch_one(&self.pool).await?.try_get(0)?;
        self.count();
        let objects: i64 = sqlx::query("SELECT COUNT(*) FROM content").fetch_one(&self.pool).await?.try_get(0)?;
        Ok((bytes, objects))
    }
}
