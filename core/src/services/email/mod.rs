//! Mail from the site: `@email-send` (Managers write to anyone) and `@email-notification` (the
//! footer contact form, open to visitors and limited per client). Both queue into the mail
//! outbox, which the mail panel's SMTP settings deliver.

mod notification;
mod send;

pub use notification::{CONTACT_PER_MINUTE, EMAIL_NOTIFICATION};
pub use send::EMAIL_SEND;

use crate::http::FieldError;
use lettre::message::Mailbox;
use serde_json::{Map, Value};

/// The longest subject line, in characters.
const MAX_SUBJECT: usize = 300;
/// The longest message, in bytes.
const MAX_MESSAGE: usize = 100_000;

/// A text value of `body`, checked for presence, length and (for one line) line breaks.
fn text(
    body: &Map<String, Value>,
    name: &str,
    required: bool,
    max: usize,
    line: bool,
    errors: &mut Vec<FieldError>,
) -> String {
    let value = body.get(name).and_then(Value::as_str).map(str::trim).unwrap_or_default();
    if value.is_empty() && required {
        errors.push(FieldError::new(name, "Required."));
    } else if value.len() > max {
        errors.push(FieldError::new(name, format!("At most {max} characters.")));
    } else if line && value.contains(['\n', '\r']) {
        errors.push(FieldError::new(name, "One line, without line breaks."));
    }
    value.to_owned()
}

/// An e-mail address of `body` (one, without display name tricks), or a field error.
fn address(body: &Map<String, Value>, name: &str, required: bool, errors: &mut Vec<FieldError>) -> Option<String> {
    let value = text(body, name, required, 254, true, errors);
    if value.is_empty() {
        return None;
    }
    match value.parse::<Mailbox>() {
        Ok(mailbox) if mailbox.name.is_none() => Some(mailbox.email.to_string()),
        _ => {
            errors.push(FieldError::new(name, format!("'{value}' is not an e-mail address.")));
            None
        }
    }
}
