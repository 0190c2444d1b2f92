//! A form's fields: their types, the JSON shape clients see and send, and the rules every schema
//! meets. The XML form (`fields_model`) is read and written in `model_xml`.

use serde_json::{Value, json};

/// The largest model accepted, in bytes.
pub const MAX_MODEL_BYTES: usize = 256 * 1024;
/// The most fields a form may have.
pub const MAX_FIELDS: usize = 200;
/// The most choices a field may offer.
pub const MAX_ITEMS: usize = 500;

/// Collective.easyform's default form: reply-to address, topic and comments.
pub const DEFAULT_MODEL: &str = r#"<model xmlns="http://namespaces.plone.org/supermodel/schema" xmlns:easyform="http://namespaces.plone.org/supermodel/easyform">
  <schema>
    <field name="replyto" type="zope.schema.TextLine" easyform:validators="isValidEmail">
      <title>Your E-Mail Address</title>
    </field>
    <field name="topic" type="zope.schema.TextLine">
      <title>Subject</title>
    </field>
    <field name="comments" type="zope.schema.Text">
      <title>Comments</title>
      <description>Please enter your comments.</description>
    </field>
  </schema>
</model>
"#;

/// What a field accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// One line of text.
    TextLine,
    /// An e-mail address.
    Email,
    /// Several lines of text.
    Text,
    /// One of the field's items.
    Choice,
    /// Any of the field's items.
    MultiChoice,
    /// Yes or no.
    Bool,
    /// A whole number.
    Int,
    /// A calendar date (`YYYY-MM-DD`).
    Date,
}

impl FieldType {
    /// The name clients see (`type` in `form_fields`).
    pub fn name(self) -> &'static str {
        match self {
            FieldType::TextLine => "TextLine",
            FieldType::Email => "Email",
            FieldType::Text => "Text",
            FieldType::Choice => "Choice",
            FieldType::MultiChoice => "MultiChoice",
            FieldType::Bool => "Bool",
            FieldType::Int => "Int",
            FieldType::Date => "Date",
        }
    }

    fn from_name(name: &str) -> Option<FieldType> {
        [
            FieldType::TextLine,
            FieldType::Email,
            FieldType::Text,
            FieldType::Choice,
            FieldType::MultiChoice,
            FieldType::Bool,
            FieldType::Int,
            FieldType::Date,
        ]
        .into_iter()
        .find(|t| t.name() == name)
    }

    /// Whether values come from the field's items.
    pub fn has_items(self) -> bool {
        matches!(self, FieldType::Choice | FieldType::MultiChoice)
    }
}

/// One field of a form.
#[derive(Clone, Debug, PartialEq)]
pub struct FormField {
    /// The field's name (without `form.widgets.`).
    pub name: String,
    /// What it accepts.
    pub kind: FieldType,
    /// Its label.
    pub title: String,
    /// Its help text.
    pub description: String,
    /// Whether a value must be given.
    pub required: bool,
    /// The choices of a vocabulary field: (token, title).
    pub items: Vec<(String, String)>,
    /// The longest text accepted, in characters, when the model says.
    pub max_length: Option<usize>,
    /// Bounds of an `Int`.
    pub min: Option<i64>,
    /// Bounds of an `Int`.
    pub max: Option<i64>,
}

impl FormField {
    /// The key of the field in a submission.
    pub fn widget_name(&self) -> String {
        format!("form.widgets.{}", self.name)
    }

    /// The field as `form_fields` lists it.
    pub fn to_json(&self) -> Value {
        let mut field = json!({
            "name": self.widget_name(),
            "type": self.kind.name(),
            "title": self.title,
            "description": self.description,
            "required": self.required,
        });
        if self.kind.has_items() {
            field["items"] = self.items.iter().map(|(token, title)| json!({"token": token, "title": title})).collect();
        }
        if let Some(max) = self.max_length {
            field["max_length"] = json!(max);
        }
        field
    }
}

