//! The stored edits of content types ([`crate::content::type_edits`]) and the revision that
//! counts them.

use super::{Backend, Store, Tx};
use crate::content::type_edits::TypeEdit;
use sqlx::{AssertSqlSafe, Row};

/// Why the stored edits could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TypeEditsError {
    /// The database failed.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// A stored edit is no edit (written by hand or by a broken import).
    #[error("the stored edit of type '{0}' cannot be read: {1}")]
    Unreadable(String, serde_json::Error),
}

/// A request that met unreadable edits fails as the server's fault; a database failure
/// answers as any other does.
impl From<TypeEditsError> for crate::error::ApiError {
    fn from(err: TypeEditsError) -> Self {
        match err {
            TypeEditsError::Database(err) => err.into(),
            unreadable => crate::error::ApiError::internal(unreadable.to_string()),
        }
    }
}

impl Store {
    /// The revision of the stored edits (0 before the first). Not counted among a request's
    /// statements: every instance asks it in the background every second.
    pub async fn type_edits_revision(&self) -> Result<i64, sqlx::Error> {
        let row = sqlx::query("SELECT revision FROM content_type_revision WHERE singleton = 1")
            .fetch_optional(&self.pool)
            .await?;
        row.map_or(Ok(0), |row| row.try_get(0))
    }

    /// Every stored edit, with a revision no newer than they are: the revision is read first,
    /// so an edit committed in between is read now and its revision noticed at the next look.
    pub async fn type_edits(&self) -> Result<(i64, Vec<TypeEdit>), TypeEditsError> {
        let revision = self.type_edits_revision().await?;
        self.count();
        let rows =
            sqlx::query("SELECT id, definition FROM content_type_edit ORDER BY id").fetch_all(&self.pool).await?;
        let edits = rows
            .iter()
            .map(|row| {
                let (id, text): (String, String) = (row.try_get(0)?, row.try_get(1)?);
                serde_json::from_str(&text).map_err(|e| TypeEditsError::Unreadable(id, e))
            })
            .collect::<Result<_, _>>()?;
        Ok((revision, edits))
    }
}

impl Tx {
    /// Counts one more edit and returns the new revision. Called first in an edit's
    /// transaction, it also makes concurrent edits wait for each other (the row is locked), so
    /// each reads what the one before wrote.
    pub async fn bump_type_edits_revision(&mut self) -> Result<i64, sqlx::Error> {
        sqlx::query(
            "INSERT INTO content_type_revision (singleton, revision) VALUES (1, 1) \
             ON CONFLICT (singleton) DO UPDATE SET revision = content_type_revision.revision + 1 \
             RETURNING revision",
        )
        .fetch_one(self.own_tables())
        .await?
        .try_get(0)
    }

    /// The stored edit of type `id`, if it has one.
    pub async fn type_edit(&mut self, id: &str) -> Result<Option<TypeEdit>, TypeEditsError> {
        let row = sqlx::query("SELECT definition FROM content_type_edit WHERE id = $1")
            .bind(id)
            .fetch_optional(self.own_tables())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let text: String = row.try_get(0)?;
        serde_json::from_str(&text).map(Some).map_err(|e| TypeEditsError::Unreadable(id.to_owned(), e))
    }

    /// Stores the edit of its type, replacing the one before.
    pub async fn put_type_edit(&mut self, edit: &TypeEdit) -> Result<(), sqlx::Error> {
        let definition = serde_json::to_string(edit).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        sqlx::query(
            "INSERT INTO content_type_edit (id, definition) VALUES ($1, $2) \
             ON CONFLICT (id) DO UPDATE SET definition = excluded.definition",
        )
        .bind(&edit.profile.id)
        .bind(definition)
        .execute(self.own_tables())
        .await?;
        Ok(())
    }

    /// How many objects are of `portal_type`, in the trash too, as the transaction sees them.
    pub async fn count_of_type(&mut self, portal_type: &str) -> Result<i64, sqlx::Error> {
        sqlx::query("SELECT COUNT(*) FROM content WHERE portal_type = $1")
            .bind(portal_type)
            .fetch_one(self.own_tables())
            .await?
            .try_get(0)
    }

    /// The objects of `portal_type` that hold a value for `field`: uid, path and value, for
    /// checking them against a changed field, as the transaction sees them. Only the field's
    /// value is read, so a type with many objects of large fields (blocks) costs its values.
    pub async fn values_of_field(
        &mut self,
        portal_type: &str,
        field: &str,
    ) -> Result<Vec<(String, String, serde_json::Value)>, sqlx::Error> {
        let value = match self.store.backend() {
            Backend::Sqlite => "fields -> ('$.\"' || $2 || '\"')",
            Backend::Postgres => "CAST(CAST(fields AS jsonb) -> $2 AS TEXT)",
        };
        let sql = format!(
            "SELECT uid, path, {value} FROM content WHERE portal_type = $1 AND {value} IS NOT NULL ORDER BY path"
        );
        let rows = sqlx::query(AssertSqlSafe(sql)).bind(portal_type).bind(field).fetch_all(self.own_tables()).await?;
        let mut values = Vec::new();
        for row in rows {
            let text: String = row.try_get(2)?;
            let value = serde_json::from_str::<serde_json::Value>(&text).unwrap_or(serde_json::Value::String(text));
            if !value.is_null() {
                values.push((row.try_get(0)?, row.try_get(1)?, value));
            }
        }
        Ok(values)
    }

    /// Forgets the edit of type `id`.
    pub async fn delete_type_edit(&mut self, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM content_type_edit WHERE id = $1").bind(id).execute(self.own_tables()).await?;
        Ok(())
    }
}

impl Store {
    /// How many objects each type has, in one statement (types without any are absent).
    pub async fn counts_by_type(&self) -> Result<std::collections::HashMap<String, i64>, sqlx::Error> {
        self.count();
        let rows =
            sqlx::query("SELECT portal_type, COUNT(*) FROM content GROUP BY portal_type").fetch_all(&self.pool).await?;
        rows.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect()
    }
}
