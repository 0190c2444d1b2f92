//! Writes to the content tree, inside a [`Tx`], each recording the event it stands for.

use super::Tx;
use super::changes::{ORDERING, changed_fields};
use super::rows::{fields_to_db, time_to_db};
use super::subtree_end;
use crate::content::ContentObject;
use crate::events::Event;
use sqlx::{AssertSqlSafe, Row};
use std::sync::Arc;

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
        .bind(fields_to_db(&object.fields)?)
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
        self.write_content(before, object, false).await?;
        self.remember_edit(|| Arc::new(super::content_memo::as_stored_object(object)));
        Ok(())
    }

    /// As [`Tx::update_content`], but only while the stored object is still `before` (its
    /// `modified` unchanged) and not in the trash: `false`, and nothing written, when another
    /// write came first, whose changes a write based on `before` would otherwise silently undo,
    /// or the object was trashed, which leaves `modified` alone.
    ///
    /// What the store remembers of the write shares `object` when it can
    /// ([`shared_as_stored`](super::content_memo::shared_as_stored)).
    pub async fn update_content_unless_changed(
        &mut self,
        before: &ContentObject,
        object: &Arc<ContentObject>,
    ) -> Result<bool, sqlx::Error> {
        let written = self.write_content(before, object, true).await?;
        if written {
            self.remember_edit(|| super::content_memo::shared_as_stored(object));
        }
        Ok(written)
    }

    /// What this transaction wrote, for the memory of objects once committed, and as the
    /// newest version to build the next write on: this instance's writes take turns and commit
    /// in the order they write (see [`group_commit`](super::group_commit)); what another
    /// instance writes on PostgreSQL makes the store forget (see [`follow`](super::follow)).
    fn remember_edit(&mut self, written: impl FnOnce() -> Arc<ContentObject>) {
        let written = written();
        self.store.memo.written.put(written.uid.clone(), written.clone());
        self.edits.push(written);
    }

    async fn write_content(
        &mut self,
        before: &ContentObject,
        object: &ContentObject,
        guarded: bool,
    ) -> Result<bool, sqlx::Error> {
        self.count();
        let sql = if guarded {
            "UPDATE content SET title = $1, description = $2, review_state = $3, modified = $4, \
             effective = $5, expires = $6, fields = $7 WHERE uid = $8 AND modified = $9 AND trashed = 0"
        } else {
            "UPDATE content SET title = $1, description = $2, review_state = $3, modified = $4, \
             effective = $5, expires = $6, fields = $7 WHERE uid = $8"
        };
        let mut query = sqlx::query(sql)
            .bind(&object.title)
            .bind(&object.description)
            .bind(object.review_state.as_deref())
            .bind(time_to_db(object.modified))
            .bind(object.effective.map(time_to_db))
            .bind(object.expires.map(time_to_db))
            .bind(fields_to_db(&object.fields)?)
            .bind(&object.uid);
        if guarded {
            query = query.bind(time_to_db(before.modified));
        }
        let written = query.execute(&mut *self.inner).await?;
        if written.rows_affected() == 0 && guarded {
            return Ok(false);
        }
        let fields = changed_fields(before, object);
        if let Some(state) = object.review_state.as_ref().filter(|s| before.review_state.as_ref() != Some(*s)) {
            self.emit(Event::WorkflowChanged { uid: object.uid.clone(), state: state.clone() });
        }
        if !fields.is_empty() {
            self.emit(Event::Modified { uid: object.uid.clone(), fields });
        }
        Ok(true)
    }

    /// Marks `uid` as the working copy of `baseline_uid`; fails on the unique index when the
    /// baseline is already checked out.
    pub async fn set_working_copy_of(&mut self, uid: &str, baseline_uid: &str) -> Result<(), sqlx::Error> {
        self.facts_written = true;
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
        self.facts_written = true;
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
        self.facts_written = true;
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
    /// a redirect from each old path to its object. `false` when the object is no longer where
    /// it was read (another request moved or deleted it); nothing is changed then.
    pub async fn move_subtree(
        &mut self,
        object: &ContentObject,
        new_parent_uid: &str,
        new_path: &str,
        new_id: &str,
        position: i64,
    ) -> Result<bool, sqlx::Error> {
        let old_path = object.path.as_str();
        self.count();
        let moved = sqlx::query(
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
        if moved.rows_affected() == 0 {
            // Moved or deleted by another request since it was read: nothing to do here.
            return Ok(false);
        }
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
        Ok(true)
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::store::test_support::{object, store};
    use std::sync::Arc;

    #[tokio::test]
    async fn a_guarded_write_refuses_a_changed_or_trashed_object() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir).await;
        let stored = object("page");
        let mut tx = store.begin().await.unwrap();
        tx.insert_content(&stored).await.unwrap();
        tx.commit().await.unwrap();

        let mut first = stored.clone();
        first.title = "first".to_owned();
        first.modified = stored.modified + chrono::Duration::seconds(1);
        let mut second = stored.clone();
        second.title = "second".to_owned();
        let mut tx = store.begin().await.unwrap();
        assert!(tx.update_content_unless_changed(&stored, &Arc::new(first.clone())).await.unwrap());
        let built_on_old = tx.update_content_unless_changed(&stored, &Arc::new(second)).await.unwrap();
        assert!(!built_on_old, "built on an old version");
        tx.trash(&first, chrono::Utc::now()).await.unwrap();
        let mut third = first.clone();
        third.title = "third".to_owned();
        assert!(!tx.update_content_unless_changed(&first, &Arc::new(third)).await.unwrap(), "written to the trash");
        let now = tx.content_by_uid(&stored.uid).await.unwrap().unwrap();
        assert_eq!(now.title, "first");
    }
}
