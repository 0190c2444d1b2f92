//! Delivery bookkeeping of outbox messages: claims, sent marks and failed attempts.

use crate::error::ApiResult;
use crate::store::{Store, time_to_db};

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
            "UPDATE mail_outbox SET claimed_until = $1 \
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
        sqlx::query("UPDATE mail_outbox SET sent = $1, attempts = attempts + 1, last_error = NULL WHERE id = $2")
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
            "UPDATE mail_outbox SET attempts = attempts + 1, last_error = $1, \
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
