//! Running catalog searches: one statement for the page, one for the total, over SQL the
//! catalog builds with these primitives.

use super::rows::{CONTENT_COLUMNS, content_from_row};
use super::{Backend, Store};
use crate::content::ContentObject;
use sqlx::any::AnyArguments;
use sqlx::query::Query;
use sqlx::{Any, AssertSqlSafe, Row};

/// A bound parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bind {
    /// Text.
    Text(String),
    /// A whole number.
    Int(i64),
}

/// The SQL for a search (the catalog builds it; missing values sort first on both engines): a
/// `WHERE` condition, an `ORDER BY` list and their parameters.
#[derive(Clone, Debug)]
pub struct SearchSql {
    /// The condition (without `WHERE`).
    pub condition: String,
    /// The ordering (without `ORDER BY`).
    pub order: String,
    /// Parameters for `$1…` in the condition.
    pub binds: Vec<Bind>,
}

/// The SQL text of a top-level JSON field, e.g. `subjects`; `name` is a fixed identifier
/// (a plugin's is checked at start-up).
pub fn json_field(backend: Backend, table: &str, name: &'static str) -> String {
    match backend {
        Backend::Sqlite => format!("json_extract({table}.fields, '$.{name}')"),
        Backend::Postgres => format!("(CAST({table}.fields AS jsonb) ->> '{name}')"),
    }
}

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