/// The fields of a schema sent as JSON: a list in the `form_fields` shape (`name` with or
/// without `form.widgets.`, `type`, `title`, `description`, `required`, `items`, `max_length`).
pub fn parse_json(fields: &[Value]) -> Result<Vec<FormField>, String> {
    let fields = fields
        .iter()
        .map(|field| {
            let text = |key: &str| field.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
            let name = text("name");
            let name = name.strip_prefix("form.widgets.").unwrap_or(&name).to_owned();
            let kind = FieldType::from_name(&text("type"))
                .ok_or_else(|| format!("Field '{name}': unknown type '{}'.", text("type")))?;
            let items = field
                .get("items")
                .and_then(Value::as_array)
                .map(|items| {
                    items
                        .iter()
                        .map(|item| {
                            let token = item.get("token").and_then(Value::as_str).unwrap_or_default().to_owned();
                            let title =
                                item.get("title").and_then(Value::as_str).map_or_else(|| token.clone(), str::to_owned);
                            (token, title)
                        })
                        .collect()
                })
                .unwrap_or_default();
            let title = text("title");
            Ok(FormField {
                title: if title.is_empty() { name.clone() } else { title },
                description: text("description"),
                required: field.get("required").and_then(Value::as_bool).unwrap_or(false),
                max_length: field.get("max_length").and_then(Value::as_u64).and_then(|m| usize::try_from(m).ok()),
                min: field.get("min").and_then(Value::as_i64),
                max: field.get("max").and_then(Value::as_i64),
                name,
                kind,
                items,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    check(&fields)?;
    Ok(fields)
}

/// Rules every schema meets, however it came.
pub(crate) fn check(fields: &[FormField]) -> Result<(), String> {
    if fields.len() > MAX_FIELDS {
        return Err(format!("A form has at most {MAX_FIELDS} fields."));
    }
    let mut seen = std::collections::HashSet::new();
    for field in fields {
        let valid_name = !field.name.is_empty()
            && field.name.len() <= 100
            && field.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !field.name.starts_with(|c: char| c.is_ascii_digit());
        if !valid_name {
            return Err(format!("'{}' is not a field name (letters, digits and _).", field.name));
        }
        if !seen.insert(field.name.as_str()) {
            return Err(format!("The field '{}' is defined twice.", field.name));
        }
        if field.kind.has_items() && (field.items.is_empty() || field.items.len() > MAX_ITEMS) {
            return Err(format!("Field '{}' needs between 1 and {MAX_ITEMS} items.", field.name));
        }
        if field.items.iter().any(|(token, _)| token.is_empty()) {
            return Err(format!("Field '{}' has an item without a token.", field.name));
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model_xml::{parse_xml, to_xml};

    #[test]
    fn plones_default_model_reads() {
        let fields = parse_xml(DEFAULT_MODEL).unwrap();
        let summary: Vec<(&str, FieldType, bool)> =
            fields.iter().map(|f| (f.name.as_str(), f.kind, f.required)).collect();
        assert_eq!(
            summary,
            [
                ("replyto", FieldType::Email, true),
                ("topic", FieldType::TextLine, true),
                ("comments", FieldType::Text, true)
            ]
        );
        assert_eq!(fields[2].description, "Please enter your comments.");
    }

    #[test]
    fn json_schemas_survive_the_xml() {
        let json = json!([
            {"name": "form.widgets.name", "type": "TextLine", "title": "Name & Vorname", "required": true, "max_length": 80},
            {"name": "thema", "type": "Choice", "title": "Thema", "items": [{"token": "a", "title": "Ärger"}, {"token": "b", "title": "Lob"}]},
            {"name": "tage", "type": "MultiChoice", "title": "Tage", "items": [{"token": "mo", "title": "Montag"}]},
            {"name": "alter", "type": "Int", "title": "Alter", "min": 0, "max": 130},
            {"name": "ok", "type": "Bool", "title": "Einverstanden"},
            {"name": "am", "type": "Date", "title": "Termin"},
            {"name": "mail", "type": "Email", "title": "E-Mail", "required": true}
        ]);
        let fields = parse_json(json.as_array().unwrap()).unwrap();
        assert_eq!(parse_xml(&to_xml(&fields)).unwrap(), fields);
    }

    #[test]
    fn bad_models_are_refused_with_reasons() {
        assert!(parse_xml("<model><schema><field name=\"x\"").unwrap_err().contains("well-formed"));
        assert!(parse_xml("<form/>").unwrap_err().contains("<model>"));
        let unknown = "<model><schema><field name=\"f\" type=\"zope.schema.Password\"/></schema></model>";
        assert!(parse_xml(unknown).unwrap_err().contains("not supported"));
        let twice = "<model><schema><field name=\"f\" type=\"zope.schema.Int\"/><field name=\"f\" type=\"zope.schema.Int\"/></schema></model>";
        assert!(parse_xml(twice).unwrap_err().contains("twice"));
        let deep = format!("<model>{}</model>", "<a>".repeat(40));
        assert!(parse_xml(&deep).is_err());
        assert!(parse_json(&[json!({"name": "x y", "type": "TextLine"})]).is_err());
        assert!(parse_json(&[json!({"name": "c", "type": "Choice"})]).unwrap_err().contains("items"));
    }
}
