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

/// Which aliases a listing shows: the site's (or one object's), optionally narrowed as the
/// redirects control panel narrows them.
#[derive(Clone, Copy, Debug, Default)]
pub struct AliasQuery<'a> {
    /// Only the aliases of this object (uid).
    pub target: Option<&'a str>,
    /// Text from the listing's search box: an old path starting with it when it starts with
    /// `/` (inside the site), else an old path containing it.
    pub text: Option<&'a str>,
}

impl Store {
    /// A page of the redirects to live objects below `root` matching `query`, oldest path
    /// first, and how many there are.
    pub async fn aliases(
        &self,
        root: &str,
        query: AliasQuery<'_>,
        start: i64,
        size: i64,
    ) -> Result<(Vec<Alias>, i64), sqlx::Error> {
        let filter = "FROM redirect r JOIN content c ON c.uid = r.target_uid \
                      WHERE c.trashed = 0 AND r.old_path >= $1 AND r.old_path < $2 AND ($3 = '' OR r.target_uid = $3) \
                      AND ($4 = '' OR r.old_path LIKE $4 ESCAPE '\\')";
        let text = query.text.unwrap_or_default();
        let (from, to, pattern) = match text.strip_prefix('/') {
            Some(_) => {
                let prefix = format!("{root}{text}");
                let end = prefix_end(&prefix);
                (prefix, end, String::new())
            }
            None if text.is_empty() => (format!("{root}/"), subtree_end(root), String::new()),
            None => (format!("{root}/"), subtree_end(root), format!("%{}%", escape_like(text))),
        };
        let target = query.target.unwrap_or_default();
        self.count();
        let total: i64 = sqlx::query(AssertSqlSafe(format!("SELECT COUNT(*) {filter}")))
            .bind(&from)
            .bind(&to)
            .bind(target)
            .bind(&pattern)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        self.count();
        let sql =
            format!("SELECT r.old_path, c.path, r.created, r.manual {filter} ORDER BY r.old_path LIMIT $5 OFFSET $6");
        let rows = sqlx::query(AssertSqlSafe(sql))
            .bind(&from)
            .bind(&to)
            .bind(target)
            .bind(&pattern)
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

/// The least string after every string that starts with `prefix` (`prefix` is not empty).
fn prefix_end(prefix: &str) -> String {
    let mut chars: Vec<char> = prefix.chars().collect();
    match chars.pop() {
        Some(last) => {
            let next = char::from_u32(u32::from(last) + 1).unwrap_or(char::MAX);
            chars.push(next);
            chars.into_iter().collect()
        }
        None => String::new(),
    }
}

/// `text` with LIKE's wildcards and the escape character escaped (escape character `\`).
fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

#[cfg(test)]
mod tests {
    use super::{escape_like, prefix_end};

    #[test]
    fn a_prefix_ends_before_the_next_string_without_it() {
        assert_eq!(prefix_end("/plone/fizz"), "/plone/fiz{");
        assert!("/plone/fizzbuzz" < prefix_end("/plone/fizz").as_str());
        assert!("/plone/fj" > prefix_end("/plone/fizz").as_str());
    }

    #[test]
    fn like_wildcards_are_taken_literally() {
        assert_eq!(escape_like("50%_a\\b"), "50\\%\\_a\\\\b");
    }
}
