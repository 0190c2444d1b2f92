//! The tags (`subjects`) in use: Plone's Keywords vocabulary, which tag widgets offer.

use super::Visibility;
use super::content::visibility_filter;
use super::{Backend, Store};
use sqlx::{AssertSqlSafe, Row};

/// The most distinct tags listed.
const MAX_KEYWORDS: i64 = 10_000;

impl Store {
    /// The distinct tags of the live objects `visibility` lets the caller see, sorted.
    pub async fn keywords(&self, visibility: &Visibility) -> Result<Vec<String>, sqlx::Error> {
        let (filter, tokens) = visibility_filter(visibility, 2);
        let tags = match self.backend {
            Backend::Sqlite => "json_each(content.fields, '$.subjects') tag",
            Backend::Postgres => "jsonb_array_elements_text(CAST(content.fields AS jsonb) -> 'subjects') AS tag(value)",
        };
        let condition = match self.backend {
            Backend::Sqlite => "json_type(content.fields, '$.subjects') = 'array'",
            Backend::Postgres => "jsonb_typeof(CAST(content.fields AS jsonb) -> 'subjects') = 'array'",
        };
        // The array check sits in a subquery so the set-returning function only sees arrays.
        let sql = format!(
            "SELECT DISTINCT tag.value FROM (SELECT uid, fields FROM content WHERE trashed = 0 AND {condition}{filter}) \
             content, {tags} ORDER BY tag.value LIMIT $1"
        );
        self.count();
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(MAX_KEYWORDS);
        for token in &tokens {
            query = query.bind(token.as_str());
        }
        query.fetch_all(&self.pool).await?.iter().map(|row| row.try_get(0)).collect()
    }
}
