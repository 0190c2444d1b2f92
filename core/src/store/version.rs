//! Stored versions (snapshots) of content. The snapshot itself is JSON that the versioning
//! plugin writes and reads; the store keeps it with its metadata, numbers versions per object
//! without ever reusing a number, prunes to a limit in the creating transaction, and keeps
//! the frozen files (bytes shared by hash, so ten versions of a page cost one copy of a file).

use super::rows::{placeholders, time_from_db, time_to_db};
use super::{Store, Tx};
use crate::events::Event;
use chrono::{DateTime, Utc};
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

/// A version's metadata (everything but the snapshot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionInfo {
    /// The versioned object.
    pub object_uid: String,
    /// The per-object number: stable, never reused, increasing with time.
    pub seq: i64,
    /// When it was taken.
    pub created: DateTime<Utc>,
    /// The user id of who took it.
    pub creator: String,
    /// Their full name at the time (the id when they had none).
    pub creator_fullname: String,
    /// The editor's comment, `""` when none was given.
    pub comment: String,
    /// The object's title at the time.
    pub title: String,
}

/// What [`Tx::create_version`] stores.
pub struct NewVersion<'a> {
    /// The metadata; `seq` is ignored and assigned.
    pub info: &'a VersionInfo,
    /// The snapshot JSON.
    pub snapshot: &'a str,
    /// The objects whose files the version freezes (the object and its blocks).
    pub file_owners: &'a [String],
    /// How many versions the object keeps; older ones are removed in the same transaction.
    pub keep: usize,
}

const INFO_COLUMNS: &str = "object_uid, seq, created, creator, creator_fullname, comment, title";

fn info_from_row(row: &AnyRow) -> Result<VersionInfo, sqlx::Error> {
    let created: String = row.try_get(2)?;
    Ok(VersionInfo {
        object_uid: row.try_get(0)?,
        seq: row.try_get(1)?,
        created: time_from_db(&created)?,
        creator: row.try_get(3)?,
        creator_fullname: row.try_get(4)?,
        comment: row.try_get(5)?,
        title: row.try_get(6)?,
    })
}

impl Store {
    /// The versions of an object, newest first.
    pub async fn versions(&self, object_uid: &str) -> Result<Vec<VersionInfo>, sqlx::Error> {
        self.count();
        let sql = format!("SELECT {INFO_COLUMNS} FROM version WHERE object_uid = $1 ORDER BY seq DESC");
        sqlx::query(AssertSqlSafe(sql))
            .bind(object_uid)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(info_from_row)
            .collect()
    }

    /// One version with its snapshot JSON.
    pub async fn version(&self, object_uid: &str, seq: i64) -> Result<Option<(VersionInfo, String)>, sqlx::Error> {
        self.count();
        let sql = format!("SELECT {INFO_COLUMNS}, snapshot FROM version WHERE object_uid = $1 AND seq = $2");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(object_uid).bind(seq).fetch_optional(&self.pool).await?;
        row.map(|row| Ok((info_from_row(&row)?, row.try_get(7)?))).transpose()
    }
}

