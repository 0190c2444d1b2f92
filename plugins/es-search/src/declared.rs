//! An index mapping given by its caller (`wcs search eval`): every property of
//! `{"properties": {…}}` becomes a tantivy field of its own, so each has its own term statistics
//! and scores as in Elasticsearch, and the query DSL names them as the mapping does. Types:
//! `text` (`standard` analysis by default, or `german`), `keyword`, the integer and floating
//! types, `date` (milliseconds), `boolean` and `completion`; `object` properties are flattened to
//! dotted names, and a `text` field's `fields` become `name.sub` fields fed from the same value.

use crate::dsl::{Analyzer, QueryError};
use crate::tantivy_engine::TantivyEngine;
use serde_json::Value;
use std::collections::BTreeMap;
use tantivy::schema::{
    DateOptions, DateTimePrecision, FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, SchemaBuilder,
    TextFieldIndexing, TextOptions,
};
use tantivy::{TantivyDocument, Term};

/// The most properties a mapping may declare (each is a field of the schema).
const MAX_PROPERTIES: usize = 1_000;

/// What a declared field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclaredType {
    /// Words.
    Text(Analyzer),
    /// Whole values.
    Keyword,
    /// `integer`, `long`, `short`, `byte`.
    Integer,
    /// `float`, `double`, `half_float`, `scaled_float`.
    Float,
    /// `boolean`.
    Boolean,
    /// `date`, kept in milliseconds.
    Date,
    /// `completion`: inputs offered by the completion suggester.
    Completion,
}

/// One declared field.
#[derive(Clone, Debug)]
pub struct DeclaredField {
    /// Its tantivy field.
    pub field: Field,
    /// Its column's name in the index (aggregations and sorting address columns).
    pub column: String,
    /// Its type.
    pub kind: DeclaredType,
    /// Where a document holds its value: the property's dotted path (a sub-field reads its
    /// parent's).
    pub source: String,
    /// A date field's `format` (the default one when `None`).
    pub format: Option<String>,
    /// A completion field's weights, one stored beside each input in the same order: the
    /// completion suggester offers the heaviest first.
    pub weights: Option<Field>,
}

/// The declared fields by the names queries use.
pub type Declared = BTreeMap<String, DeclaredField>;

/// A property before it has a field.
struct Property {
    name: String,
    source: String,
    kind: DeclaredType,
    format: Option<String>,
}

/// A declared field before it has a field: its name, the path of its value, its type and its
/// date format.
pub type Planned = (String, String, DeclaredType, Option<String>);

/// Reads `{"properties": {…}}` (Elasticsearch's mapping errors for what it would refuse).
fn read(properties: &Value, prefix: &str, out: &mut Vec<Property>) -> Result<(), QueryError> {
    let properties = properties
        .as_object()
        .ok_or_else(|| QueryError::mapper("Expected map for property [properties] on field [_doc]"))?;
    for (name, spec) in properties {
        let name = format!("{prefix}{name}");
        if let Some(inner) = spec.get("properties") {
            read(inner, &format!("{name}."), out)?;
            continue;
        }
        if spec.get("type").and_then(Value::as_str) == Some("object") {
            continue;
        }
        out.push(Property {
            name: name.clone(),
            source: name.clone(),
            kind: kind_of(&name, spec)?,
            format: format(spec)?,
        });
        for (sub, sub_spec) in spec.get("fields").and_then(Value::as_object).into_iter().flatten() {
            let sub_name = format!("{name}.{sub}");
            let (kind, format) = (kind_of(&sub_name, sub_spec)?, format(sub_spec)?);
            out.push(Property { kind, name: sub_name, source: name.clone(), format });
        }
        if out.len() > MAX_PROPERTIES {
            return Err(QueryError::illegal(format!("Limit of total fields [{MAX_PROPERTIES}] has been exceeded")));
        }
    }
    Ok(())
}

/// A date field's `format`, refused as Elasticsearch refuses a pattern it cannot read.
fn format(spec: &Value) -> Result<Option<String>, QueryError> {
    match spec.get("format").and_then(Value::as_str) {
        Some(format) if !crate::date_formats::known(format) => Err(QueryError::mapper(format!(
            "Failed to parse mapping: Invalid format: [{format}]: Unknown pattern letter"
        ))),
        other => Ok(other.map(str::to_owned)),
    }
}

