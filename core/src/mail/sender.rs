//! Sends the mail outbox over SMTP with lettre. Off until `wcs.backend.mail.smtp_host` names
//! a server; messages wait in the outbox meanwhile (nothing is lost by turning it on late).
//! A background task looks every few seconds, claims each due message for a while (so
//! instances sharing a database do not send it twice), sends it, and marks it sent; a failure
//! is retried later, up to five attempts, and the last error is kept with the message.

use super::delivery::DeliveryState;
use super::{SENDER, SMTP_HOST, SMTP_PASSWORD, SMTP_PORT, SMTP_SECURITY, SMTP_USER};
use crate::error::{ApiError, ApiResult};
use crate::site::Site;
use crate::store::time_to_db;
use lettre::message::{Mailbox, header::ContentType};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde_json::Value;
use sqlx::Row;
use std::ops::Deref;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// How often the outbox is looked at.
const POLL: Duration = Duration::from_secs(2);
/// Messages per look.
const BATCH: i64 = 20;
/// How long a claimed message is left to its sender before another may try.
const CLAIM: chrono::TimeDelta = chrono::TimeDelta::seconds(120);
/// Attempts before a message is given up (it stays in the table, marked failed).
const MAX_ATTEMPTS: i64 = 5;

/// Starts the sender for the site `app` holds; it ends with `app` (the application).
pub fn spawn<A: Deref<Target = Site> + Send + Sync + 'static>(app: &Arc<A>) {
    let app: Weak<A> = Arc::downgrade(app);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(POLL).await;
            let Some(app) = app.upgrade() else { return };
            if let Err(err) = send_due(&app).await {
                tracing::warn!(%err, "sending mail failed; retrying later");
            }
        }
    });
}

/// Sends what is due; how many were sent.
pub async fn send_due(site: &Site) -> ApiResult<usize> {
    // Its own statement counter: the sender's reads are no request's cost.
    let store = site.store.background();
    let settings =
        store.record_values(&[&SMTP_HOST, &SMTP_PORT, &SMTP_SECURITY, &SMTP_USER, &SMTP_PASSWORD, &SENDER]).await?;
    let [host, port, security, user, password, sender]: [Value; 6] =
        settings.try_into().map_err(|_| ApiError::internal("mail settings"))?;
    let host = host.as_str().unwrap_or_default().trim();
    if host.is_empty() {
        return Ok(0);
    }
    let now = chrono::Utc::now();
    let due = sqlx::query(
        "SELECT id, recipients, reply_to, subject, body FROM mail_outbox \
         WHERE sent IS NULL AND failed IS NULL AND (claimed_until IS NULL OR claimed_until < $1) ORDER BY id LIMIT $2",
    )
    .bind(time_to_db(now))
    .bind(BATCH)
    .fetch_all(store.pool())
    .await?;
    if due.is_empty() {
        return Ok(0);
    }
    let transport = transport(host, &port, &security, &user, &password)?;
    let sender: Mailbox = sender.as_str().unwrap_or_default().parse().map_err(ApiError::internal)?;
    let mut sent = 0;
    for row in due {
        let id: i64 = row.try_get(0)?;
        if !DeliveryState::claim(&store, id, now, now + CLAIM).await? {
            continue;
        }
        let outcome = match message(&sender, &row) {
            Ok(message) => transport.send(message).await.map(|_| ()).map_err(|e| e.to_string()),
            Err(problem) => Err(problem),
        };
        match outcome {
            Ok(()) => {
                DeliveryState::sent(&store, id).await?;
                sent += 1;
            }
            Err(problem) => {
                tracing::warn!(id, %problem, "mail not sent");
                DeliveryState::failed_attempt(&store, id, &problem, MAX_ATTEMPTS).await?;
            }
        }
    }
    Ok(sent)
}

fn transport(
    host: &str,
    port: &Value,
    security: &Value,
    user: &Value,
    password: &Value,
) -> ApiResult<AsyncSmtpTransport<Tokio1Executor>> {
    let builder = match security.as_str().unwrap_or("starttls") {
        "none" => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
        "tls" => AsyncSmtpTransport::<Tokio1Executor>::relay(host).map_err(ApiError::internal)?,
        _ => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host).map_err(ApiError::internal)?,
    };
    let port = port.as_u64().and_then(|p| u16::try_from(p).ok()).unwrap_or(587);
    let mut builder = builder.port(port).timeout(Some(Duration::from_secs(30)));
    if let Some(user) = user.as_str().filter(|u| !u.is_empty()) {
        builder =
            builder.credentials(Credentials::new(user.to_owned(), password.as_str().unwrap_or_default().to_owned()));
    }
    Ok(builder.build())
}

/// The message of an outbox row; a bad stored address is a permanent problem of that message.
fn message(sender: &Mailbox, row: &sqlx::any::AnyRow) -> Result<Message, String> {
    let column = |i: usize| row.try_get::<String, _>(i).map_err(|e| e.to_string());
    let mut builder = Message::builder().from(sender.clone()).subject(column(3)?);
    for address in column(1)?.split(',').map(str::trim).filter(|a| !a.is_empty()) {
        builder = builder.to(address.parse::<Mailbox>().map_err(|e| format!("recipient '{address}': {e}"))?);
    }
    if let Some(reply_to) = row.try_get::<Option<String>, _>(2).map_err(|e| e.to_string())? {
        builder = builder.reply_to(reply_to.parse::<Mailbox>().map_err(|e| format!("reply-to '{reply_to}': {e}"))?);
    }
    builder.header(ContentType::TEXT_PLAIN).body(column(4)?).map_err(|e| e.to_string())
}