impl Tx {
    /// Stores a version with the next number and prunes the object's oldest beyond
    /// `keep`. The counter row is locked until commit, so concurrent creates for one object
    /// run one after the other and the limit holds.
    pub async fn create_version(&mut self, new: &NewVersion<'_>) -> Result<(VersionInfo, Vec<i64>), sqlx::Error> {
        self.count();
        let seq: i64 = sqlx::query(
            "INSERT INTO version_counter (object_uid, last_seq) VALUES ($1, 1) \
             ON CONFLICT (object_uid) DO UPDATE SET last_seq = version_counter.last_seq + 1 RETURNING last_seq",
        )
        .bind(&new.info.object_uid)
        .fetch_one(&mut *self.inner)
        .await?
        .try_get(0)?;
        let info = VersionInfo { seq, ..new.info.clone() };
        self.count();
        sqlx::query(
            "INSERT INTO version (object_uid, seq, created, creator, creator_fullname, comment, title, snapshot) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&info.object_uid)
        .bind(seq)
        .bind(time_to_db(info.created))
        .bind(&info.creator)
        .bind(&info.creator_fullname)
        .bind(&info.comment)
        .bind(&info.title)
        .bind(new.snapshot)
        .execute(&mut *self.inner)
        .await?;
        if !new.file_owners.is_empty() {
            self.count();
            let sql = format!(
                "INSERT INTO version_blob_data (sha256, data) SELECT sha256, data FROM blob \
                 WHERE content_uid IN ({}) ON CONFLICT (sha256) DO NOTHING",
                placeholders(1, new.file_owners.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for owner in new.file_owners {
                query = query.bind(owner.as_str());
            }
            query.execute(&mut *self.inner).await?;
            self.count();
            let sql = format!(
                "INSERT INTO version_blob (object_uid, seq, content_uid, field, filename, content_type, size, sha256) \
                 SELECT $1, $2, content_uid, field, filename, content_type, size, sha256 FROM blob \
                 WHERE content_uid IN ({})",
                placeholders(3, new.file_owners.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(&info.object_uid).bind(seq);
            for owner in new.file_owners {
                query = query.bind(owner.as_str());
            }
            query.execute(&mut *self.inner).await?;
        }
        self.count();
        let kept: Vec<i64> = sqlx::query("SELECT seq FROM version WHERE object_uid = $1 ORDER BY seq DESC")
            .bind(&info.object_uid)
            .fetch_all(&mut *self.inner)
            .await?
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()?;
        let pruned: Vec<i64> = kept.into_iter().skip(new.keep).collect();
        self.remove_versions(&info.object_uid, &pruned).await?;
        self.emit(Event::VersionCreated { uid: info.object_uid.clone(), version: seq });
        Ok((info, pruned))
    }

    /// Removes one version for good; `false` when there was none.
    pub async fn delete_version(&mut self, object_uid: &str, seq: i64) -> Result<bool, sqlx::Error> {
        self.count();
        let exists = sqlx::query("SELECT 1 FROM version WHERE object_uid = $1 AND seq = $2")
            .bind(object_uid)
            .bind(seq)
            .fetch_optional(&mut *self.inner)
            .await?
            .is_some();
        if exists {
            self.remove_versions(object_uid, &[seq]).await?;
        }
        Ok(exists)
    }

    async fn remove_versions(&mut self, object_uid: &str, seqs: &[i64]) -> Result<(), sqlx::Error> {
        if seqs.is_empty() {
            return Ok(());
        }
        let listed = placeholders(2, seqs.len());
        let statements = [
            // Bytes only these versions use; shared ones stay.
            format!(
                "DELETE FROM version_blob_data WHERE sha256 IN \
                 (SELECT sha256 FROM version_blob WHERE object_uid = $1 AND seq IN ({listed})) \
                 AND NOT EXISTS (SELECT 1 FROM version_blob o WHERE o.sha256 = version_blob_data.sha256 \
                 AND NOT (o.object_uid = $1 AND o.seq IN ({listed})))"
            ),
            format!("DELETE FROM version_blob WHERE object_uid = $1 AND seq IN ({listed})"),
            format!("DELETE FROM version WHERE object_uid = $1 AND seq IN ({listed})"),
        ];
        for sql in statements {
            self.count();
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(object_uid);
            for seq in seqs {
                query = query.bind(*seq);
            }
            query.execute(&mut *self.inner).await?;
        }
        for seq in seqs {
            self.emit(Event::VersionDeleted { uid: object_uid.to_owned(), version: *seq });
        }
        Ok(())
    }

    /// Puts the files `content_uid` had in a version onto `target_uid`, replacing its own.
    pub async fn restore_version_files(
        &mut self,
        version: &VersionInfo,
        content_uid: &str,
        target_uid: &str,
    ) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("DELETE FROM blob WHERE content_uid = $1").bind(target_uid).execute(&mut *self.inner).await?;
        self.count();
        sqlx::query(
            "INSERT INTO blob (content_uid, field, filename, content_type, size, sha256, data) \
             SELECT $1, v.field, v.filename, v.content_type, v.size, v.sha256, d.data \
             FROM version_blob v JOIN version_blob_data d ON d.sha256 = v.sha256 \
             WHERE v.object_uid = $2 AND v.seq = $3 AND v.content_uid = $4",
        )
        .bind(target_uid)
        .bind(&version.object_uid)
        .bind(version.seq)
        .bind(content_uid)
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }
}

/// The statements that drop the versions of every object in a deleted subtree (`within`
/// selects their uids with `$1`–`$3`), run by [`Tx::delete_subtree`].
pub(super) fn subtree_version_cleanup(within: &str) -> [String; 4] {
    [
        format!(
            "DELETE FROM version_blob_data WHERE sha256 IN \
             (SELECT sha256 FROM version_blob WHERE object_uid IN ({within})) \
             AND NOT EXISTS (SELECT 1 FROM version_blob o WHERE o.sha256 = version_blob_data.sha256 \
             AND o.object_uid NOT IN ({within}))"
        ),
        format!("DELETE FROM version_blob WHERE object_uid IN ({within})"),
        format!("DELETE FROM version WHERE object_uid IN ({within})"),
        format!("DELETE FROM version_counter WHERE object_uid IN ({within})"),
    ]
}
