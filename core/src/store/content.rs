//! Reads of the content tree. Every listing is one statement, whatever its length.

use super::Visibility;
use super::rows::{CONTENT_COLUMNS, brief_columns, content_from_packed, content_from_row, packed, placeholders};
use super::{Store, subtree_end};
use crate::content::ContentObject;
use sqlx::{AssertSqlSafe, Row};
use std::sync::Arc;

impl Store {
    /// The live objects at any of `paths` (trashed ones are invisible).
    pub async fn content_at_paths(&self, paths: &[String]) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.live_content_where_in("path", paths).await
    }

    /// A live object by path.
    pub async fn content_at_path(&self, path: &str) -> Result<Option<ContentObject>, sqlx::Error> {
        Ok(self.content_at_paths(&[path.to_owned()]).await?.pop())
    }

    /// The live objects with any of `uids`, in no particular order.
    pub async fn content_by_uids(&self, uids: &[String]) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.live_content_where_in("uid", uids).await
    }

    /// The live objects with any of `uids` that `visibility` lets the caller see.
    pub async fn visible_content_by_uids(
        &self,
        uids: &[String],
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.visible_content_where_in("uid", uids, visibility).await
    }

    /// The live objects at any of `paths` that `visibility` lets the caller see.
    pub async fn visible_content_at_paths(
        &self,
        paths: &[String],
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.visible_content_where_in("path", paths, visibility).await
    }

    async fn live_content_where_in(
        &self,
        column: &'static str,
        values: &[String],
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.visible_content_where_in(column, values, &Visibility::ALL).await
    }

    /// One statement for a whole list of keys, so lookups never go N+1.
    /// The live objects with any of `uids` that `visibility` lets the caller see, with only
    /// the field values summaries read: cheap whatever the fields hold.
    pub async fn visible_briefs_by_uids(
        &self,
        uids: &[String],
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.visible_where_in(brief_columns(self.backend), "uid", uids, visibility).await
    }

    /// The live children of `parents` that `visibility` lets the caller see, as briefs: one
    /// level of a tree per statement (the parent index answers it), whatever lies deeper.
    pub async fn visible_briefs_by_parents(
        &self,
        parents: &[String],
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.visible_where_in(brief_columns(self.backend), "parent_uid", parents, visibility).await
    }

    async fn visible_content_where_in(
        &self,
        column: &'static str,
        values: &[String],
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.visible_where_in(CONTENT_COLUMNS, column, values, visibility).await
    }

    async fn visible_where_in(
        &self,
        columns: &str,
        column: &'static str,
        values: &[String],
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        if values.is_empty() {
            return Ok(Vec::new());
        }
        self.count();
        let (filter, tokens) = visibility_filter(visibility, values.len() + 1);
        let sql = format!(
            "SELECT {} FROM content WHERE trashed = 0 AND {column} IN ({}){filter}",
            packed(self.backend, columns),
            placeholders(1, values.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for value in values.iter().chain(&tokens) {
            query = query.bind(value.as_str());
        }
        content_from_packed(&query.fetch_one(&self.pool).await?)
    }

    /// One page of the children `visibility` lets the caller see, in position order.
    pub async fn children(
        &self,
        parent_uid: &str,
        visibility: &Visibility,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.count();
        let (filter, tokens) = visibility_filter(visibility, 4);
        let sql = format!(
            "SELECT {CONTENT_COLUMNS} FROM content WHERE parent_uid = $1 AND trashed = 0{filter} \
             ORDER BY position, id LIMIT $2 OFFSET $3"
        );
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(parent_uid).bind(limit).bind(offset);
        for token in &tokens {
            query = query.bind(token.as_str());
        }
        query.fetch_all(&self.pool).await?.iter().map(content_from_row).collect()
    }

    /// How many children `visibility` lets the caller see.
    pub async fn count_children(&self, parent_uid: &str, visibility: &Visibility) -> Result<i64, sqlx::Error> {
        self.count();
        let (filter, tokens) = visibility_filter(visibility, 2);
        let sql = format!("SELECT COUNT(*) FROM content WHERE parent_uid = $1 AND trashed = 0{filter}");
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(parent_uid);
        for token in &tokens {
            query = query.bind(token.as_str());
        }
        query.fetch_one(&self.pool).await?.try_get(0)
    }

    /// The ids of all children, trashed ones included (their ids stay reserved), in position order.
    pub async fn child_ids(&self, parent_uid: &str) -> Result<Vec<String>, sqlx::Error> {
        self.count();
        sqlx::query("SELECT id FROM content WHERE parent_uid = $1 ORDER BY position, id")
            .bind(parent_uid)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| row.try_get(0))
            .collect()
    }

    /// The newest version of `object` this process wrote, when it is newer than `object`:
    /// once a write holds the write turn, that is what is stored unless the write that made
    /// it was rolled back (or, on PostgreSQL, another instance wrote since), so it is a better
    /// first guess than `object` itself for a write guarded by
    /// [`Tx::update_content_unless_changed`](super::Tx::update_content_unless_changed).
    pub fn newest_written(&self, object: &ContentObject) -> Option<Arc<ContentObject>> {
        // Only a guess that a guarded write checks, so however old it is.
        let written = self.memo.written.recall(&object.uid, std::time::Duration::MAX).ok()?;
        (written.modified > object.modified).then_some(written)
    }

    /// Where the live working copy checked out from `baseline_uid` is, if there is one: what
    /// every write to a baseline checks first, so it is remembered on SQLite.
    pub async fn working_copy_path(&self, baseline_uid: &str) -> Result<Option<String>, sqlx::Error> {
        let read = async { Ok(self.working_copy_of(baseline_uid).await?.map(|copy| copy.path)) };
        self.remembered(&self.memo.working_copies, baseline_uid, read).await
    }

    /// The live working copy checked out from `baseline_uid`, if any.
    pub async fn working_copy_of(&self, baseline_uid: &str) -> Result<Option<ContentObject>, sqlx::Error> {
        self.count();
        let sql = format!("SELECT {CONTENT_COLUMNS} FROM content WHERE working_copy_of = $1 AND trashed = 0");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(baseline_uid).fetch_optional(&self.pool).await?;
        row.as_ref().map(content_from_row).transpose()
    }

    /// An object and all its descendants, parents before children.
    pub async fn subtree(&self, path: &str) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.visible_subtree(path, &Visibility::ALL).await
    }

    /// A page of an object and its descendants in path order, those of `except_types` left
    /// out: at most `limit`, the first after the path `after` (`""` for the first page). Work
    /// over a whole site (a search index rebuilt) goes page by page, with bounded memory.
    pub async fn subtree_page(
        &self,
        path: &str,
        after: &str,
        except_types: &[String],
        limit: i64,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.count();
        let sql = format!(
            "SELECT {CONTENT_COLUMNS} FROM content WHERE trashed = 0 AND (path = $1 OR (path >= $2 AND path < $3)) \
             AND path > $4 AND portal_type NOT IN ({}) ORDER BY path LIMIT ${}",
            placeholders(5, except_types.len().max(1)),
            5 + except_types.len().max(1)
        );
        let mut query =
            sqlx::query(AssertSqlSafe(sql)).bind(path).bind(format!("{path}/")).bind(subtree_end(path)).bind(after);
        for portal_type in except_types {
            query = query.bind(portal_type.as_str());
        }
        if except_types.is_empty() {
            // `NOT IN ()` is no SQL: a type no object has stands in.
            query = query.bind("");
        }
        query.bind(limit).fetch_all(&self.pool).await?.iter().map(content_from_row).collect()
    }

    /// An object and those of its descendants `visibility` lets the caller see, each only with
    /// its container: what lies inside something hidden stays hidden too. Parents come before
    /// children; an invisible object yields nothing.
    pub async fn visible_subtree(
        &self,
        path: &str,
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.count();
        let (filter, tokens) = visibility_filter(visibility, 4);
        let sql = format!(
            "SELECT {CONTENT_COLUMNS} FROM content WHERE trashed = 0 AND (path = $1 OR (path >= $2 AND path < $3))\
             {filter} ORDER BY path"
        );
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(path).bind(format!("{path}/")).bind(subtree_end(path));
        for token in &tokens {
            query = query.bind(token.as_str());
        }
        let found: Vec<ContentObject> =
            query.fetch_all(&self.pool).await?.iter().map(content_from_row).collect::<Result<_, _>>()?;
        let mut kept_uids = std::collections::HashSet::with_capacity(found.len());
        let mut kept = Vec::with_capacity(found.len());
        for object in found {
            let reachable =
                object.path == path || object.parent_uid.as_deref().is_some_and(|parent| kept_uids.contains(parent));
            if reachable {
                kept_uids.insert(object.uid.clone());
                kept.push(object);
            }
        }
        Ok(kept)
    }
}

