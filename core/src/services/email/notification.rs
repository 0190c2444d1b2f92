//! `POST <obj>/@email-notification {"name", "from", "subject"?, "message"}`: the contact form
//! in Volto's footer. Visitors may use it on anything they may view; the message goes to the
//! site's address (the mail panel's sender), names the page it was sent from, and replies go
//! to the visitor. Limited per client and minute; queued in the outbox (204).

use super::{MAX_MESSAGE, MAX_SUBJECT, address, text};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, ClientLimiter, Ctx, NoContent, body_schema};
use crate::mail::{Mail, SENDER};
use crate::records::{RecordDef, RecordKind};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::json;
use std::sync::Arc;

/// The limit; 0 switches it off.
pub static CONTACT_PER_MINUTE: RecordDef = RecordDef {
    name: "wcs.backend.mail.contact_per_minute",
    title: "Contact messages per client and minute",
    description: "More contact-form messages from one address within a minute are refused with 429 (0: no limit).",
    kind: RecordKind::Int,
    check: Some(crate::record_checks::per_minute),
    default: || json!(3),
};

/// The service.
pub static EMAIL_NOTIFICATION: Service = Service {
    method: Method::POST,
    name: "@email-notification",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route {
        request: Some(body_schema::<ContactMessage>),
        ..Route::new("", "The contact form: a message to the site's address; limited per client", endpoint!(notify))
    }],
};

/// A visitor's message from the contact form.
#[derive(Object)]
pub struct ContactMessage {
    /// The visitor's name.
    pub name: Option<String>,
    /// The visitor's address; replies go there.
    pub from: String,
    /// One line, at most 300 characters; `Message from <page title>` unless given.
    pub subject: Option<String>,
    /// The text, at most 100,000 bytes.
    pub message: String,
}

/// The contact form's own counts, kept in the application's extensions.
#[derive(Default)]
struct ContactLimiter(ClientLimiter);

async fn notify(ctx: Ctx) -> ApiResult<NoContent> {
    if let Some(client) = ctx.request.client {
        let limiter = ctx.app.extensions.get_or_insert_with(|| Arc::new(ContactLimiter::default()));
        let limit = ctx.app.record_value(&CONTACT_PER_MINUTE).await?.as_u64().unwrap_or(0);
        limiter.0.check(client, u32::try_from(limit).unwrap_or(u32::MAX), "messages")?;
    }
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let name = text(&body, "name", false, 200, true, &mut errors);
    let from = address(&body, "from", true, &mut errors);
    let subject = text(&body, "subject", false, MAX_SUBJECT, true, &mut errors);
    let message = text(&body, "message", true, MAX_MESSAGE, false, &mut errors);
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let site_address = ctx.app.record_value(&SENDER).await?.as_str().unwrap_or_default().to_owned();
    let page = ctx.url_of(&ctx.context);
    let subject = if subject.is_empty() { format!("Message from {}", ctx.context.title) } else { subject };
    let sender = if name.is_empty() { from.clone().unwrap_or_default() } else { name };
    let mail = Mail {
        recipients: site_address,
        reply_to: from,
        subject,
        body: format!("{sender} wrote on {page}:\n\n{message}"),
    };
    let mut tx = ctx.app.store.begin().await?;
    tx.queue_mail("email-notification", &mail).await?;
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
