//! An indexed object as the tantivy document the embedded engine stores: fixed fields, its
//! text in the fields of its language, custom fields as JSON objects.

use crate::engine::{IndexDoc, TypedValue};
use crate::schema::Fields;
use crate::text_languages::TextLanguage;
use tantivy::schema::OwnedValue;
use tantivy::{TantivyDocument, doc};

/// The document of `d`, whose text is in `language`.
pub(crate) fn document(f: &Fields, d: &IndexDoc, language: TextLanguage) -> TantivyDocument {
    let [title, description, searchable_text] = f.text_fields(language);
    let mut document = doc!(
        f.uid => d.uid.as_str(),
        f.own_path => d.paths.first().map_or("", String::as_str),
        f.portal_type => d.portal_type.as_str(),
        f.review_state => d.review_state.as_str(),
        f.language => d.language.as_str(),
        title => d.title.as_str(),
        description => d.description.as_str(),
        searchable_text => d.searchable_text.as_str(),
        f.created => d.created,
        f.modified => d.modified,
        f.effective => d.effective,
        f.expires => d.expires,
    );
    for path in &d.paths {
        document.add_text(f.path, path);
    }
    for subject in &d.subjects {
        document.add_text(f.subject, subject);
    }
    for token in &d.allowed {
        document.add_text(f.allowed, token);
    }
    let text = |values: &[(String, String)]| -> Vec<(String, OwnedValue)> {
        values.iter().map(|(name, value)| (name.clone(), OwnedValue::Str(value.clone()))).collect()
    };
    let mut whole = text(&d.custom_keyword);
    whole.extend(d.custom_typed.iter().map(|(name, value)| (name.clone(), typed(*value))));
    for (field, values) in [(f.custom_text, text(&d.custom_text)), (f.custom_keyword, whole)] {
        if !values.is_empty() {
            document.add_object(field, custom_object(values));
        }
    }
    document
}

/// Custom field values as one JSON object (several values of a name become a list).
fn custom_object(values: Vec<(String, OwnedValue)>) -> std::collections::BTreeMap<String, OwnedValue> {
    let mut object: std::collections::BTreeMap<String, Vec<OwnedValue>> = std::collections::BTreeMap::new();
    for (name, value) in values {
        object.entry(name).or_default().push(value);
    }
    object
        .into_iter()
        .map(|(name, mut values)| {
            let value = if values.len() == 1 { values.remove(0) } else { OwnedValue::Array(values) };
            (name, value)
        })
        .collect()
}

/// A typed custom value as the JSON field indexes it (numbers and dates as fast values).
fn typed(value: TypedValue) -> OwnedValue {
    match value {
        TypedValue::Integer(n) => OwnedValue::I64(n),
        TypedValue::Float(x) => OwnedValue::F64(x),
        TypedValue::Boolean(b) => OwnedValue::Bool(b),
        TypedValue::Date(seconds) => OwnedValue::Date(crate::tantivy_dates::from_seconds(seconds)),
    }
}