/// The SQL condition that keeps only what `visibility` allows, with its parameters starting
/// at `$first`. Security is part of the query, so batches and counts are right.
///
/// The rows it filters are few (children, the objects of a list of uids), so each is looked up
/// in `allowed` by its primary key. `OFFSET` keeps PostgreSQL from turning the lookup into a
/// join that reads every `allowed` row of the caller's tokens, which its planner picks when
/// its statistics are old (after an import, or with autovacuum off) and which costs a
/// navigation tree 45 ms instead of 2 at 10,000 objects. Searches, which filter the whole
/// site, build their own condition (see the catalog).
pub fn visibility_filter(visibility: &Visibility, first: usize) -> (String, Vec<String>) {
    visibility_filter_on("content", visibility, first)
}

/// [`visibility_filter`] for a content table known by another name in the query.
pub fn visibility_filter_on(table: &str, visibility: &Visibility, first: usize) -> (String, Vec<String>) {
    let mut condition = String::new();
    let mut binds = Vec::new();
    if let Some(tokens) = &visibility.tokens {
        condition.push_str(&format!(
            " AND EXISTS (SELECT 1 FROM allowed a WHERE a.content_uid = {table}.uid AND a.token IN ({}) \
             LIMIT 1 OFFSET 0)",
            placeholders(first, tokens.len())
        ));
        binds.extend(tokens.iter().cloned());
    }
    if let Some(at) = visibility.active_at {
        let now = first + binds.len();
        condition.push_str(&format!(
            " AND ({table}.effective IS NULL OR {table}.effective <= ${now}) \
             AND ({table}.expires IS NULL OR {table}.expires > ${now})"
        ));
        binds.push(super::time_to_db(at));
    }
    (condition, binds)
}
