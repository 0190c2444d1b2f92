//! Which fields a raw query may sort on, and by which column: the site index's dates and
//! always-present keywords, the custom fields of kinds other than text, and a declared
//! mapping's fields of kinds other than text. Full-text fields and unknown names are refused
//! with Elasticsearch's words.

use crate::declared::DeclaredType;
use crate::dsl::{CustomKind, Mapping, QueryError};
use crate::engine::SortSpec;
use crate::sort_collector::{ColumnKind, SortBy};
use serde_json::Value;

/// Elasticsearch's refusal to sort on a full-text field.
pub fn text_field(name: &str) -> QueryError {
    QueryError::illegal(format!(
        "Text fields are not optimised for operations that require per-document field data like aggregations \
         and sorting, so these operations are disabled by default. Please use a keyword field instead. \
         Alternatively, set fielddata=true on [{name}] in order to load field data by uninverting the inverted \
         index. Note that this can use significant memory."
    ))
    .on_shard()
}

/// The keys of `specs`, resolved against the index's fields.
pub fn resolve(mapping: &Mapping<'_>, specs: &[SortSpec]) -> Result<Vec<SortBy>, QueryError> {
    specs.iter().map(|spec| key(mapping, spec)).collect()
}

fn key(mapping: &Mapping<'_>, spec: &SortSpec) -> Result<SortBy, QueryError> {
    let name = spec.field.as_str();
    match name {
        "_score" => return Ok(SortBy::Score { descending: spec.descending.unwrap_or(true) }),
        "_doc" => return Ok(SortBy::Doc { descending: spec.descending.unwrap_or(false) }),
        _ => {}
    }
    let column = |column: String, kind: ColumnKind| SortBy::Column {
        column,
        kind,
        descending: spec.descending.unwrap_or(false),
        missing_first: spec.missing_first,
        seconds: false,
        stand_in: None,
    };
    // The site index's dates, in seconds, with the values it holds for "no date".
    let date = |stand_in: Option<i64>| SortBy::Column {
        column: name.to_owned(),
        kind: ColumnKind::Integer,
        descending: spec.descending.unwrap_or(false),
        missing_first: spec.missing_first,
        seconds: true,
        stand_in,
    };
    if let Some((declared, _)) = mapping.declared {
        let Some(field) = declared.get(name) else { return Err(unmapped(name)) };
        let kind = match field.kind {
            DeclaredType::Text(_) | DeclaredType::Completion => return Err(text_field(name)),
            DeclaredType::Keyword => ColumnKind::Keyword,
            DeclaredType::Integer => ColumnKind::Integer,
            DeclaredType::Float => ColumnKind::Float,
            DeclaredType::Boolean => ColumnKind::Boolean,
            DeclaredType::Date => ColumnKind::Date,
        };
        return Ok(column(field.column.clone(), kind));
    }
    if let Some(kind) = mapping.custom.get(name) {
        let kind = match kind {
            CustomKind::Text => return Err(text_field(name)),
            CustomKind::Keyword => ColumnKind::Keyword,
            CustomKind::Integer => ColumnKind::Integer,
            CustomKind::Float => ColumnKind::Float,
            CustomKind::Boolean => ColumnKind::Boolean,
            CustomKind::Date => ColumnKind::Date,
        };
        return Ok(column(format!("custom_keyword.{name}"), kind));
    }
    match name {
        "created" | "modified" => Ok(date(None)),
        "effective" => Ok(date(Some(i64::MIN))),
        "expires" => Ok(date(Some(i64::MAX))),
        "portal_type" | "review_state" | "UID" => Ok(column(name.to_owned(), ColumnKind::Keyword)),
        "Title" | "title" | "Description" | "description" | "SearchableText" => Err(text_field(name)),
        "Subject" => Ok(column(name.to_owned(), ColumnKind::Keyword)),
        _ => Err(unmapped(name)),
    }
}

fn unmapped(name: &str) -> QueryError {
    QueryError::shard(format!("No mapping found for [{name}] in order to sort on"))
}

/// A hit's sort value as Elasticsearch reports it: dates in milliseconds, booleans as 0/1, and
/// for a document without a value the stand-in it sorted by (the extreme `long`, or `null`).
pub fn reported(key: &SortBy, value: &crate::sort_collector::SortValue, score: f32, doc: u32) -> Value {
    use crate::sort_collector::SortValue;
    match (key, value) {
        (SortBy::Score { .. }, _) => crate::tantivy_raw::es_score(score),
        (SortBy::Doc { .. }, _) => Value::from(doc),
        (_, SortValue::Integer(n)) => Value::from(*n),
        (_, SortValue::Float(x)) => serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number),
        (_, SortValue::Text(text)) => Value::from(text.as_str()),
        (SortBy::Column { kind: ColumnKind::Keyword | ColumnKind::Float, .. }, SortValue::Missing) => Value::Null,
        (SortBy::Column { descending, missing_first, .. }, SortValue::Missing) => {
            // Missing sorts as the largest value when last in ascending order, and so on.
            let largest = *descending == *missing_first;
            Value::from(if largest { i64::MAX } else { i64::MIN })
        }
    }
}
