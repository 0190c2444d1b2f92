//! `POST <site>/@email-send {"to", "from"?, "name"?, "subject", "message"}`: a Manager's mail
//! to anyone, queued in the outbox (204). Replies go to `from` when given.

use super::{MAX_MESSAGE, MAX_SUBJECT, address, text};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, NoContent, body_schema};
use crate::mail::Mail;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// The service.
pub static EMAIL_SEND: Service = Service {
    method: Method::POST,
    name: "@email-send",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<OutgoingMail>),
        ..Route::new("", "Send a mail to anyone; it is queued in the outbox", endpoint!(send))
    }],
};

/// A mail a Manager sends.
#[derive(Object)]
pub struct OutgoingMail {
    /// The recipient's address.
    pub to: String,
    /// Where replies go.
    pub from: Option<String>,
    /// The sender's name, signed under the message.
    pub name: Option<String>,
    /// One line, at most 300 characters.
    pub subject: String,
    /// The text, at most 100,000 bytes.
    pub message: String,
}

async fn send(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let to = address(&body, "to", true, &mut errors);
    let from = address(&body, "from", false, &mut errors);
    let name = text(&body, "name", false, 200, true, &mut errors);
    let subject = text(&body, "subject", true, MAX_SUBJECT, true, &mut errors);
    let message = text(&body, "message", true, MAX_MESSAGE, false, &mut errors);
    let Some(to) = to.filter(|_| errors.is_empty()) else {
        return Err(ApiError::validation(errors));
    };
    let signature = if name.is_empty() { String::new() } else { format!("\n\n-- \n{name}") };
    let mail = Mail { recipients: to, reply_to: from, subject, body: format!("{message}{signature}") };
    let mut tx = ctx.app.store.begin().await?;
    tx.queue_mail("email-send", &mail).await?;
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
