//! The cache of rendered image scales.

use super::{Store, Tx};
use sqlx::Row;

/// A cached scale.
#[derive(Clone, Debug)]
pub struct StoredScale {
    /// The hash of the original it was rendered from.
    pub source_sha256: String,
    /// MIME type of `data`.
    pub content_type: String,
    /// The encoded image.
    pub data: Vec<u8>,
}

impl Store {
    /// A cached scale of an image field.
    pub async fn image_scale(&self, uid: &str, field: &str, scale: &str) -> Result<Option<StoredScale>, sqlx::Error> {
        self.count();
        let row = sqlx::query(
            "SELECT source_sha256, content_type, data FROM image_scale \
             WHERE content_uid = $1 AND field = $2 AND scale = $3",
        )
        .bind(uid)
        .bind(field)
        .bind(scale)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(StoredScale { source_sha256: row.try_get(0)?, content_type: row.try_get(1)?, data: row.try_get(2)? })
        })
        .transpose()
    }
}

impl Tx {
    /// Caches a rendered scale, replacing one made from an older original.
    pub async fn put_image_scale(
        &mut self,
        uid: &str,
        field: &str,
        scale: &str,
        stored: &StoredScale,
        size: (u32, u32),
    ) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO image_scale (content_uid, field, scale, source_sha256, content_type, width, height, data) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (content_uid, field, scale) DO UPDATE SET \
             source_sha256 = excluded.source_sha256, content_type = excluded.content_type, width = excluded.width, \
             height = excluded.height, data = excluded.data",
        )
        .bind(uid)
        .bind(field)
        .bind(scale)
        .bind(&stored.source_sha256)
        .bind(&stored.content_type)
        .bind(i64::from(size.0))
        .bind(i64::from(size.1))
        .bind(stored.data.as_slice())
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }
}
