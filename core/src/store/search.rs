//! Running catalog searches: one statement for the page, one for the total.

use super::Store;
use super::rows::{CONTENT_COLUMNS, content_from_row};
use crate::catalog::{Bind, SearchSql};
use crate::content::ContentObject;
use sqlx::any::AnyArguments;
use sqlx::query::Query;
use sqlx::{Any, AssertSqlSafe, Row};

fn bind_all<'q>(mut query: Query<'q, Any, AnyArguments>, binds: &'q [Bind]) -> Query<'q, Any, AnyArguments> {
    for bind in binds {
        query = match bind {
            Bind::Text(text) => query.bind(text.as_str()),
            Bind::Int(number) => query.bind(*number),
        };
    }
    query
}

impl Store {
    /// One page of search results.
    pub async fn search(&self, sql: &SearchSql, offset: i64, limit: i64) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.count();
        let n = sql.binds.len();
        let text = format!(
            "SELECT {CONTENT_COLUMNS} FROM content WHERE {} ORDER BY {} LIMIT ${} OFFSET ${}",
            sql.condition,
            sql.order,
            n + 1,
            n + 2
        );
        bind_all(sqlx::query(AssertSqlSafe(text)), &sql.binds)
            .bind(limit)
            .bind(offset)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(content_from_row)
            .collect()
    }

    /// How many objects match.
    pub async fn count_search(&self, sql: &SearchSql) -> Result<i64, sqlx::Error> {
        self.count();
        let text = format!("SELECT COUNT(*) FROM content WHERE {}", sql.condition);
        bind_all(sqlx::query(AssertSqlSafe(text)), &sql.binds).fetch_one(&self.pool).await?.try_get(0)
    }
}
