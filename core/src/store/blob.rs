//! File and image bytes, kept in the database so every instance sharing it sees the same files.
//! Downloads read only the byte range they send, so a seek in a video costs one small query.

use super::{Backend, Store, Tx};
use crate::content::values::BlobUpload;
use sqlx::Row;

/// What a download needs to know before sending bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlobMeta {
    /// The client's file name.
    pub filename: String,
    /// The MIME type.
    pub content_type: String,
    /// Size in bytes.
    pub size: i64,
    /// Hex SHA-256, used as the ETag.
    pub sha256: String,
}

/// A byte range of a blob: `offset` from the start, `length` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlobRange {
    /// First byte.
    pub offset: i64,
    /// Number of bytes.
    pub length: i64,
}

impl Store {
    /// The metadata of one blob field.
    pub async fn blob_meta(&self, uid: &str, field: &str) -> Result<Option<BlobMeta>, sqlx::Error> {
        self.count();
        let row =
            sqlx::query("SELECT filename, content_type, size, sha256 FROM blob WHERE content_uid = $1 AND field = $2")
                .bind(uid)
                .bind(field)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|row| {
            Ok(BlobMeta {
                filename: row.try_get(0)?,
                content_type: row.try_get(1)?,
                size: row.try_get(2)?,
                sha256: row.try_get(3)?,
            })
        })
        .transpose()
    }

    /// Reads `range` of a blob.
    pub async fn blob_bytes(&self, uid: &str, field: &str, range: BlobRange) -> Result<Vec<u8>, sqlx::Error> {
        self.count();
        let sql = match self.backend {
            Backend::Sqlite => {
                "SELECT substr(data, CAST($1 AS INTEGER), CAST($2 AS INTEGER)) FROM blob WHERE content_uid = $3 AND field = $4"
            }
            Backend::Postgres => {
                "SELECT substring(data FROM CAST($1 AS INTEGER) FOR CAST($2 AS INTEGER)) FROM blob WHERE content_uid = $3 AND field = $4"
            }
        };
        let row = sqlx::query(sql)
            .bind(range.offset + 1)
            .bind(range.length)
            .bind(uid)
            .bind(field)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => row.try_get::<Vec<u8>, _>(0),
            None => Ok(Vec::new()),
        }
    }
}

impl Tx {
    /// Stores (or replaces) the bytes of a blob field.
    pub async fn put_blob(&mut self, uid: &str, upload: &BlobUpload) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO blob (content_uid, field, filename, content_type, size, sha256, data) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (content_uid, field) DO UPDATE SET filename = excluded.filename, \
             content_type = excluded.content_type, size = excluded.size, sha256 = excluded.sha256, data = excluded.data",
        )
        .bind(uid)
        .bind(&upload.field)
        .bind(&upload.filename)
        .bind(&upload.content_type)
        .bind(upload.data.len() as i64)
        .bind(&upload.sha256)
        .bind(upload.data.as_slice())
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Removes the bytes of a cleared blob field.
    pub async fn delete_blob(&mut self, uid: &str, field: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("DELETE FROM blob WHERE content_uid = $1 AND field = $2")
            .bind(uid)
            .bind(field)
            .execute(&mut *self.inner)
            .await?;
        Ok(())
    }

    /// Copies every blob of one object to another, inside the database.
    pub async fn copy_blobs(&mut self, from_uid: &str, to_uid: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO blob (content_uid, field, filename, content_type, size, sha256, data) \
             SELECT $1, field, filename, content_type, size, sha256, data FROM blob WHERE content_uid = $2",
        )
        .bind(to_uid)
        .bind(from_uid)
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Removes every blob of an object and its cached scales (before its files are replaced).
    pub async fn clear_blobs(&mut self, uid: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("DELETE FROM blob WHERE content_uid = $1").bind(uid).execute(&mut *self.inner).await?;
        self.count();
        sqlx::query("DELETE FROM image_scale WHERE content_uid = $1").bind(uid).execute(&mut *self.inner).await?;
        Ok(())
    }

    /// Makes `to_uid`'s blobs exactly `from_uid`'s (a check-in replaces the baseline's files).
    pub async fn replace_blobs(&mut self, from_uid: &str, to_uid: &str) -> Result<(), sqlx::Error> {
        self.clear_blobs(to_uid).await?;
        self.copy_blobs(from_uid, to_uid).await
    }
}
