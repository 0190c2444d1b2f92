//! Local roles, the `allowed` tokens, workflow history and trash.
//! Reads that a write transaction needs (it must see its own changes) are generic over the
//! executor and exposed on both [`Store`] and [`Tx`].

use super::rows::{CONTENT_COLUMNS, content_from_row, placeholders, time_from_db, time_to_db};
use super::{Backend, Store, Tx, subtree_end};
use crate::content::ContentObject;
use crate::events::Event;
use chrono::{DateTime, Utc};
use sqlx::{Any, AssertSqlSafe, Executor, Row};
use std::collections::HashMap;
use std::sync::Arc;

/// One local role assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalRole {
    /// The object.
    pub content_uid: String,
    /// The user or group.
    pub principal_id: String,
    /// The role.
    pub role: String,
}

/// One workflow history entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The transition id; `None` for creation.
    pub action: Option<String>,
    /// Who did it.
    pub actor: String,
    /// The editor's comment.
    pub comment: String,
    /// The state afterwards.
    pub review_state: String,
    /// When.
    pub time: DateTime<Utc>,
}

async fn local_roles_of<'e, E: Executor<'e, Database = Any>>(
    e: E,
    uids: &[String],
) -> Result<Vec<LocalRole>, sqlx::Error> {
    if uids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT content_uid, principal_id, role FROM local_role WHERE content_uid IN ({}) ORDER BY principal_id, role",
        placeholders(1, uids.len())
    );
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for uid in uids {
        query = query.bind(uid.as_str());
    }
    query
        .fetch_all(e)
        .await?
        .iter()
        .map(|row| Ok(LocalRole { content_uid: row.try_get(0)?, principal_id: row.try_get(1)?, role: row.try_get(2)? }))
        .collect()
}

pub(super) async fn any_content_at_paths<'e, E: Executor<'e, Database = Any>>(
    e: E,
    paths: &[String],
) -> Result<Vec<ContentObject>, sqlx::Error> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let sql =
        format!("SELECT {CONTENT_COLUMNS} FROM content WHERE path IN ({}) ORDER BY path", placeholders(1, paths.len()));
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for path in paths {
        query = query.bind(path.as_str());
    }
    query.fetch_all(e).await?.iter().map(content_from_row).collect()
}

/// Every proper ancestor path of `path`, root first.
pub fn ancestor_paths(path: &str) -> Vec<String> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    (1..segments.len()).map(|n| format!("/{}", segments[..n].join("/"))).collect()
}

impl Store {
    /// Local roles assigned on any of `uids`.
    pub async fn local_roles(&self, uids: &[String]) -> Result<Vec<LocalRole>, sqlx::Error> {
        let read = async {
            self.count();
            local_roles_of(&self.pool, uids).await
        };
        self.remembered(&self.memo.local_roles, &uids.join(" "), read).await
    }

    /// The ancestors of an object, root first.
    pub async fn ancestors(&self, object: &ContentObject) -> Result<Vec<Arc<ContentObject>>, sqlx::Error> {
        self.content_at_paths_with_trash(&ancestor_paths(&object.path)).await
    }

    /// An object's workflow history, oldest first.
    pub async fn history(&self, uid: &str) -> Result<Vec<HistoryEntry>, sqlx::Error> {
        Ok(self.histories(&[uid.to_owned()]).await?.remove(uid).unwrap_or_default())
    }