fn kind_of(name: &str, spec: &Value) -> Result<DeclaredType, QueryError> {
    let type_name = spec.get("type").and_then(Value::as_str).unwrap_or("object");
    Ok(match type_name {
        "text" | "match_only_text" => match spec.get("analyzer").and_then(Value::as_str) {
            None => DeclaredType::Text(Analyzer::Standard),
            Some(name) if let Some(analyzer) = Analyzer::named(name) => DeclaredType::Text(analyzer),
            Some(other) => {
                return Err(QueryError::mapper(format!(
                    "Failed to parse mapping: analyzer [{other}] has not been configured in mappings"
                )));
            }
        },
        "keyword" | "constant_keyword" | "wildcard" => DeclaredType::Keyword,
        "integer" | "long" | "short" | "byte" | "unsigned_long" => DeclaredType::Integer,
        "float" | "double" | "half_float" | "scaled_float" => DeclaredType::Float,
        "boolean" => DeclaredType::Boolean,
        "date" | "date_nanos" => DeclaredType::Date,
        "completion" => DeclaredType::Completion,
        other => {
            return Err(QueryError::mapper(format!(
                "Failed to parse mapping: No handler for type [{other}] declared on field [{name}]"
            )));
        }
    })
}

/// Checks a mapping's `properties` and lists the fields it declares, in a form
/// [`add_fields`] takes.
pub fn plan(mappings: &Value) -> Result<Vec<Planned>, QueryError> {
    let mut properties = Vec::new();
    if let Some(declared) = mappings.get("properties") {
        read(declared, "", &mut properties)?;
    }
    Ok(properties.into_iter().map(|p| (p.name, p.source, p.kind, p.format)).collect())
}

/// Adds the planned fields to a schema under their own names (which `query_string` texts
/// use), or as `_m0`, `_m1`, … where a name is one of the index's own fields or not a field
/// name tantivy takes.
pub fn add_fields(builder: &mut SchemaBuilder, planned: Vec<Planned>) -> Declared {
    let text = |analyzer: Analyzer| {
        let indexing = TextFieldIndexing::default()
            .set_tokenizer(analyzer.name())
            .set_index_option(IndexRecordOption::WithFreqsAndPositions);
        // A raw column besides the words lets `exists` find the documents with a value.
        TextOptions::default().set_indexing_options(indexing).set_stored().set_fast("raw")
    };
    planned
        .into_iter()
        .enumerate()
        .map(|(index, (name, source, kind, format))| {
            let clashes = crate::schema::FIXED_NAMES.contains(&name.as_str()) || name.starts_with(['-', '_']);
            let column = if clashes || name.contains('.') { format!("_m{index}") } else { name.clone() };
            let weights = (kind == DeclaredType::Completion)
                .then(|| builder.add_i64_field(&format!("_w{index}"), tantivy::schema::STORED));
            let field = match kind {
                DeclaredType::Text(analyzer) => builder.add_text_field(&column, text(analyzer)),
                DeclaredType::Completion => builder.add_text_field(&column, text(Analyzer::Standard)),
                DeclaredType::Keyword => builder.add_text_field(&column, STRING | FAST | STORED),
                DeclaredType::Integer => builder.add_i64_field(&column, INDEXED | FAST | STORED),
                DeclaredType::Float => builder.add_f64_field(&column, INDEXED | FAST | STORED),
                DeclaredType::Boolean => builder.add_bool_field(&column, INDEXED | FAST | STORED),
                DeclaredType::Date => builder.add_date_field(
                    &column,
                    DateOptions::from(INDEXED | FAST | STORED).set_precision(DateTimePrecision::Milliseconds),
                ),
            };
            (name, DeclaredField { field, column, kind, source, format, weights })
        })
        .collect()
}

/// The values a document holds at a dotted path (`a.b` as a key of its own, or `b` inside `a`);
/// arrays give each of their values.
pub fn values_at<'a>(document: &'a Value, path: &str) -> Vec<&'a Value> {
    fn flatten<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
        match value {
            Value::Array(items) => items.iter().for_each(|item| flatten(item, out)),
            Value::Null => {}
            other => out.push(other),
        }
    }
    let mut out = Vec::new();
    if let Some(value) = document.get(path) {
        flatten(value, &mut out);
        return out;
    }
    if let Some((head, rest)) = path.split_once('.') {
        let mut parents = Vec::new();
        if let Some(parent) = document.get(head) {
            flatten(parent, &mut parents);
        }
        for parent in parents {
            out.extend(values_at(parent, rest));
        }
    }
    out
}

/// The term of a declared field's value, when the value fits the field.
pub fn term(field: &DeclaredField, value: &Value) -> Option<Term> {
    let text = match value {
        Value::String(s) => Some(s.trim().to_owned()),
        Value::Number(_) | Value::Bool(_) => Some(value.to_string()),
        _ => None,
    };
    Some(match field.kind {
        DeclaredType::Integer => Term::from_field_i64(field.field, integer(value)?),
        DeclaredType::Float => Term::from_field_f64(field.field, float(value)?),
        DeclaredType::Boolean => Term::from_field_bool(field.field, boolean(value)?),
        DeclaredType::Date => {
            Term::from_field_date(field.field, crate::tantivy_dates::from_millis(date(field, value)?))
        }
        DeclaredType::Text(_) | DeclaredType::Keyword | DeclaredType::Completion => {
            Term::from_field_text(field.field, &text?)
        }
    })
}

/// A date value in milliseconds, read with the field's format.
pub fn date(field: &DeclaredField, value: &Value) -> Option<i64> {
    crate::date_formats::millis(value, field.format.as_deref())
}

