//! Users' portraits: one small image per user, outside the content tree, as Plone keeps them
//! in its member data.

use super::rows::placeholders;
use super::{Store, Tx};
use sqlx::{AssertSqlSafe, Row};
use std::collections::HashSet;

/// A portrait as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPortrait {
    /// Its MIME type (a raster format: PNG, JPEG, GIF or WebP).
    pub content_type: String,
    /// The name of the file it was uploaded as.
    pub filename: String,
    /// The hex SHA-256 of `data`.
    pub sha256: String,
    /// The encoded image.
    pub data: Vec<u8>,
}

impl Store {
    /// The portrait of `user_id`, if it has one.
    pub async fn portrait(&self, user_id: &str) -> Result<Option<StoredPortrait>, sqlx::Error> {
        self.count();
        let row = sqlx::query("SELECT content_type, filename, sha256, data FROM portrait WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok(StoredPortrait {
                content_type: row.try_get(0)?,
                filename: row.try_get(1)?,
                sha256: row.try_get(2)?,
                data: row.try_get(3)?,
            })
        })
        .transpose()
    }

    /// Which of `user_ids` have a portrait, in one statement, for listings.
    pub async fn users_with_portraits(&self, user_ids: &[&str]) -> Result<HashSet<String>, sqlx::Error> {
        if user_ids.is_empty() {
            return Ok(HashSet::new());
        }
        let mut found = HashSet::new();
        // Bounded chunks keep every statement below the databases' limits on bound values.
        for chunk in user_ids.chunks(500) {
            self.count();
            let sql = format!("SELECT user_id FROM portrait WHERE user_id IN ({})", placeholders(1, chunk.len()));
            // Only numbered placeholders are formatted in; the ids are bound.
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(*id);
            }
            for row in query.fetch_all(&self.pool).await? {
                found.insert(row.try_get::<String, _>(0)?);
            }
        }
        Ok(found)
    }
}

impl Tx {
    /// Gives `user_id` this portrait, replacing any it had.
    pub async fn set_portrait(&mut self, user_id: &str, portrait: &StoredPortrait) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO portrait (user_id, content_type, filename, sha256, data) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (user_id) DO UPDATE SET content_type = excluded.content_type, \
             filename = excluded.filename, sha256 = excluded.sha256, data = excluded.data",
        )
        .bind(user_id)
        .bind(&portrait.content_type)
        .bind(&portrait.filename)
        .bind(&portrait.sha256)
        .bind(portrait.data.as_slice())
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Removes the portrait of `user_id`, if it has one.
    pub async fn delete_portrait(&mut self, user_id: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("DELETE FROM portrait WHERE user_id = $1").bind(user_id).execute(&mut *self.inner).await?;
        Ok(())
    }
}
