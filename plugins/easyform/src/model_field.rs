//! The `FormModel` field kind: a form schema sent as `fields_model` XML or as a JSON list,
//! checked, and stored as XML (imported XML exactly as sent).

use crate::model::parse_json;
use crate::model_xml::{parse_xml, to_xml};
use serde_json::{Value, json};
use wcs_core::content::{FieldDef, FieldKind, FieldKindDef};
use wcs_core::serialize::FieldSerializer;
use wcs_core::service::ContentKind;

/// The field kind.
pub static FORM_MODEL: FieldKindDef = FieldKindDef {
    name: "FormModel",
    parse: parse_model,
    json_schema: |_| {
        json!({"type": ["string", "array"], "widget": "textarea",
               "description": "collective.easyform fields_model XML, or a list of {name, type, title, description, required, items}"})
    },
};

fn parse_model(_: &FieldDef, value: &Value) -> Result<Value, String> {
    match value {
        Value::String(xml) => parse_xml(xml).map(|_| value.clone()),
        Value::Array(fields) => parse_json(fields).map(|fields| json!(to_xml(&fields))),
        _ => Err("Expected fields_model XML or a list of fields.".into()),
    }
}

/// Sends the model as stored: the XML, which a PUT takes back unchanged.
pub static FORM_MODEL_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::Plugin(&FORM_MODEL),
    kind: ContentKind::Any,
    widget: None,
    serialize: |_, _, _, value| Box::pin(async move { Ok(value.clone()) }),
};
