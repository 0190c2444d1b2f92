//! Redirects from old paths to the objects that lived there. They point at uids, not paths,
//! so a chain of moves resolves in one lookup.

use super::rows::{placeholders, time_from_db, time_to_db};
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

/// One stored redirect: the old path, where its object is now, and since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The old physical path.
    pub old_path: String,
    /// The current physical path of the object.
    pub target_path: String,
    /// When the redirect was recorded.
    pub created: chrono::DateTime<chrono::Utc>,
    /// Whether an editor added it (rather than a move or rename).
    pub manual: bool,
}

impl Store {
    /// A page of the redirects to live objects below `root` (to `target` only, when given),
    /// oldest path first, and how many there are.
    pub async fn aliases(
        &self,
        root: &str,
        target: Option<&str>,
        start: i64,
        size: i64,
    ) -> Result<(Vec<Alias>, i64), sqlx::Error> {
        let filter = "FROM redirect r JOIN content c ON c.uid = r.target_uid \
                      WHERE c.trashed = 0 AND r.old_path >= $1 AND r.old_path < $2 AND ($3 = '' OR r.target_uid = $3)";
        let (from, to) = (format!("{root}/"), subtree_end(root));
        let target = target.unwrap_or_default();
        self.count();
        let total: i64 = sqlx::query(AssertSqlSafe(format!("SELECT COUNT(*) {filter}")))
            .bind(&from)
            .bind(&to)
            .bind(target)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        self.count();
        let sql =
            format!("SELECT r.old_path, c.path, r.created, r.manual {filter} ORDER BY r.old_path LIMIT $4 OFFSET $5");
        let rows = sqlx::query(AssertSqlSafe(sql))
            .bind(&from)
            .bind(&to)
            .bind(target)
            .bind(size)
            .bind(start)
            .fetch_all(&self.pool)
            .await?;
        let aliases = rows
            .iter()
            .map(|row| {
                Ok(Alias {
                    old_path: row.try_get(0)?,
                    target_path: row.try_get(1)?,
                    created: time_from_db(&row.try_get::<String, _>(2)?)?,
                    manual: row.try_get::<i64, _>(3)? != 0,
                })
            })
            .collect::<Result<Vec<Alias>, sqlx::Error>>()?;
        Ok((aliases, total))
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