/// A whole number as Elasticsearch coerces one (`"5"` and `5.0` are 5).
fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.is_finite()).map(|f| f.trunc() as i64)),
        Value::String(s) => {
            s.trim().parse::<i64>().ok().or_else(|| s.trim().parse::<f64>().ok().map(|f| f.trunc() as i64))
        }
        _ => None,
    }
}

/// A number as Elasticsearch coerces one (`"1.5"` is 1.5).
fn float(value: &Value) -> Option<f64> {
    value.as_f64().or_else(|| value.as_str()?.trim().parse().ok())
}

fn boolean(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "true" => Some(true),
        Value::String(s) if s == "false" || s.is_empty() => Some(false),
        _ => None,
    }
}

impl TantivyEngine {
    /// Adds documents of a declared mapping (`_id` plus the properties' values); a value that
    /// does not fit its field refuses the document, as Elasticsearch does.
    pub fn index_sources(&self, documents: &[Value]) -> Result<(), QueryError> {
        let declared = self.declared.as_ref().ok_or_else(|| QueryError::illegal("the index has no mapping"))?;
        let writer = self.writer();
        for (position, document) in documents.iter().enumerate() {
            let id = document_id(document, position);
            let mut doc = TantivyDocument::default();
            doc.add_text(self.fields.uid, &id);
            for (name, field) in declared {
                for value in values_at(document, &field.source) {
                    add_value(&mut doc, name, field, value)?;
                }
            }
            writer.delete_term(Term::from_field_text(self.fields.uid, &id));
            writer.add_document(doc).map_err(|e| QueryError::execution(e.to_string()))?;
        }
        Ok(())
    }
}

/// A document's `_id` as given, or its position counted from 1 without one.
pub fn document_id(document: &Value, position: usize) -> String {
    match document.get("_id") {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => (position + 1).to_string(),
    }
}

fn add_value(doc: &mut TantivyDocument, name: &str, field: &DeclaredField, value: &Value) -> Result<(), QueryError> {
    let refused = || {
        QueryError::mapper(format!("failed to parse field [{name}] of type [{}] in document", type_name(field.kind)))
    };
    let f = field.field;
    match field.kind {
        DeclaredType::Text(_) | DeclaredType::Keyword => match value {
            Value::String(s) => doc.add_text(f, s),
            Value::Number(_) | Value::Bool(_) => doc.add_text(f, value.to_string()),
            _ => return Err(refused()),
        },
        DeclaredType::Completion => {
            let inputs = value.get("input").unwrap_or(value);
            // Elasticsearch's default weight.
            let weight = match value.get("weight") {
                None => 1,
                Some(weight) => integer(weight).filter(|w| *w >= 0).ok_or_else(refused)?,
            };
            for input in values_at(&serde_json::json!({"i": inputs}), "i") {
                doc.add_text(f, input.as_str().ok_or_else(refused)?);
                if let Some(weights) = field.weights {
                    doc.add_i64(weights, weight);
                }
            }
        }
        DeclaredType::Integer => doc.add_i64(f, integer(value).ok_or_else(refused)?),
        DeclaredType::Float => doc.add_f64(f, float(value).ok_or_else(refused)?),
        DeclaredType::Boolean => doc.add_bool(f, boolean(value).ok_or_else(refused)?),
        DeclaredType::Date => {
            doc.add_date(f, crate::tantivy_dates::from_millis(date(field, value).ok_or_else(refused)?))
        }
    }
    Ok(())
}

/// The type's name in Elasticsearch's messages.
pub fn type_name(kind: DeclaredType) -> &'static str {
    match kind {
        DeclaredType::Text(_) => "text",
        DeclaredType::Keyword => "keyword",
        DeclaredType::Integer => "long",
        DeclaredType::Float => "float",
        DeclaredType::Boolean => "boolean",
        DeclaredType::Date => "date",
        DeclaredType::Completion => "completion",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_come_from_dotted_keys_and_objects() {
        let document = json!({"a": {"b": [1, 2]}, "c.d": "x", "e": null});
        assert_eq!(values_at(&document, "a.b"), [&json!(1), &json!(2)]);
        assert_eq!(values_at(&document, "c.d"), [&json!("x")]);
        assert!(values_at(&document, "e").is_empty());
    }

    #[test]
    fn mappings_are_checked() {
        let planned = plan(&json!({"properties": {"t": {"type": "text", "fields": {"raw": {"type": "keyword"}}}}}));
        let names: Vec<String> = planned.unwrap_or_default().into_iter().map(|p| p.0).collect();
        assert_eq!(names, ["t", "t.raw"]);
        let refused = plan(&json!({"properties": {"g": {"type": "geo_point"}}})).err().map(|e| e.reason);
        assert_eq!(
            refused.as_deref(),
            Some("Failed to parse mapping: No handler for type [geo_point] declared on field [g]")
        );
    }
}
