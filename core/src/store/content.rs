//! Queries on the content tree. Every listing is one statement, whatever its length.

use super::changes::{ORDERING, changed_fields};
use super::rows::{BRIEF_COLUMNS, CONTENT_COLUMNS, content_from_row, placeholders, time_to_db};
use super::{Store, Tx, subtree_end};
use crate::content::ContentObject;
use crate::events::Event;
use crate::security::Visibility;
use sqlx::{AssertSqlSafe, Row};

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
        self.visible_content_where_in(column, values, &Visibility::All).await
    }

    /// One statement for a whole list of keys, so lookups never go N+1.
    /// The live objects with any of `uids` that `visibility` lets the caller see, without
    /// their field values: enough for summaries, and cheap whatever the fields hold.
    pub async fn visible_briefs_by_uids(
        &self,
        uids: &[String],
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.visible_where_in(BRIEF_COLUMNS, "uid", uids, visibility).await
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
        columns: &'static str,
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
            "SELECT {columns} FROM content WHERE trashed = 0 AND {column} IN ({}){filter}",
            placeholders(1, values.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for value in values.iter().chain(tokens) {
            query = query.bind(value.as_str());
        }
        query.fetch_all(&self.pool).await?.iter().map(content_from_row).collect()
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
        for token in tokens {
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
        for token in tokens {
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

    /// The live descendants of any of `roots` at most `levels` below it that `visibility`
    /// lets the caller see, in one statement; in path order. Navigation trees use it.
    pub async fn descendants(
        &self,
        roots: &[String],
        levels: usize,
        visibility: &Visibility,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        let depth = |path: &str| path.matches('/').count();
        let Some(deepest) = roots.iter().map(|r| depth(r)).max() else {
            return Ok(Vec::new());
        };
        let ranges: Vec<String> =
            (0..roots.len()).map(|i| format!("(path >= ${} AND path < ${})", 2 * i + 2, 2 * i + 3)).collect();
        let (filter, tokens) = visibility_filter(visibility, 2 * roots.len() + 2);
        let sql = format!(
            "SELECT {CONTENT_COLUMNS} FROM content WHERE trashed = 0              AND LENGTH(path) - LENGTH(REPLACE(path, '/', '')) <= $1 AND ({}){filter} ORDER BY path",
            ranges.join(" OR ")
        );
        self.count();
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind((deepest + levels) as i64);
        for root in roots {
            query = query.bind(format!("{root}/")).bind(subtree_end(root));
        }
        for token in tokens {
            query = query.bind(token.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut found = Vec::with_capacity(rows.len());
        for row in &rows {
            let object = content_from_row(row)?;
            let within = roots.iter().any(|root| {
                object.path.starts_with(&format!("{root}/")) && depth(&object.path) <= depth(root) + levels
            });
            if within {
                found.push(object);
            }
        }
        Ok(found)
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
        self.count();
        let sql = format!(
            "SELECT {CONTENT_COLUMNS} FROM content WHERE trashed = 0 AND (path = $1 OR (path >= $2 AND path < $3)) \
             ORDER BY path"
        );
        sqlx::query(AssertSqlSafe(sql))
            .bind(path)
            .bind(format!("{path}/"))
            .bind(subtree_end(path))
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(content_from_row)
            .collect()
    }
}

impl Tx {
    /// Inserts a new object.
    pub async fn insert_content(&mut self, object: &ContentObject) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO content (uid, parent_uid, path, id, portal_type, position, title, description, \
             review_state, created, modified, effective, expires, creator, fields, block_local_roles, working_copy_of) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        )
        .bind(&object.uid)
        .bind(object.parent_uid.as_deref())
        .bind(&object.path)
        .bind(&object.id)
        .bind(&object.portal_type)
        .bind(object.position)
        .bind(&object.title)
        .bind(&object.description)
        .bind(object.review_state.as_deref())
        .bind(time_to_db(object.created))
        .bind(time_to_db(object.modified))
        .bind(object.effective.map(time_to_db))
        .bind(object.expires.map(time_to_db))
        .bind(&object.creator)
        .bind(serde_json::Value::Object(object.fields.clone()).to_string())
        .bind(i64::from(object.block_local_roles))
        .bind(object.working_copy_of.as_deref())
        .execute(&mut *self.inner)
        .await?;
        self.emit(Event::Added { uid: object.uid.clone(), path: object.path.clone() });
        Ok(())
    }

    /// Writes an object's editable columns and fields (not its place in the tree); `before`
    /// is what it was, so the event names what changed.
    pub async fn update_content(&mut self, before: &ContentObject, object: &ContentObject) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "UPDATE content SET title = $1, description = $2, review_state = $3, modified = $4, \
             effective = $5, expires = $6, fields = $7 WHERE uid = $8",
        )
        .bind(&object.title)
        .bind(&object.description)
        .bind(object.review_state.as_deref())
        .bind(time_to_db(object.modified))
        .bind(object.effective.map(time_to_db))
        .bind(object.expires.map(time_to_db))
        .bind(serde_json::Value::Object(object.fields.clone()).to_string())
        .bind(&object.uid)
        .execute(&mut *self.inner)
        .await?;
        let fields = changed_fields(before, object);
        if let Some(state) = object.review_state.as_ref().filter(|s| before.review_state.as_ref() != Some(*s)) {
            self.emit(Event::WorkflowChanged { uid: object.uid.clone(), state: state.clone() });
        }
        if !fields.is_empty() {
            self.emit(Event::Modified { uid: object.uid.clone(), fields });
        }
        Ok(())
    }

    /// Marks `uid` as the working copy of `baseline_uid`; fails on the unique index when the
    /// baseline is already checked out.
    pub async fn set_working_copy_of(&mut self, uid: &str, baseline_uid: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("UPDATE content SET working_copy_of = $1 WHERE uid = $2")
            .bind(baseline_uid)
            .bind(uid)
            .execute(&mut *self.inner)
            .await?;
        Ok(())
    }

    /// Moves one object to `position` among its siblings.
    pub async fn set_position(&mut self, uid: &str, position: i64) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("UPDATE content SET position = $1 WHERE uid = $2")
            .bind(position)
            .bind(uid)
            .execute(&mut *self.inner)
            .await?;
        self.emit(Event::Modified { uid: uid.to_owned(), fields: vec!["position".to_owned()] });
        Ok(())
    }

    /// The next free position at the end of a container.
    pub async fn next_position(&mut self, parent_uid: &str) -> Result<i64, sqlx::Error> {
        self.count();
        let row = sqlx::query("SELECT COALESCE(MAX(position), -1) + 1 FROM content WHERE parent_uid = $1")
            .bind(parent_uid)
            .fetch_one(&mut *self.inner)
            .await?;
        row.try_get(0)
    }

    /// Sets the positions of a container's children to their order in `ids_in_order`.
    pub async fn set_positions(&mut self, parent_uid: &str, ids_in_order: &[String]) -> Result<(), sqlx::Error> {
        for (position, id) in ids_in_order.iter().enumerate() {
            self.count();
            sqlx::query("UPDATE content SET position = $1 WHERE parent_uid = $2 AND id = $3")
                .bind(position as i64)
                .bind(parent_uid)
                .bind(id)
                .execute(&mut *self.inner)
                .await?;
        }
        self.emit(Event::Modified { uid: parent_uid.to_owned(), fields: vec![ORDERING.to_owned()] });
        Ok(())
    }

    /// Moves or renames a subtree: rewrites every descendant path in one statement and records
    /// a redirect from each old path to its object.
    pub async fn move_subtree(
        &mut self,
        object: &ContentObject,
        new_parent_uid: &str,
        new_path: &str,
        new_id: &str,
        position: i64,
    ) -> Result<(), sqlx::Error> {
        let old_path = object.path.as_str();
        self.count();
        sqlx::query(
            "UPDATE content SET path = $1 || substr(path, CAST($2 AS INTEGER)) \
             WHERE path = $3 OR (path >= $4 AND path < $5)",
        )
        .bind(new_path)
        .bind(old_path.len() as i64 + 1)
        .bind(old_path)
        .bind(format!("{old_path}/"))
        .bind(subtree_end(old_path))
        .execute(&mut *self.inner)
        .await?;
        self.count();
        sqlx::query("UPDATE content SET parent_uid = $1, id = $2, position = $3, modified = $4 WHERE uid = $5")
            .bind(new_parent_uid)
            .bind(new_id)
            .bind(position)
            .bind(time_to_db(chrono::Utc::now()))
            .bind(&object.uid)
            .execute(&mut *self.inner)
            .await?;
        self.record_redirects(old_path, new_path).await?;
        self.emit(Event::Moved { uid: object.uid.clone(), from: old_path.to_owned(), to: new_path.to_owned() });
        Ok(())
    }

    /// Removes an object, its descendants, their blobs and the redirects that point at them.
    pub async fn delete_subtree(&mut self, root: &ContentObject) -> Result<(), sqlx::Error> {
        let path = root.path.as_str();
        let within = "SELECT uid FROM content WHERE path = $1 OR (path >= $2 AND path < $3)";
        for sql in [
            format!("DELETE FROM blob WHERE content_uid IN ({within})"),
            format!("DELETE FROM redirect WHERE target_uid IN ({within})"),
            format!("DELETE FROM allowed WHERE content_uid IN ({within})"),
            format!("DELETE FROM local_role WHERE content_uid IN ({within})"),
            format!("DELETE FROM workflow_history WHERE content_uid IN ({within})"),
            format!("DELETE FROM relation WHERE source_uid IN ({within})"),
            format!("DELETE FROM image_scale WHERE content_uid IN ({within})"),
        ]
        .into_iter()
        .chain(["DELETE FROM content WHERE path = $1 OR (path >= $2 AND path < $3)".to_owned()])
        {
            self.count();
            sqlx::query(AssertSqlSafe(sql))
                .bind(path)
                .bind(format!("{path}/"))
                .bind(subtree_end(path))
                .execute(&mut *self.inner)
                .await?;
        }
        self.emit(Event::Removed { uid: root.uid.clone(), path: root.path.clone() });
        Ok(())
    }
}

/// The SQL condition that keeps only what `visibility` allows, with its parameters starting
/// at `$first`. Security is part of the query, so batches and counts are right.
pub fn visibility_filter(visibility: &Visibility, first: usize) -> (String, &[String]) {
    visibility_filter_on("content", visibility, first)
}

/// [`visibility_filter`] for a content table known by another name in the query.
pub fn visibility_filter_on<'v>(table: &str, visibility: &'v Visibility, first: usize) -> (String, &'v [String]) {
    match visibility {
        Visibility::All => (String::new(), &[]),
        Visibility::Tokens(tokens) => (
            format!(
                " AND EXISTS (SELECT 1 FROM allowed a WHERE a.content_uid = {table}.uid AND a.token IN ({}))",
                placeholders(first, tokens.len())
            ),
            tokens.as_slice(),
        ),
    }
}
