//! The body of a new or changed comment: `{text, author_name?, author_email?}`, checked.

use serde_json::{Map, Value};
use wcs_core::http::{ApiError, ApiResult, FieldError};

/// The longest comment text, in characters.
pub const MAX_TEXT: usize = 50_000;
/// The longest name or e-mail address an anonymous commenter may give.
pub const MAX_AUTHOR: usize = 200;

/// The required `text`, trimmed of nothing, refused when missing, blank or too long.
pub fn text(body: &Map<String, Value>) -> ApiResult<String> {
    match body.get("text") {
        Some(Value::String(text)) if text.trim().is_empty() => Err(required("text")),
        Some(Value::String(text)) if text.chars().count() > MAX_TEXT => {
            Err(ApiError::validation(vec![FieldError::new(
                "text",
                format!("The comment is longer than {MAX_TEXT} characters."),
            )]))
        }
        Some(Value::String(text)) => Ok(text.clone()),
        None | Some(Value::Null) => Err(required("text")),
        Some(_) => Err(ApiError::validation(vec![FieldError::new("text", "Expected text.")])),
    }
}

/// An optional author detail (`author_name`, `author_email`): `None` when absent or blank.
pub fn author_detail(body: &Map<String, Value>, key: &str) -> ApiResult<Option<String>> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(value)) if value.trim().is_empty() => Ok(None),
        Some(Value::String(value)) if value.chars().count() > MAX_AUTHOR => {
            Err(ApiError::validation(vec![FieldError::new(key, format!("Longer than {MAX_AUTHOR} characters."))]))
        }
        Some(Value::String(value)) => Ok(Some(value.trim().to_owned())),
        Some(_) => Err(ApiError::validation(vec![FieldError::new(key, "Expected text.")])),
    }
}

/// The 400 of a missing required field, in z3c.form's words.
pub fn required(key: &str) -> ApiError {
    ApiError::validation(vec![FieldError::new(key, "Required input is missing.")])
}

/// Whether `address` looks like an e-mail address (one `@`, a dot in the domain, no spaces).
pub fn plausible_email(address: &str) -> bool {
    let Some((local, domain)) = address.split_once('@') else { return false };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !address.chars().any(|c| c.is_whitespace() || c == '<' || c == '>')
        && !domain.contains('@')
}
