//! The plugin's tables: submissions and the mail outbox, written in one transaction.

use serde_json::{Map, Value};
use sqlx::Row;
use wcs_core::app::App;
use wcs_core::content::ContentObject;
use wcs_core::http::ApiResult;
use wcs_core::store::{Migration, Store, time_to_db};

/// The tables' migrations, per backend.
pub static MIGRATIONS: [Migration; 2] = [
    Migration {
        version: 1,
        description: "submissions and mail outbox",
        sqlite: include_str!("../migrations/sqlite/0001_submissions.sql"),
        postgres: include_str!("../migrations/postgres/0001_submissions.sql"),
    },
    Migration {
        version: 2,
        description: "outbox delivery state",
        sqlite: include_str!("../migrations/sqlite/0002_outbox_delivery.sql"),
        postgres: include_str!("../migrations/postgres/0002_outbox_delivery.sql"),
    },
];

/// A message the mail action queues.
pub struct Mail {
    /// Comma-separated addresses.
    pub recipients: String,
    /// The submitter's address, when the form asked for one.
    pub reply_to: Option<String>,
    /// The subject line.
    pub subject: String,
    /// Plain text.
    pub body: String,
}

/// One stored submission.
pub struct Submission {
    /// Its number.
    pub id: i64,
    /// When it arrived (RFC 3339).
    pub created: String,
    /// The values by field name.
    pub data: Value,
}

/// Stores a submission and, when given, its mail, together or not at all.
pub async fn store(app: &App, form: &ContentObject, values: &Map<String, Value>, mail: Option<Mail>) -> ApiResult<i64> {
    let now = time_to_db(chrono::Utc::now());
    let data = Value::Object(values.clone()).to_string();
    let mut tx = app.store.begin().await?;
    let row = sqlx::query("INSERT INTO easyform_submission (form_uid, created, data) VALUES ($1, $2, $3) RETURNING id")
        .bind(&form.uid)
        .bind(&now)
        .bind(&data)
        .fetch_one(tx.connection())
        .await?;
    let id: i64 = row.try_get(0)?;
    if let Some(mail) = mail {
        sqlx::query(
            "INSERT INTO easyform_outbox (form_uid, created, recipients, reply_to, subject, body) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&form.uid)
        .bind(&now)
        .bind(&mail.recipients)
        .bind(mail.reply_to.as_deref())
        .bind(&mail.subject)
        .bind(&mail.body)
        .execute(tx.connection())
        .await?;
    }
    tx.commit().await?;
    Ok(id)
}

/// A page of a form's submissions, oldest first, and how many there are.
pub async fn page(store: &Store, form_uid: &str, offset: i64, limit: i64) -> ApiResult<(Vec<Submission>, i64)> {
    let total: i64 = sqlx::query("SELECT COUNT(*) FROM easyform_submission WHERE form_uid = $1")
        .bind(form_uid)
        .fetch_one(store.pool())
        .await?
        .try_get(0)?;
    let rows = sqlx::query(
        "SELECT id, created, data FROM easyform_submission WHERE form_uid = $1 ORDER BY id LIMIT $2 OFFSET $3",
    )
    .bind(form_uid)
    .bind(limit)
    .bind(offset)
    .fetch_all(store.pool())
    .await?;
    let submissions = rows
        .iter()
        .map(|row| {
            let data: String = row.try_get(2)?;
            Ok(Submission {
                id: row.try_get(0)?,
                created: row.try_get(1)?,
                data: serde_json::from_str(&data).unwrap_or(Value::Null),
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok((submissions, total))
}

/// Delivery bookkeeping of outbox messages.
pub struct DeliveryState;

impl DeliveryState {
    /// Takes message `id` until `until`, unless another sender holds it or it is done.
    pub async fn claim(
        store: &Store,
        id: i64,
        now: chrono::DateTime<chrono::Utc>,
        until: chrono::DateTime<chrono::Utc>,
    ) -> ApiResult<bool> {
        let claimed = sqlx::query(
            "UPDATE easyform_outbox SET claimed_until = $1 \
             WHERE id = $2 AND sent IS NULL AND failed IS NULL AND (claimed_until IS NULL OR claimed_until < $3)",
        )
        .bind(time_to_db(until))
        .bind(id)
        .bind(time_to_db(now))
        .execute(store.pool())
        .await?;
        Ok(claimed.rows_affected() == 1)
    }

    /// Marks message `id` sent.
    pub async fn sent(store: &Store, id: i64) -> ApiResult<()> {
        sqlx::query("UPDATE easyform_outbox SET sent = $1, attempts = attempts + 1, last_error = NULL WHERE id = $2")
            .bind(time_to_db(chrono::Utc::now()))
            .bind(id)
            .execute(store.pool())
            .await?;
        Ok(())
    }

    /// Counts a failed attempt (the claim runs out, so it is retried) and gives up after
    /// `max_attempts`.
    pub async fn failed_attempt(store: &Store, id: i64, problem: &str, max_attempts: i64) -> ApiResult<()> {
        sqlx::query(
            "UPDATE easyform_outbox SET attempts = attempts + 1, last_error = $1, \
             failed = CASE WHEN attempts + 1 >= $2 THEN $3 ELSE NULL END WHERE id = $4",
        )
        .bind(problem)
        .bind(max_attempts)
        .bind(time_to_db(chrono::Utc::now()))
        .bind(id)
        .execute(store.pool())
        .await?;
        Ok(())
    }
}
