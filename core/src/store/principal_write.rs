//! Writes of users, groups and memberships, inside a transaction.

use super::Tx;
use super::principal::StoredPrincipal;

impl Tx {
    /// Creates a user or group.
    pub async fn insert_principal(&mut self, principal: &StoredPrincipal) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO principal (id, kind, login, password_hash, fullname, email, description, location, home_page, roles, \
             token_generation) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&principal.id)
        .bind(&principal.kind)
        .bind(principal.login.as_deref())
        .bind(principal.password_hash.as_deref())
        .bind(&principal.fullname)
        .bind(&principal.email)
        .bind(&principal.description)
        .bind(&principal.location)
        .bind(&principal.home_page)
        .bind(serde_json::json!(principal.roles).to_string())
        .bind(new_generation())
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Rewrites a principal's details, login name, password hash and roles; a new password hash renews
    /// the token generation.
    pub async fn update_principal(&mut self, principal: &StoredPrincipal) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "UPDATE principal SET token_generation = CASE WHEN COALESCE(password_hash, '') = COALESCE($1, '') \
             THEN token_generation ELSE $9 END, password_hash = $1, fullname = $2, email = $3, description = $4, \
             location = $5, home_page = $6, roles = $7, login = $10 WHERE id = $8",
        )
        .bind(principal.password_hash.as_deref())
        .bind(&principal.fullname)
        .bind(&principal.email)
        .bind(&principal.description)
        .bind(&principal.location)
        .bind(&principal.home_page)
        .bind(serde_json::json!(principal.roles).to_string())
        .bind(&principal.id)
        .bind(new_generation())
        .bind(principal.login.as_deref())
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Replaces a password hash by another of the same password (a moved site's legacy hash by
    /// argon2), only while it is still `old`; the tokens already issued stay valid.
    pub async fn rehash_password(&mut self, id: &str, old: &str, new: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("UPDATE principal SET password_hash = $1 WHERE id = $2 AND password_hash = $3")
            .bind(new)
            .bind(id)
            .bind(old)
            .execute(&mut *self.inner)
            .await?;
        Ok(())
    }

    /// Gives a user a new token generation: every token issued before stops working.
    pub async fn renew_token_generation(&mut self, id: &str) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("UPDATE principal SET token_generation = $1 WHERE id = $2")
            .bind(new_generation())
            .bind(id)
            .execute(&mut *self.inner)
            .await?;
        Ok(())
    }

    /// Removes a principal, its memberships (both ways) and its local roles.
    pub async fn delete_principal(&mut self, id: &str) -> Result<(), sqlx::Error> {
        self.facts_written = true;
        for sql in [
            "DELETE FROM membership WHERE member_id = $1 OR group_id = $1",
            "DELETE FROM local_role WHERE principal_id = $1",
            "DELETE FROM allowed WHERE token = 'user:' || $1",
            "DELETE FROM portrait WHERE user_id = $1",
            "DELETE FROM principal WHERE id = $1",
        ] {
            self.count();
            sqlx::query(sql).bind(id).execute(&mut *self.inner).await?;
        }
        Ok(())
    }

    /// Adds or removes one membership.
    pub async fn set_membership(&mut self, group_id: &str, member_id: &str, member: bool) -> Result<(), sqlx::Error> {
        self.count();
        let sql = if member {
            "INSERT INTO membership (group_id, member_id) VALUES ($1, $2) ON CONFLICT (group_id, member_id) DO NOTHING"
        } else {
            "DELETE FROM membership WHERE group_id = $1 AND member_id = $2"
        };
        sqlx::query(sql).bind(group_id).bind(member_id).execute(&mut *self.inner).await?;
        Ok(())
    }

    /// Creates the admin user, or replaces its password and roles when it exists.
    pub async fn upsert_user(&mut self, id: &str, password_hash: &str, roles: &[&str]) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO principal (id, kind, login, password_hash, roles, token_generation) \
             VALUES ($1, 'user', $1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, \
             roles = excluded.roles, token_generation = excluded.token_generation",
        )
        .bind(id)
        .bind(password_hash)
        .bind(serde_json::json!(roles).to_string())
        .bind(new_generation())
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }
}

/// A fresh token generation.
fn new_generation() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}
