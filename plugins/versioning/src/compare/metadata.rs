//! Changed plain values of a page or block (not text, media, layout or block configuration,
//! which the markup shows or which are not compared), formatted for people.

use super::MetadataChange;
use crate::render::shows_title;
use crate::snapshot::FrozenObject;
use serde_json::{Value, json};
use wcs_core::content::layout::LAYOUT_FIELD;
use wcs_core::content::{FieldKind, TypeProfile};
use wcs_core::i18n::Translator;

/// Changed plain values (not text, media, layout or block configuration, which the markup
/// shows or which are not compared).
pub(super) fn metadata_changes(
    profile: &TypeProfile,
    old: &FrozenObject,
    new: &FrozenObject,
    translator: &Translator<'_>,
    with_title: bool,
) -> Vec<MetadataChange> {
    let mut changes = Vec::new();
    for field in &profile.fields {
        let compared = matches!(
            field.kind,
            FieldKind::TextLine
                | FieldKind::Text
                | FieldKind::Bool
                | FieldKind::Int
                | FieldKind::Float
                | FieldKind::Datetime
                | FieldKind::Date
                | FieldKind::List
                | FieldKind::Choice
                | FieldKind::URI
        );
        if !compared || field.name == LAYOUT_FIELD || field.name == "show_title" && !with_title {
            continue;
        }
        let (old_value, new_value) = match field.name.as_str() {
            "title" => (json!(old.title), json!(new.title)),
            "description" => (json!(old.description), json!(new.description)),
            "effective" => (json!(old.effective), json!(new.effective)),
            "expires" => (json!(old.expires), json!(new.expires)),
            name => {
                let default = field.default_json();
                (
                    old.fields.get(name).cloned().unwrap_or_else(|| default.clone()),
                    new.fields.get(name).cloned().unwrap_or(default),
                )
            }
        };
        if field.name == "title" && !with_title {
            // A block's title is part of its markup when shown, else its hidden_title.
            if old_value == new_value || shows_title(new) {
                continue;
            }
        }
        if old_value != new_value {
            changes.push(MetadataChange {
                label: translator.field_label(field),
                old: display(&old_value, translator),
                new: display(&new_value, translator),
            });
        }
    }
    changes
}

/// A value as people read it; empty is an em dash.
fn display(value: &Value, translator: &Translator<'_>) -> String {
    let text = match value {
        Value::Null => String::new(),
        Value::Bool(true) => translator.text("yes"),
        Value::Bool(false) => translator.text("no"),
        Value::String(s) => match chrono::DateTime::parse_from_rfc3339(s) {
            Ok(time) => translator.datetime(time.with_timezone(&chrono::Utc)),
            Err(_) => s.clone(),
        },
        Value::Array(items) => items.iter().map(|i| display(i, translator)).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    };
    if text.trim().is_empty() { "\u{2014}".to_owned() } else { text }
}
