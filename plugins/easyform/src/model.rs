//! A form's fields, read from and written as collective.easyform's `fields_model`: the
//! zope.schema model XML (`plone.supermodel`), so forms exported from Plone import unchanged.
//! Imported XML is kept as sent, so exporting gives back exactly what was imported; a schema
//! sent as JSON is written out as such XML.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use serde_json::{Value, json};

/// The largest model accepted, in bytes.
pub const MAX_MODEL_BYTES: usize = 256 * 1024;
/// The most fields a form may have.
pub const MAX_FIELDS: usize = 200;
/// The most choices a field may offer.
pub const MAX_ITEMS: usize = 500;
/// How deep the XML may nest.
const MAX_DEPTH: usize = 16;

/// The supermodel namespace of the XML written for JSON schemas.
const SCHEMA_NS: &str = "http://namespaces.plone.org/supermodel/schema";
const EASYFORM_NS: &str = "http://namespaces.plone.org/supermodel/easyform";

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

/// A parsed XML element: local name, attributes by local name, text and children.
#[derive(Default)]
struct Node {
    name: String,
    attributes: Vec<(String, String)>,
    text: String,
    children: Vec<Node>,
}

impl Node {
    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    fn child_text(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.text.trim())
    }
}

/// The fields of a `fields_model` document.
pub fn parse_xml(xml: &str) -> Result<Vec<FormField>, String> {
    if xml.len() > MAX_MODEL_BYTES {
        return Err(format!("The model is larger than {MAX_MODEL_BYTES} bytes."));
    }
    let root = parse_tree(xml)?;
    if root.name != "model" {
        return Err("The model must be a <model> document.".into());
    }
    let schema = root.child("schema").ok_or("The model has no <schema>.")?;
    let mut fields = Vec::new();
    collect_fields(schema, &mut fields)?;
    check(&fields)?;
    Ok(fields)
}

/// Fields of the schema and of its fieldsets, in document order.
fn collect_fields(parent: &Node, fields: &mut Vec<FormField>) -> Result<(), String> {
    for node in &parent.children {
        match node.name.as_str() {
            "field" => fields.push(field_from_xml(node)?),
            "fieldset" => collect_fields(node, fields)?,
            _ => {}
        }
    }
    Ok(())
}