    /// The workflow histories of `uids`, each oldest first, in one statement (a site export
    /// reads them a batch of objects at a time).
    pub async fn histories(&self, uids: &[String]) -> Result<HashMap<String, Vec<HistoryEntry>>, sqlx::Error> {
        let mut histories: HashMap<String, Vec<HistoryEntry>> = HashMap::new();
        if uids.is_empty() {
            return Ok(histories);
        }
        self.count();
        let sql = format!(
            "SELECT action, actor, comment, review_state, time, content_uid FROM workflow_history \
             WHERE content_uid IN ({}) ORDER BY content_uid, seq",
            placeholders(1, uids.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for uid in uids {
            query = query.bind(uid.as_str());
        }
        for row in query.fetch_all(&self.pool).await? {
            let time: String = row.try_get(4)?;
            let entry = HistoryEntry {
                action: row.try_get(0)?,
                actor: row.try_get(1)?,
                comment: row.try_get(2)?,
                review_state: row.try_get(3)?,
                time: time_from_db(&time)?,
            };
            histories.entry(row.try_get(5)?).or_default().push(entry);
        }
        Ok(histories)
    }

    /// The objects put in the trash (the roots of trashed subtrees) below `site_path`, newest first.
    pub async fn trash_roots(&self, site_path: &str) -> Result<Vec<(ContentObject, DateTime<Utc>)>, sqlx::Error> {
        self.count();
        let sql = format!(
            "SELECT {CONTENT_COLUMNS}, trashed_at FROM content WHERE trash_root = uid AND path >= $1 AND path < $2 \
             ORDER BY trashed_at DESC, path"
        );
        sqlx::query(AssertSqlSafe(sql))
            .bind(format!("{site_path}/"))
            .bind(subtree_end(site_path))
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| {
                let at: String = row.try_get(18)?;
                Ok((content_from_row(row)?, time_from_db(&at)?))
            })
            .collect()
    }
}

impl Store {
    /// The `allowed` tokens of each of `uids` (who may see it: roles and `user:<id>`), for
    /// indexes that filter by security themselves.
    pub async fn allowed_tokens(&self, uids: &[String]) -> Result<HashMap<String, Vec<String>>, sqlx::Error> {
        let mut tokens: HashMap<String, Vec<String>> = HashMap::new();
        for chunk in uids.chunks(500) {
            self.count();
            let sql = format!(
                "SELECT content_uid, token FROM allowed WHERE content_uid IN ({})",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for uid in chunk {
                query = query.bind(uid.as_str());
            }
            for row in query.fetch_all(&self.pool).await? {
                tokens.entry(row.try_get(0)?).or_default().push(row.try_get(1)?);
            }
        }
        Ok(tokens)
    }
}

impl Tx {
    /// Local roles on `uids`, as this transaction sees them.
    pub async fn local_roles(&mut self, uids: &[String]) -> Result<Vec<LocalRole>, sqlx::Error> {
        self.count();
        local_roles_of(&mut *self.inner, uids).await
    }

    /// Objects at `paths` (trashed included), as this transaction sees them.
    pub async fn content_at_paths_with_trash(&mut self, paths: &[String]) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.count();
        any_content_at_paths(&mut *self.inner, paths).await
    }

    /// An object by uid (trashed included), as this transaction sees it; on PostgreSQL its row
    /// stays locked until the transaction ends, so no write that leaves `modified` alone (a
    /// reorder, trashing) can slip in before this transaction writes it.
    pub async fn content_by_uid(&mut self, uid: &str) -> Result<Option<ContentObject>, sqlx::Error> {
        self.count();
        let lock = if self.store.backend == Backend::Postgres { " FOR UPDATE" } else { "" };
        let sql = format!("SELECT {CONTENT_COLUMNS} FROM content WHERE uid = $1{lock}");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(uid).fetch_optional(&mut *self.inner).await?;
        row.as_ref().map(content_from_row).transpose()
    }

    /// The paths of the objects `uids` name (trashed included; a uid of nothing is left out),
    /// as this transaction sees them.
    pub async fn paths_of(&mut self, uids: &[String]) -> Result<Vec<String>, sqlx::Error> {
        const CHUNK: usize = 200;
        let mut paths = Vec::with_capacity(uids.len());
        for chunk in uids.chunks(CHUNK) {
            self.count();
            let sql = format!("SELECT path FROM content WHERE uid IN ({})", placeholders(1, chunk.len()));
            let mut query = sqlx::query_scalar::<_, String>(AssertSqlSafe(sql));
            for uid in chunk {
                query = query.bind(uid.as_str());
            }
            paths.extend(query.fetch_all(&mut *self.inner).await?);
        }
        Ok(paths)
    }

    /// An object and its descendants (trashed included), parents first.
    pub async fn subtree_with_trash(&mut self, path: &str) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.count();
        let sql = format!(
            "SELECT {CONTENT_COLUMNS} FROM content WHERE path = $1 OR (path >= $2 AND path < $3) ORDER BY path"
        );
        sqlx::query(AssertSqlSafe(sql))
            .bind(path)
            .bind(format!("{path}/"))
            .bind(subtree_end(path))
            .fetch_all(&mut *self.inner)
            .await?
            .iter()
            .map(content_from_row)
            .collect()
    }

