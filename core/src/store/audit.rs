//! The audit log: changes to who may do what (roles, group memberships, passwords, accounts,
//! sharing), written in the transaction of the change itself, so an entry exists exactly when
//! the change does.

use super::rows::{page_clause, time_from_db, time_to_db, with_text_binds};
use super::{Store, Tx};
use chrono::{DateTime, Utc};
use sqlx::Row;

/// One change, as the log keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditEntry {
    /// Its place in the log, increasing (0 before it is written).
    pub id: i64,
    /// When it happened.
    pub at: DateTime<Utc>,
    /// Who did it (a user id, or `Anonymous` for a reset by mailed token).
    pub actor: String,
    /// What kind of change: `user.roles`, `group.members`, `sharing`…
    pub action: String,
    /// What it changed: a user or group id, or an object's path.
    pub target: String,
    /// The change itself (roles given and taken, members added and removed…); never a
    /// password or its hash.
    pub details: serde_json::Value,
    /// The client's address, as the connection or a trusted proxy gave it.
    pub client: Option<String>,
}

/// Which entries a reader asks for; `None` matches any.
#[derive(Clone, Debug, Default)]
pub struct AuditQuery {
    /// Only changes by this user.
    pub actor: Option<String>,
    /// Only changes to this user, group or path.
    pub target: Option<String>,
    /// Only this kind of change.
    pub action: Option<String>,
}

impl AuditQuery {
    fn where_clause(&self) -> (String, Vec<String>) {
        let mut clauses = vec!["1 = 1".to_owned()];
        let mut binds = Vec::new();
        for (column, value) in [("actor", &self.actor), ("target", &self.target), ("action", &self.action)] {
            if let Some(value) = value {
                binds.push(value.clone());
                clauses.push(format!("{column} = ${}", binds.len()));
            }
        }
        (clauses.join(" AND "), binds)
    }
}

impl Tx {
    /// Writes `entry` as part of this transaction.
    pub async fn append_audit(&mut self, entry: &AuditEntry) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO audit_log (at, actor, action, target, details, client) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(time_to_db(entry.at))
        .bind(&entry.actor)
        .bind(&entry.action)
        .bind(&entry.target)
        .bind(entry.details.to_string())
        .bind(entry.client.as_deref())
        .execute(self.connection())
        .await?;
        Ok(())
    }
}

impl Store {
    /// One page of the entries `query` matches, newest first.
    pub async fn audit_entries(
        &self,
        query: &AuditQuery,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<AuditEntry>, sqlx::Error> {
        self.count();
        let (clause, binds) = query.where_clause();
        let sql = format!(
            "SELECT id, at, actor, action, target, details, client FROM audit_log WHERE {clause} ORDER BY id DESC {}",
            page_clause(binds.len())
        );
        let rows = with_text_binds(sql, &binds).bind(limit).bind(offset).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| {
                let details: String = row.try_get(5)?;
                Ok(AuditEntry {
                    id: row.try_get(0)?,
                    at: time_from_db(&row.try_get::<String, _>(1)?)?,
                    actor: row.try_get(2)?,
                    action: row.try_get(3)?,
                    target: row.try_get(4)?,
                    details: serde_json::from_str(&details)
                        .map_err(|e| sqlx::Error::Decode(format!("audit_log.details: {e}").into()))?,
                    client: row.try_get(6)?,
                })
            })
            .collect()
    }

    /// How many entries `query` matches.
    pub async fn count_audit_entries(&self, query: &AuditQuery) -> Result<i64, sqlx::Error> {
        self.count();
        let (clause, binds) = query.where_clause();
        let sql = format!("SELECT COUNT(*) FROM audit_log WHERE {clause}");
        with_text_binds(sql, &binds).fetch_one(&self.pool).await?.try_get(0)
    }
}
