//! A submission checked against the form's fields: required values, types, e-mail syntax,
//! vocabulary membership and lengths; keys the form does not have are refused.

use crate::model::{FieldType, FormField};
use serde_json::{Map, Value, json};
use wcs_core::http::FieldError;

/// Longest one-line answer without a `max_length` in the model, in characters.
const TEXT_LINE_MAX: usize = 1_000;
/// Longest multi-line answer without a `max_length` in the model, in characters.
const TEXT_MAX: usize = 20_000;
/// Longest e-mail address (RFC 5321 path limit).
const EMAIL_MAX: usize = 254;

/// The values by field name, or every problem found.
pub fn validate(
    fields: &[FormField],
    body: &Map<String, Value>,
    honeypot: Option<&str>,
) -> Result<Map<String, Value>, Vec<FieldError>> {
    let mut errors = Vec::new();
    for key in body.keys() {
        let known = fields.iter().any(|f| f.widget_name() == *key)
            || honeypot.is_some_and(|h| *key == h || key.strip_prefix("form.widgets.") == Some(h));
        if !known {
            errors.push(FieldError::new(key.as_str(), "This form has no such field."));
        }
    }
    let mut values = Map::new();
    for field in fields {
        let key = field.widget_name();
        let value = body.get(&key).filter(|v| !is_empty(v));
        match value {
            None if field.required && field.kind != FieldType::Bool => {
                errors.push(FieldError::new(key, "Required input is missing."));
            }
            None => {}
            Some(value) => match check(field, value) {
                Ok(value) => {
                    values.insert(field.name.clone(), value);
                }
                Err(message) => errors.push(FieldError::new(key, message)),
            },
        }
    }
    if errors.is_empty() { Ok(values) } else { Err(errors) }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

/// One value, normalised, or why it is wrong.
fn check(field: &FormField, value: &Value) -> Result<Value, String> {
    let text = |limit: usize| -> Result<String, String> {
        let text = value.as_str().ok_or("Expected text.")?.trim();
        let limit = field.max_length.unwrap_or(limit);
        if text.chars().count() > limit {
            return Err(format!("At most {limit} characters."));
        }
        Ok(text.to_owned())
    };
    let known = |token: &str| field.items.iter().any(|(t, _)| t == token);
    match field.kind {
        FieldType::TextLine => {
            let line = text(TEXT_LINE_MAX)?;
            if line.contains(['\n', '\r']) {
                return Err("Expected one line.".into());
            }
            Ok(json!(line))
        }
        FieldType::Email => {
            let address = text(EMAIL_MAX)?;
            if !is_email(&address) {
                return Err("Not a valid e-mail address.".into());
            }
            Ok(json!(address))
        }
        FieldType::Text => Ok(json!(text(TEXT_MAX)?)),
        FieldType::Choice => {
            let token = value.as_str().ok_or("Expected one of the choices.")?;
            if !known(token) {
                return Err(format!("'{token}' is not one of the choices."));
            }
            Ok(json!(token))
        }
        FieldType::MultiChoice => {
            let tokens = value.as_array().ok_or("Expected a list of choices.")?;
            let mut chosen: Vec<&str> = Vec::with_capacity(tokens.len());
            for token in tokens {
                let token = token.as_str().ok_or("Expected a list of choices.")?;
                if !known(token) {
                    return Err(format!("'{token}' is not one of the choices."));
                }
                if !chosen.contains(&token) {
                    chosen.push(token);
                }
            }
            Ok(json!(chosen))
        }
        FieldType::Bool => value.as_bool().map(|b| json!(b)).ok_or_else(|| "Expected true or false.".into()),
        FieldType::Int => {
            let number = match value {
                Value::Number(n) => n.as_i64(),
                Value::String(s) => s.trim().parse().ok(),
                _ => None,
            }
            .ok_or("Expected a whole number.")?;
            if field.min.is_some_and(|min| number < min) || field.max.is_some_and(|max| number > max) {
                let range = format!(
                    "{}…{}",
                    field.min.map_or(String::new(), |m| m.to_string()),
                    field.max.map_or(String::new(), |m| m.to_string())
                );
                return Err(format!("Expected a number in {range}."));
            }
            Ok(json!(number))
        }
        FieldType::Date => {
            let text = value.as_str().ok_or("Expected a date (YYYY-MM-DD).")?.trim();
            let date =
                chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| "Expected a date (YYYY-MM-DD).")?;
            Ok(json!(date.format("%Y-%m-%d").to_string()))
        }
    }
}

/// A plausible mailbox: `local@domain.tld`, no spaces or control characters, one `@`.
pub fn is_email(address: &str) -> bool {
    let Some((local, domain)) = address.split_once('@') else { return false };
    let clean =
        |part: &str| !part.is_empty() && part.chars().all(|c| !c.is_whitespace() && !c.is_control() && c != '@');
    let labels_ok =
        domain.split('.').all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'));
    clean(local)
        && clean(domain)
        && domain.contains('.')
        && labels_ok
        && !local.starts_with('.')
        && !local.ends_with('.')
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::parse_json;

    fn form() -> Vec<FormField> {
        parse_json(
            json!([
                {"name": "mail", "type": "Email", "title": "E-Mail", "required": true},
                {"name": "thema", "type": "Choice", "items": [{"token": "lob", "title": "Lob"}]},
                {"name": "alter", "type": "Int", "min": 0, "max": 130},
                {"name": "name", "type": "TextLine", "max_length": 5}
            ])
            .as_array()
            .unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn every_problem_is_named_by_its_field() {
        let body = json!({"form.widgets.thema": "kritik", "form.widgets.alter": 200, "form.widgets.name": "Zu lang",
                          "form.widgets.extra": 1});
        let errors = validate(&form(), body.as_object().unwrap(), None).unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "form.widgets.extra",
                "form.widgets.mail",
                "form.widgets.thema",
                "form.widgets.alter",
                "form.widgets.name"
            ]
        );
    }

    #[test]
    fn good_values_come_back_by_field_name() {
        let body = json!({"form.widgets.mail": " anna@example.org ", "form.widgets.alter": "42", "website": "x"});
        let values = validate(&form(), body.as_object().unwrap(), Some("website")).unwrap();
        assert_eq!(Value::Object(values), json!({"mail": "anna@example.org", "alter": 42}));
    }

    #[test]
    fn addresses() {
        for good in ["a@b.de", "anna.schmidt+x@stadt.example.org"] {
            assert!(is_email(good), "{good}");
        }
        for bad in ["", "a", "a@b", "a b@c.de", "a@@b.de", "@b.de", "a@.de", "a@b..de", ".a@b.de"] {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
