//! `form_action` and `form_fields` in every `EasyForm`'s JSON.

use crate::model::{DEFAULT_MODEL, FormField};
use crate::model_xml::parse_xml;
use serde_json::{Value, json};
use wcs_core::content::ContentObject;
use wcs_core::serialize::ContentSerializer;
use wcs_core::service::ContentKind;

/// Adds the submit URL and the field definitions.
pub static EASYFORM_SERIALIZER: ContentSerializer = ContentSerializer {
    kind: ContentKind::Type("EasyForm"),
    read_only: &["form_action", "form_fields"],
    serialize: |sctx, subject, out| {
        Box::pin(async move {
            let url = subject.object.url(sctx.base_url);
            out.insert("form_action".into(), json!(format!("{url}/@submit")));
            let fields: Vec<Value> = form_fields(subject.object).iter().map(FormField::to_json).collect();
            out.insert("form_fields".into(), Value::Array(fields));
            Ok(())
        })
    },
};

/// The form's fields: its stored model, or easyform's default form without one. A stored
/// model was checked when written; one that no longer reads (a newer rule) yields no fields
/// rather than a failing page.
pub fn form_fields(form: &ContentObject) -> Vec<FormField> {
    let model = form.fields.get("fields_model").and_then(Value::as_str).unwrap_or(DEFAULT_MODEL);
    parse_xml(model).unwrap_or_else(|problem| {
        tracing::warn!(form = form.path, %problem, "stored form model does not read");
        Vec::new()
    })
}
