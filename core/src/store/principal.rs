//! Users as stored; the security layer turns them into principals.

use super::{Store, Tx};
use sqlx::Row;

/// A user row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPrincipal {
    /// The user id.
    pub id: String,
    /// The argon2 PHC hash; never leaves the server.
    pub password_hash: Option<String>,
    /// The display name.
    pub fullname: String,
    /// Global roles.
    pub roles: Vec<String>,
}

impl Store {
    /// A user by login name.
    pub async fn principal_by_login(&self, login: &str) -> Result<Option<StoredPrincipal>, sqlx::Error> {
        self.count();
        let row =
            sqlx::query("SELECT id, password_hash, fullname, roles FROM principal WHERE login = $1 AND kind = 'user'")
                .bind(login)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|row| {
            let roles: String = row.try_get(3)?;
            Ok(StoredPrincipal {
                id: row.try_get(0)?,
                password_hash: row.try_get(1)?,
                fullname: row.try_get(2)?,
                roles: serde_json::from_str(&roles).unwrap_or_default(),
            })
        })
        .transpose()
    }
}

impl Tx {
    /// Creates a user, or replaces its password and roles when it exists.
    pub async fn upsert_user(&mut self, id: &str, password_hash: &str, roles: &[&str]) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO principal (id, kind, login, password_hash, roles) VALUES ($1, 'user', $1, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, roles = excluded.roles",
        )
        .bind(id)
        .bind(password_hash)
        .bind(serde_json::json!(roles).to_string())
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }
}

impl Store {
    /// Whether a principal with this id exists.
    pub async fn principal_exists(&self, id: &str) -> Result<bool, sqlx::Error> {
        self.count();
        let row = sqlx::query("SELECT COUNT(*) FROM principal WHERE id = $1").bind(id).fetch_one(&self.pool).await?;
        Ok(row.try_get::<i64, _>(0)? > 0)
    }
}