fn field_from_xml(node: &Node) -> Result<FormField, String> {
    let name = node.attribute("name").ok_or("A <field> has no name.")?.to_owned();
    let zope_type = node.attribute("type").unwrap_or_default();
    let validators = node.attribute("validators").unwrap_or_default();
    let items_of = |node: &Node| -> Vec<(String, String)> {
        node.child("values")
            .map(|values| {
                values
                    .children
                    .iter()
                    .filter(|e| e.name == "element")
                    .map(|e| {
                        let title = e.text.trim().to_owned();
                        (e.attribute("key").map_or_else(|| title.clone(), str::to_owned), title)
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let short = zope_type.rsplit('.').next().unwrap_or_default();
    let (kind, items) = match short {
        "TextLine" if validators.contains("isValidEmail") => (FieldType::Email, Vec::new()),
        "TextLine" | "ASCIILine" => (FieldType::TextLine, Vec::new()),
        "Email" => (FieldType::Email, Vec::new()),
        "Text" => (FieldType::Text, Vec::new()),
        "Choice" => (FieldType::Choice, items_of(node)),
        "Set" | "List" | "Tuple" | "FrozenSet" => {
            let value_type =
                node.child("value_type").filter(|v| v.attribute("type").is_some_and(|t| t.ends_with("Choice")));
            let value_type =
                value_type.ok_or_else(|| format!("Field '{name}': only lists of choices are supported."))?;
            (FieldType::MultiChoice, items_of(value_type))
        }
        "Bool" => (FieldType::Bool, Vec::new()),
        "Int" => (FieldType::Int, Vec::new()),
        "Date" => (FieldType::Date, Vec::new()),
        _ => return Err(format!("Field '{name}': the type '{zope_type}' is not supported.")),
    };
    let number = |tag: &str| node.child_text(tag).and_then(|t| t.parse::<i64>().ok());
    Ok(FormField {
        title: node.child_text("title").unwrap_or(&name).to_owned(),
        description: node.child_text("description").unwrap_or_default().to_owned(),
        // zope.schema fields are required unless they say otherwise.
        required: node.child_text("required").is_none_or(|r| r != "False"),
        max_length: node.child_text("max_length").and_then(|t| t.parse().ok()),
        min: number("min"),
        max: number("max"),
        name,
        kind,
        items,
    })
}

/// Reads the document into a tree, bounded in depth.
fn parse_tree(xml: &str) -> Result<Node, String> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<Node> = vec![Node::default()];
    loop {
        match reader.read_event().map_err(|e| format!("The model is not well-formed XML: {e}"))? {
            Event::Start(start) => {
                if stack.len() > MAX_DEPTH {
                    return Err("The model nests too deeply.".into());
                }
                stack.push(element(&start)?);
            }
            Event::Empty(start) => {
                let node = element(&start)?;
                stack.last_mut().ok_or("unbalanced XML")?.children.push(node);
            }
            Event::End(_) => {
                let node = stack.pop().ok_or("unbalanced XML")?;
                stack.last_mut().ok_or("The model is not well-formed XML.")?.children.push(node);
            }
            Event::Text(text) => {
                let text = text.decode().map_err(|e| format!("The model is not well-formed XML: {e}"))?;
                let text =
                    quick_xml::escape::unescape(&text).map_err(|e| format!("The model is not well-formed XML: {e}"))?;
                stack.last_mut().ok_or("unbalanced XML")?.text.push_str(&text);
            }
            Event::CData(data) => {
                let text = String::from_utf8_lossy(&data).into_owned();
                stack.last_mut().ok_or("unbalanced XML")?.text.push_str(&text);
            }
            Event::GeneralRef(reference) => {
                let name = reference.decode().map_err(|e| format!("The model is not well-formed XML: {e}"))?;
                let resolved = quick_xml::escape::resolve_predefined_entity(&name)
                    .map(str::to_owned)
                    .or_else(|| reference.resolve_char_ref().ok().flatten().map(String::from))
                    .ok_or_else(|| format!("The model uses an unknown entity '&{name};'."))?;
                stack.last_mut().ok_or("unbalanced XML")?.text.push_str(&resolved);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut document = stack.pop().filter(|_| stack.is_empty()).ok_or("The model is not well-formed XML.")?;
    document
        .children
        .pop()
        .filter(|_| document.children.is_empty())
        .ok_or_else(|| "The model must have one root element.".into())
}

fn element(start: &BytesStart<'_>) -> Result<Node, String> {
    let local = |name: &[u8]| String::from_utf8_lossy(name.rsplit(|b| *b == b':').next().unwrap_or(name)).into_owned();
    let mut node = Node { name: local(start.name().as_ref()), ..Node::default() };
    for attribute in start.attributes() {
        let attribute = attribute.map_err(|e| format!("The model is not well-formed XML: {e}"))?;
        let value =
            attribute.unescape_value().map_err(|e| format!("The model is not well-formed XML: {e}"))?.into_owned();
        node.attributes.push((local(attribute.key.as_ref()), value));
    }
    Ok(node)
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
fn check(fields: &[FormField]) -> Result<(), String> {
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

/// The `fields_model` XML of a schema.
pub fn to_xml(fields: &[FormField]) -> String {
    let escape = |text: &str| quick_xml::escape::escape(text).into_owned();
    let mut xml = format!("<model xmlns=\"{SCHEMA_NS}\" xmlns:easyform=\"{EASYFORM_NS}\">\n  <schema>\n");
    for field in fields {
        let (zope_type, validators) = match field.kind {
            FieldType::TextLine => ("zope.schema.TextLine", ""),
            FieldType::Email => ("zope.schema.TextLine", " easyform:validators=\"isValidEmail\""),
            FieldType::Text => ("zope.schema.Text", ""),
            FieldType::Choice => ("zope.schema.Choice", ""),
            FieldType::MultiChoice => ("zope.schema.Set", ""),
            FieldType::Bool => ("zope.schema.Bool", ""),
            FieldType::Int => ("zope.schema.Int", ""),
            FieldType::Date => ("zope.schema.Date", ""),
        };
        xml.push_str(&format!("    <field name=\"{}\" type=\"{zope_type}\"{validators}>\n", escape(&field.name)));
        xml.push_str(&format!("      <title>{}</title>\n", escape(&field.title)));
        if !field.description.is_empty() {
            xml.push_str(&format!("      <description>{}</description>\n", escape(&field.description)));
        }
        if !field.required {
            xml.push_str("      <required>False</required>\n");
        }
        if let Some(max) = field.max_length {
            xml.push_str(&format!("      <max_length>{max}</max_length>\n"));
        }
        for (tag, bound) in [("min", field.min), ("max", field.max)] {
            if let Some(bound) = bound {
                xml.push_str(&format!("      <{tag}>{bound}</{tag}>\n"));
            }
        }
        let values = |indent: &str| {
            let mut out = format!("{indent}<values>\n");
            for (token, title) in &field.items {
                out.push_str(&format!("{indent}  <element key=\"{}\">{}</element>\n", escape(token), escape(title)));
            }
            out.push_str(&format!("{indent}</values>\n"));
            out
        };
        match field.kind {
            FieldType::Choice => xml.push_str(&values("      ")),
            FieldType::MultiChoice => {
                xml.push_str("      <value_type type=\"zope.schema.Choice\">\n");
                xml.push_str(&values("        "));
                xml.push_str("      </value_type>\n");
            }
            _ => {}
        }
        xml.push_str("    </field>\n");
    }
    xml.push_str("  </schema>\n</model>\n");
    xml
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

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
