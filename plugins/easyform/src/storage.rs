//! The plugin's table of submissions; a submission's mail goes into the server's outbox in
//! the same transaction.

use serde_json::{Map, Value};
use sqlx::Row;
use wcs_core::app::App;
use wcs_core::content::ContentObject;
use wcs_core::http::ApiResult;
use wcs_core::mail::Mail;
use wcs_core::store::{Migration, Store, time_to_db};

/// The tables' migrations, per backend.
pub static MIGRATIONS: [Migration; 3] = [
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
    Migration {
        version: 3,
        description: "mail moves to the server's outbox",
        sqlite: include_str!("../migrations/sqlite/0003_core_outbox.sql"),
        postgres: include_str!("../migrations/postgres/0003_core_outbox.sql"),
    },
];

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
        tx.queue_mail(&format!("easyform:{}", form.uid), &mail).await?;
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