    /// Replaces one principal's local roles on an object.
    pub async fn set_local_roles(
        &mut self,
        uid: &str,
        principal_id: &str,
        roles: &[String],
    ) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("DELETE FROM local_role WHERE content_uid = $1 AND principal_id = $2")
            .bind(uid)
            .bind(principal_id)
            .execute(&mut *self.inner)
            .await?;
        for role in roles {
            self.count();
            sqlx::query("INSERT INTO local_role (content_uid, principal_id, role) VALUES ($1, $2, $3)")
                .bind(uid)
                .bind(principal_id)
                .bind(role)
                .execute(&mut *self.inner)
                .await?;
        }
        self.emit(Event::LocalRolesChanged { uid: uid.to_owned() });
        Ok(())
    }

    /// Copies every local role of one object to another.
    pub async fn copy_local_roles(&mut self, from_uid: &str, to_uid: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO local_role (content_uid, principal_id, role) \
             SELECT $1, principal_id, role FROM local_role WHERE content_uid = $2",
        )
        .bind(to_uid)
        .bind(from_uid)
        .execute(&mut *self.inner)
        .await?;
        self.emit(Event::LocalRolesChanged { uid: to_uid.to_owned() });
        Ok(())
    }

    /// Switches the inheritance of local roles from containers.
    pub async fn set_block_local_roles(&mut self, uid: &str, block: bool) -> Result<(), sqlx::Error> {
        self.count();
        self.facts_written = true;
        sqlx::query("UPDATE content SET block_local_roles = $1 WHERE uid = $2")
            .bind(i64::from(block))
            .bind(uid)
            .execute(&mut *self.inner)
            .await?;
        self.emit(Event::LocalRolesChanged { uid: uid.to_owned() });
        Ok(())
    }

    /// Replaces the `allowed` tokens of the given objects.
    pub async fn replace_allowed(&mut self, tokens: &[(String, Vec<String>)]) -> Result<(), sqlx::Error> {
        const CHUNK: usize = 200;
        let uids: Vec<&str> = tokens.iter().map(|(uid, _)| uid.as_str()).collect();
        for chunk in uids.chunks(CHUNK) {
            self.count();
            let sql = format!("DELETE FROM allowed WHERE content_uid IN ({})", placeholders(1, chunk.len()));
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for uid in chunk {
                query = query.bind(*uid);
            }
            query.execute(&mut *self.inner).await?;
        }
        let rows: Vec<(&str, &str)> =
            tokens.iter().flat_map(|(uid, tokens)| tokens.iter().map(move |t| (uid.as_str(), t.as_str()))).collect();
        for chunk in rows.chunks(CHUNK) {
            self.count();
            let values: Vec<String> = (0..chunk.len()).map(|i| format!("(${}, ${})", 2 * i + 1, 2 * i + 2)).collect();
            let sql = format!("INSERT INTO allowed (content_uid, token) VALUES {}", values.join(", "));
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (uid, token) in chunk {
                query = query.bind(*uid).bind(*token);
            }
            query.execute(&mut *self.inner).await?;
        }
        Ok(())
    }

    /// Appends a workflow history entry.
    pub async fn append_history(&mut self, uid: &str, entry: &HistoryEntry) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO workflow_history (content_uid, seq, action, actor, comment, review_state, time) \
             SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6 FROM workflow_history WHERE content_uid = $1",
        )
        .bind(uid)
        .bind(entry.action.as_deref())
        .bind(&entry.actor)
        .bind(&entry.comment)
        .bind(&entry.review_state)
        .bind(time_to_db(entry.time))
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Hides an object and every descendant not already in the trash.
    pub async fn trash(&mut self, object: &ContentObject, at: DateTime<Utc>) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "UPDATE content SET trashed = 1, trash_root = $1, trashed_at = $2 \
             WHERE trash_root IS NULL AND (path = $3 OR (path >= $4 AND path < $5))",
        )
        .bind(&object.uid)
        .bind(time_to_db(at))
        .bind(&object.path)
        .bind(format!("{}/", object.path))
        .bind(subtree_end(&object.path))
        .execute(&mut *self.inner)
        .await?;
        self.emit(Event::Trashed { uid: object.uid.clone() });
        Ok(())
    }

    /// Brings back what trashing `root_uid` hid (not what was trashed separately before).
    pub async fn untrash(&mut self, root_uid: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("UPDATE content SET trashed = 0, trash_root = NULL, trashed_at = NULL WHERE trash_root = $1")
            .bind(root_uid)
            .execute(&mut *self.inner)
            .await?;
        self.emit(Event::Untrashed { uid: root_uid.to_owned() });
        Ok(())
    }
}
