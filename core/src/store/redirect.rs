//! Redirects from old paths to the objects that lived there. They point at uids, not paths,
//! so a chain of moves resolves in one lookup.

use super::rows::{placeholders, time_to_db};
use super::{Store, Tx, subtree_end};
use sqlx::{AssertSqlSafe, Row};

/// The longest stored old path that prefixes a requested path, and where it points now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedirectHit {
    /// The stored old path that matched.
    pub old_path: String,
    /// The current path of the target.
    pub target_path: String,
    /// Whether the target is in the trash (then there is no redirect).
    pub target_trashed: bool,
}

impl Store {
    /// Looks up the longest of `candidates` that has a redirect.
    pub async fn find_redirect(&self, candidates: &[String]) -> Result<Option<RedirectHit>, sqlx::Error> {
        if candidates.is_empty() {
            return Ok(None);
        }
        self.count();
        let sql = format!(
            "SELECT r.old_path, c.path, c.trashed FROM redirect r JOIN content c ON c.uid = r.target_uid \
             WHERE r.old_path IN ({})",
            placeholders(1, candidates.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for candidate in candidates {
            query = query.bind(candidate.as_str());
        }
        let mut best: Option<RedirectHit> = None;
        for row in query.fetch_all(&self.pool).await? {
            let hit = RedirectHit {
                old_path: row.try_get(0)?,
                target_path: row.try_get(1)?,
                target_trashed: row.try_get::<i64, _>(2)? != 0,
            };
            if best.as_ref().is_none_or(|b| hit.old_path.len() > b.old_path.len()) {
                best = Some(hit);
            }
        }
        Ok(best)
    }
}

impl Tx {
    /// After a subtree moved from `old_root` to `new_root`, maps every old path to its object.
    pub(super) async fn record_redirects(&mut self, old_root: &str, new_root: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO redirect (old_path, target_uid, created) \
             SELECT $1 || substr(path, CAST($2 AS INTEGER)), uid, $3 FROM content \
             WHERE path = $4 OR (path >= $5 AND path < $6) \
             ON CONFLICT (old_path) DO UPDATE SET target_uid = excluded.target_uid, created = excluded.created",
        )
        .bind(old_root)
        .bind(new_root.len() as i64 + 1)
        .bind(time_to_db(chrono::Utc::now()))
        .bind(new_root)
        .bind(format!("{new_root}/"))
        .bind(subtree_end(new_root))
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }
}
