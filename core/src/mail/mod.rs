//! The server's mail: an outbox table that writes queue messages into within their own
//! transaction (form submissions, contact messages, password resets), sent over SMTP by a
//! background task as the mail panel's records say, and the records and panel themselves.

mod delivery;
mod panel;
mod sender;

pub use panel::MAIL_PANEL;
pub use sender::{send_due, spawn};

use crate::records::{RecordDef, RecordKind};
use crate::store::{Tx, time_to_db};
use serde_json::json;

/// The SMTP server; empty keeps mail in the outbox.
pub static SMTP_HOST: RecordDef = RecordDef {
    name: "wcs.backend.mail.smtp_host",
    title: "SMTP server",
    description: "Host name of the server mail is sent through; empty: mail stays queued.",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::host_name),
    default: || json!(""),
};

/// The SMTP port.
pub static SMTP_PORT: RecordDef = RecordDef {
    name: "wcs.backend.mail.smtp_port",
    title: "SMTP port",
    description: "587 for STARTTLS, 465 for TLS, 25 for plain relays.",
    kind: RecordKind::Int,
    check: Some(crate::record_checks::port),
    default: || json!(587),
};

/// How the connection is protected.
pub static SMTP_SECURITY: RecordDef = RecordDef {
    name: "wcs.backend.mail.smtp_security",
    title: "SMTP security",
    description: "starttls (default), tls, or none (only for a relay on the same host or network).",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::smtp_security),
    default: || json!("starttls"),
};

/// Login name at the server; empty for none.
pub static SMTP_USER: RecordDef = RecordDef {
    name: "wcs.backend.mail.smtp_user",
    title: "SMTP user",
    description: "Login at the SMTP server; empty: no login.",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::single_line),
    default: || json!(""),
};

/// Password at the server.
pub static SMTP_PASSWORD: RecordDef = RecordDef {
    name: "wcs.backend.mail.smtp_password",
    title: "SMTP password",
    description: "Password of the SMTP user; never shown once set (leave it empty to keep it).",
    kind: RecordKind::Secret,
    check: Some(crate::record_checks::single_line),
    default: || json!(""),
};

/// The sender of the server's mail.
pub static SENDER: RecordDef = RecordDef {
    name: "wcs.backend.mail.sender",
    title: "Sender address",
    description: "From address of the server's mail (form mails reply to the submitter where the form asks for an address).",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::mailbox),
    default: || json!("noreply@localhost"),
};

/// A message to queue.
pub struct Mail {
    /// Comma-separated addresses.
    pub recipients: String,
    /// Where replies go, when not to the sender.
    pub reply_to: Option<String>,
    /// The subject line.
    pub subject: String,
    /// Plain text.
    pub body: String,
}

/// The mail records, for registering them.
pub static MAIL_RECORDS: [&RecordDef; 6] =
    [&SMTP_HOST, &SMTP_PORT, &SMTP_SECURITY, &SMTP_USER, &SMTP_PASSWORD, &SENDER];

impl Tx {
    /// Queues `mail`; `source` says what sent it (`easyform:<form uid>`, `email-send`…).
    pub async fn queue_mail(&mut self, source: &str, mail: &Mail) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO mail_outbox (source, created, recipients, reply_to, subject, body) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(source)
        .bind(time_to_db(chrono::Utc::now()))
        .bind(&mail.recipients)
        .bind(mail.reply_to.as_deref())
        .bind(&mail.subject)
        .bind(&mail.body)
        .execute(self.connection())
        .await?;
        Ok(())
    }
}
