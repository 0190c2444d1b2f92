//! `fields_model`: collective.easyform's zope.schema model XML (`plone.supermodel`), so forms
//! exported from Plone import unchanged. Imported XML is kept as sent (exporting gives back
//! exactly what was imported); a schema sent as JSON is written out as such XML.

use crate::model::{FieldType, FormField, MAX_MODEL_BYTES, check};
use crate::xml_tree::{Node, parse_tree};

/// The supermodel namespace of the XML written for JSON schemas.
const SCHEMA_NS: &str = "http://namespaces.plone.org/supermodel/schema";
const EASYFORM_NS: &str = "http://namespaces.plone.org/supermodel/easyform";

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
