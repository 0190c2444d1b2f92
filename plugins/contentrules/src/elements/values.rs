//! Checking the values a client sends for a condition's or an action's form against its
//! schema: known fields only, of the field's type, required ones given, every size bounded.

use super::ElementKind;
use serde_json::{Map, Value};
use wcs_core::http::{ApiError, ApiResult, FieldError};

/// The longest text a field keeps (a mail's message is the long one).
const MAX_TEXT: usize = 20_000;
/// The most entries of a list field.
const MAX_ITEMS: usize = 200;
/// The longest entry of a list field.
const MAX_ITEM: usize = 500;

/// The values `given` for `kind`'s form on top of `previous` (an edit changes the fields it
/// names); a write-only field sent empty keeps its value. 400 naming each bad field.
pub fn checked_values(
    kind: &ElementKind,
    given: &Map<String, Value>,
    previous: Option<&Map<String, Value>>,
) -> ApiResult<Map<String, Value>> {
    let mut values = previous.cloned().unwrap_or_default();
    let mut errors = Vec::new();
    for (name, value) in given {
        let Some(property) = kind.property(name) else {
            errors.push(FieldError::new(name, format!("'{}' has no field '{name}'.", kind.title)));
            continue;
        };
        if is_write_only(property) && value.as_str().is_some_and(str::is_empty) && values.contains_key(name) {
            continue;
        }
        match checked(property, value) {
            Ok(value) => {
                values.insert(name.clone(), value);
            }
            Err(message) => errors.push(FieldError::new(name, message)),
        }
    }
    for name in kind.fields() {
        if values.contains_key(name) {
            continue;
        }
        match kind.property(name).and_then(|p| p.get("default")) {
            Some(default) => {
                values.insert(name.to_owned(), default.clone());
            }
            None if kind.requires(name) => errors.push(FieldError::new(name, "Required input is missing.")),
            None => {}
        }
    }
    for name in kind.fields() {
        let empty = values.get(name).is_none_or(|v| v.as_str() == Some("") || v.as_array().is_some_and(Vec::is_empty));
        if kind.requires(name) && empty && !errors.iter().any(|e| e.field == name) {
            errors.push(FieldError::new(name, "Required input is missing."));
        }
    }
    if errors.is_empty() { Ok(values) } else { Err(ApiError::validation(errors)) }
}

/// Whether the field is never shown back (a webhook's secret).
pub fn is_write_only(property: &Value) -> bool {
    property["widget"] == "password"
}

fn checked(property: &Value, value: &Value) -> Result<Value, String> {
    match property["type"].as_str().unwrap_or("string") {
        "integer" => value.as_i64().map(Value::from).ok_or_else(|| "A whole number is expected.".to_owned()),
        "boolean" => value.as_bool().map(Value::from).ok_or_else(|| "true or false is expected.".to_owned()),
        "array" => {
            let items = value.as_array().ok_or("A list of texts is expected.")?;
            if items.len() > MAX_ITEMS {
                return Err(format!("At most {MAX_ITEMS} entries are kept."));
            }
            let texts: Option<Vec<Value>> = items
                .iter()
                .map(|item| item.as_str().filter(|t| t.len() <= MAX_ITEM).map(|t| Value::String(t.to_owned())))
                .collect();
            texts.map(Value::Array).ok_or_else(|| format!("Each entry must be a text of at most {MAX_ITEM} bytes."))
        }
        _ => {
            let text = value.as_str().ok_or("A text is expected.")?;
            if text.len() > MAX_TEXT {
                return Err(format!("At most {MAX_TEXT} bytes are kept."));
            }
            if let Some(choices) = property["enum"].as_array()
                && !choices.iter().any(|c| c == value)
            {
                let names: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
                return Err(format!("'{text}' is not one of {}.", names.join(", ")));
            }
            Ok(Value::String(text.to_owned()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::kind;
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn values_are_checked_against_the_form() {
        let Some(logger) = kind("plone.actions.Logger") else { panic!("the logger action") };
        let defaults = checked_values(logger, &Map::new(), None).map_err(|e| e.message);
        assert_eq!(defaults.map(|v| v["loggingLevel"].clone()), Ok(json!(20)));
        let wrong = checked_values(logger, &map(json!({"loggingLevel": "loud", "colour": 1})), None);
        let fields: Vec<String> =
            wrong.err().map(|e| e.errors.into_iter().map(|f| f.field).collect()).unwrap_or_default();
        assert_eq!(fields, ["loggingLevel", "colour"]);
        let Some(notify) = kind("plone.actions.Notify") else { panic!("the notify action") };
        assert!(checked_values(notify, &map(json!({"message": "Hi", "message_type": "shout"})), None).is_err());
        let Some(mail) = kind("plone.actions.Mail") else { panic!("the mail action") };
        assert!(
            checked_values(mail, &map(json!({"subject": "S"})), None).is_err(),
            "recipients and message are required"
        );
    }

    #[test]
    fn a_secret_sent_empty_keeps_its_value() {
        let Some(webhook) = kind("wcs.actions.Webhook") else { panic!("the webhook action") };
        let first = checked_values(webhook, &map(json!({"url": "https://x.test/h", "secret": "s3"})), None).ok();
        let again = checked_values(webhook, &map(json!({"secret": ""})), first.as_ref()).ok();
        assert_eq!(again.map(|v| v["secret"].clone()), Some(json!("s3")));
    }
}
