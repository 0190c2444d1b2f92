//! The webhook action and its outbox. The action queues a delivery: the event as JSON, posted
//! to the rule's URL with an HMAC-SHA256 signature of the body (`X-Wcs-Signature: sha256=<hex>`)
//! so the receiver can tell it came from this site. A background task posts what is due;
//! a failure (no answer within 10 s, or a status other than 2xx) is retried after a pause that
//! doubles each time, and after the last attempt the delivery is given up and kept with its
//! error, for Managers to see in `@content-rules-deliveries`. A delivered one is deleted.

use crate::model::{Element, Rule};
use crate::run::Run;
use crate::settings::{WEBHOOK_FIRST_PAUSE, WEBHOOK_MAX_ATTEMPTS};
use chrono::{DateTime, TimeDelta, Utc};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use sqlx::Row;
use std::time::Duration;
use wcs_core::app::App;
use wcs_core::http::{ApiError, ApiResult};
use wcs_core::store::{Store, time_to_db};

/// How long a receiver may take.
const TIMEOUT: Duration = Duration::from_secs(10);
/// How long a claimed delivery is left to its sender before another instance may try it.
const CLAIM: TimeDelta = TimeDelta::seconds(60);
/// Deliveries per look.
const BATCH: i64 = 20;
/// The longest pause between two attempts.
const MAX_PAUSE: i64 = 3600;

/// Queues a delivery of the run's event to the action's URL.
pub async fn queue(run: &Run<'_>, rule: &Rule, action: &Element) -> ApiResult<()> {
    let object = run.object.as_ref();
    let body = json!({
        "event": run.trigger.title,
        "trigger": run.trigger.token,
        "rule": {"id": rule.id, "title": rule.title},
        "object": {
            "@id": run.object_url(),
            "UID": run.uid,
            "path": run.path_in_site(),
            "@type": object.map(|o| o.portal_type.as_str()),
            "title": object.map(|o| o.title.as_str()),
            "review_state": object.and_then(|o| o.review_state.as_deref()),
            "exists": object.is_some(),
        },
        "actor": run.actor.user_id,
        "time": Utc::now().to_rfc3339(),
    });
    let now = time_to_db(Utc::now());
    let mut tx = run.app.store.begin().await?;
    sqlx::query(
        "INSERT INTO content_rule_webhook (rule_id, url, secret, body, created, next_try) VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(&rule.id)
    .bind(action.text("url"))
    .bind(action.text("secret"))
    .bind(body.to_string())
    .bind(now)
    .execute(tx.connection())
    .await?;
    tx.commit().await
}

/// The signature header's value for `body` under `secret`.
pub fn signature(secret: &str, body: &str) -> String {
    // HMAC takes keys of any length, so this never fails.
    let Ok(mut mac) = <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes()) else { return String::new() };
    mac.update(body.as_bytes());
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Posts what is due; how many were delivered.
pub async fn deliver_due(app: &App, client: &reqwest::Client) -> ApiResult<usize> {
    let store = app.store.background();
    let now = Utc::now();
    let due = sqlx::query(
        "SELECT id, url, secret, body, attempts FROM content_rule_webhook \
         WHERE sent IS NULL AND failed IS NULL AND next_try <= $1 AND (claimed_until IS NULL OR claimed_until < $1) \
         ORDER BY id LIMIT $2",
    )
    .bind(time_to_db(now))
    .bind(BATCH)
    .fetch_all(store.pool())
    .await?;
    if due.is_empty() {
        return Ok(0);
    }
    let settings = app.record_values(&[&WEBHOOK_FIRST_PAUSE, &WEBHOOK_MAX_ATTEMPTS]).await?;
    let first_pause = settings.first().and_then(Value::as_i64).unwrap_or(30);
    let max_attempts = settings.get(1).and_then(Value::as_i64).unwrap_or(8);
    let mut delivered = 0;
    for row in due {
        let id: i64 = row.try_get(0)?;
        if !claim(&store, id, now).await? {
            continue;
        }
        let (url, secret, body): (String, String, String) = (row.try_get(1)?, row.try_get(2)?, row.try_get(3)?);
        let attempts: i64 = row.try_get::<i64, _>(4)? + 1;
        match post(client, id, &url, &secret, &body).await {
            Ok(()) => {
                sqlx::query("DELETE FROM content_rule_webhook WHERE id = $1").bind(id).execute(store.pool()).await?;
                delivered += 1;
            }
            Err(problem) => {
                tracing::warn!(delivery = id, %url, attempts, %problem, "webhook delivery failed");
                let pause = (first_pause << (attempts - 1).clamp(0, 20)).min(MAX_PAUSE);
                let next = Utc::now() + TimeDelta::seconds(pause);
                let given_up = (attempts >= max_attempts).then(|| time_to_db(Utc::now()));
                sqlx::query(
                    "UPDATE content_rule_webhook SET attempts = $1, last_error = $2, next_try = $3, failed = $4, \
                     claimed_until = NULL WHERE id = $5",
                )
                .bind(attempts)
                .bind(problem)
                .bind(time_to_db(next))
                .bind(given_up)
                .bind(id)
                .execute(store.pool())
                .await?;
            }
        }
    }
    Ok(delivered)
}

async fn claim(store: &Store, id: i64, now: DateTime<Utc>) -> ApiResult<bool> {
    let claimed = sqlx::query(
        "UPDATE content_rule_webhook SET claimed_until = $1 \
         WHERE id = $2 AND sent IS NULL AND failed IS NULL AND (claimed_until IS NULL OR claimed_until < $3)",
    )
    .bind(time_to_db(now + CLAIM))
    .bind(id)
    .bind(time_to_db(now))
    .execute(store.pool())
    .await?;
    Ok(claimed.rows_affected() == 1)
}

async fn post(client: &reqwest::Client, id: i64, url: &str, secret: &str, body: &str) -> Result<(), String> {
    let event = serde_json::from_str::<Value>(body).ok().and_then(|b| b["trigger"].as_str().map(str::to_owned));
    let response = client
        .post(url)
        .timeout(TIMEOUT)
        .header("Content-Type", "application/json")
        .header("X-Wcs-Delivery", id.to_string())
        .header("X-Wcs-Event", event.unwrap_or_default())
        .header("X-Wcs-Signature", signature(secret, body))
        .body(body.to_owned())
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    if status.is_success() { Ok(()) } else { Err(format!("the receiver answered {status}")) }
}

/// The HTTP client deliveries go through: no redirects (a signed body goes where it was
/// sent, nowhere else).
pub fn client() -> ApiResult<reqwest::Client> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("wcs-backend content rules")
        .build()
        .map_err(ApiError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_hex_hmac_of_the_body() {
        // RFC 4231's second test case.
        let signed = signature("Jefe", "what do ya want for nothing?");
        assert_eq!(signed, "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }
}
