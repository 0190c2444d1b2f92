//! The plugin's own tables (`version`, `version_counter`, `version_blob`, `version_blob_data`,
//! created by its migrations): versions with their metadata, numbered per object without ever
//! reusing a number, pruned to a limit in the creating transaction, and the frozen files
//! (bytes shared by hash, so ten versions of a page cost one copy of a file).

use crate::events::{VERSION_CREATED, VERSION_DELETED, version_event};
use chrono::{DateTime, Utc};
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};
use wcs_core::content::values::BlobUpload;
use wcs_core::store::{Migration, Store, Tx, placeholders, time_from_db, time_to_db};

/// The plugin's migrations.
pub static MIGRATIONS: [Migration; 1] = [Migration {
    version: 1,
    description: "versions, their numbers and frozen files",
    sqlite: include_str!("../migrations/sqlite/0001_versions.sql"),
    postgres: include_str!("../migrations/postgres/0001_versions.sql"),
}];

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

/// What [`insert_version`] stores.
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

/// The versions of an object, newest first.
pub async fn versions(store: &Store, object_uid: &str) -> Result<Vec<VersionInfo>, sqlx::Error> {
    let sql = format!("SELECT {INFO_COLUMNS} FROM version WHERE object_uid = $1 ORDER BY seq DESC");
    sqlx::query(AssertSqlSafe(sql)).bind(object_uid).fetch_all(store.pool()).await?.iter().map(info_from_row).collect()
}

/// One version with its snapshot JSON.
pub async fn version(store: &Store, object_uid: &str, seq: i64) -> Result<Option<(VersionInfo, String)>, sqlx::Error> {
    let sql = format!("SELECT {INFO_COLUMNS}, snapshot FROM version WHERE object_uid = $1 AND seq = $2");
    let row = sqlx::query(AssertSqlSafe(sql)).bind(object_uid).bind(seq).fetch_optional(store.pool()).await?;
    row.map(|row| Ok((info_from_row(&row)?, row.try_get(7)?))).transpose()
}

/// Stores a version with the next number and prunes the object's oldest beyond `keep`. The
/// counter row is locked until commit, so concurrent creates for one object run one after
/// the other and the limit holds.
pub async fn insert_version(tx: &mut Tx, new: &NewVersion<'_>) -> Result<VersionInfo, sqlx::Error> {
    let seq: i64 = sqlx::query(
        "INSERT INTO version_counter (object_uid, last_seq) VALUES ($1, 1) \
         ON CONFLICT (object_uid) DO UPDATE SET last_seq = version_counter.last_seq + 1 RETURNING last_seq",
    )
    .bind(&new.info.object_uid)
    .fetch_one(tx.connection())
    .await?
    .try_get(0)?;
    let info = VersionInfo { seq, ..new.info.clone() };
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
    .execute(tx.connection())
    .await?;
    if !new.file_owners.is_empty() {
        let sql = format!(
            "INSERT INTO version_blob_data (sha256, data) SELECT sha256, data FROM blob \
             WHERE content_uid IN ({}) ON CONFLICT (sha256) DO NOTHING",
            placeholders(1, new.file_owners.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for owner in new.file_owners {
            query = query.bind(owner.as_str());
        }
        query.execute(tx.connection()).await?;
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
        query.execute(tx.connection()).await?;
    }
    let kept: Vec<i64> = sqlx::query("SELECT seq FROM version WHERE object_uid = $1 ORDER BY seq DESC")
        .bind(&info.object_uid)
        .fetch_all(tx.connection())
        .await?
        .iter()
        .map(|row| row.try_get(0))
        .collect::<Result<_, _>>()?;
    let pruned: Vec<i64> = kept.into_iter().skip(new.keep).collect();
    remove_versions(tx, &info.object_uid, &pruned).await?;
    tx.emit(version_event(&VERSION_CREATED, &info.object_uid, seq));
    Ok(info)
}

/// Removes one version for good; `false` when there was none.
pub async fn delete_version(tx: &mut Tx, object_uid: &str, seq: i64) -> Result<bool, sqlx::Error> {
    let exists = sqlx::query("SELECT 1 FROM version WHERE object_uid = $1 AND seq = $2")
        .bind(object_uid)
        .bind(seq)
        .fetch_optional(tx.connection())
        .await?
        .is_some();
    if exists {
        remove_versions(tx, object_uid, &[seq]).await?;
    }
    Ok(exists)
}

async fn remove_versions(tx: &mut Tx, object_uid: &str, seqs: &[i64]) -> Result<(), sqlx::Error> {
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
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(object_uid);
        for seq in seqs {
            query = query.bind(*seq);
        }
        query.execute(tx.connection()).await?;
    }
    for seq in seqs {
        tx.emit(version_event(&VERSION_DELETED, object_uid, *seq));
    }
    Ok(())
}

/// The files `content_uid` had when `version` was taken.
pub async fn frozen_files(
    tx: &mut Tx,
    version: &VersionInfo,
    content_uid: &str,
) -> Result<Vec<BlobUpload>, sqlx::Error> {
    sqlx::query(
        "SELECT v.field, v.filename, v.content_type, v.sha256, d.data \
         FROM version_blob v JOIN version_blob_data d ON d.sha256 = v.sha256 \
         WHERE v.object_uid = $1 AND v.seq = $2 AND v.content_uid = $3",
    )
    .bind(&version.object_uid)
    .bind(version.seq)
    .bind(content_uid)
    .fetch_all(tx.connection())
    .await?
    .iter()
    .map(|row| {
        Ok(BlobUpload {
            field: row.try_get(0)?,
            filename: row.try_get(1)?,
            content_type: row.try_get(2)?,
            sha256: row.try_get(3)?,
            data: row.try_get(4)?,
        })
    })
    .collect()
}

/// Drops the versions (and the bytes only they used) of objects that no longer exist: run in
/// the transaction that deleted them.
pub async fn drop_orphans(tx: &mut Tx) -> Result<(), sqlx::Error> {
    let gone = "NOT EXISTS (SELECT 1 FROM content c WHERE c.uid = object_uid)";
    for sql in [
        format!("DELETE FROM version_blob WHERE {gone}"),
        format!("DELETE FROM version WHERE {gone}"),
        format!("DELETE FROM version_counter WHERE {gone}"),
        "DELETE FROM version_blob_data WHERE NOT EXISTS \
         (SELECT 1 FROM version_blob b WHERE b.sha256 = version_blob_data.sha256)"
            .to_owned(),
    ] {
        sqlx::query(AssertSqlSafe(sql)).execute(tx.connection()).await?;
    }
    Ok(())
}
