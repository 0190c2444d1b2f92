//! Which objects link to others in their text: rich text, link fields and Volto blocks keep
//! internal links as `resolveuid/<uid>`, so a link to an object is that text in a field value.

use super::Store;
use sqlx::{AssertSqlSafe, Row};
use std::collections::BTreeSet;

/// Uids per statement (each is one `LIKE` over the field values).
const CHUNK: usize = 50;

impl Store {
    /// The uids of live objects whose field values link to any of `uids`.
    pub async fn linking_to(&self, uids: &[String]) -> Result<BTreeSet<String>, sqlx::Error> {
        let mut found = BTreeSet::new();
        for chunk in uids.chunks(CHUNK) {
            self.count();
            let clause: Vec<String> = (1..=chunk.len()).map(|n| format!("fields LIKE ${n}")).collect();
            let sql = format!("SELECT uid FROM content WHERE trashed = 0 AND ({})", clause.join(" OR "));
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for uid in chunk {
                // Uids are hex: no LIKE wildcards to escape.
                query = query.bind(format!("%resolveuid/{uid}%"));
            }
            for row in query.fetch_all(&self.pool).await? {
                found.insert(row.try_get::<String, _>(0)?);
            }
        }
        Ok(found)
    }
}
