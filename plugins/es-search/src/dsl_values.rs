//! Queries on whole values and numbers, for the query DSL (`dsl`): `range` on dates, `ids`,
//! `exists`, and `bool`'s `minimum_should_match`.

use crate::dsl::{CustomKind, Kind, Mapping, QueryError, any_term, field, single};
use serde_json::Value;
use std::ops::Bound;
use tantivy::Term;
use tantivy::query::{AllQuery, BooleanQuery, ConstScoreQuery, EmptyQuery, ExistsQuery, Occur, Query, RangeQuery};

/// Makes a range bound's term from its JSON value.
type BoundTerm<'a> = dyn Fn(&Value) -> Result<Term, QueryError> + 'a;

pub fn range(fields: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let (field_name, options) = single(body)?;
    let make: Box<BoundTerm<'_>> = match field(fields, field_name)? {
        Kind::Date(f) => Box::new(move |v| Ok(Term::from_field_i64(f, seconds(v)?))),
        Kind::Unmapped => return Ok(Box::new(EmptyQuery)),
        Kind::Typed(mut declared) => {
            // A range may read its dates in a format of its own.
            if let Some(format) = options.get("format").and_then(Value::as_str) {
                declared.format = Some(format.to_owned());
            }
            Box::new(move |v| {
                crate::declared::term(&declared, v)
                    .ok_or_else(|| QueryError::parsing(format!("[range] value {v} does not fit [{field_name}]")))
            })
        }
        Kind::Keyword(f) => Box::new(move |v| {
            let text = v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string());
            Ok(Term::from_field_text(f, &text))
        }),
        Kind::CustomTyped(f, path, kind) if kind != CustomKind::Boolean => Box::new(move |v| {
            typed_term(f, &path, kind, v)
                .ok_or_else(|| QueryError::parsing(format!("[range] value {v} does not fit [{field_name}]")))
        }),
        _ => return Err(QueryError::parsing(format!("range works on dates and numbers, not '{field_name}'"))),
    };
    let bound = |key: &str| -> Result<Option<Term>, QueryError> { options.get(key).map(&make).transpose() };
    let lower = match (bound("gte")?, bound("gt")?) {
        (Some(v), _) => Bound::Included(v),
        (None, Some(v)) => Bound::Excluded(v),
        _ => Bound::Unbounded,
    };
    let upper = match (bound("lte")?, bound("lt")?) {
        (Some(v), _) => Bound::Included(v),
        (None, Some(v)) => Bound::Excluded(v),
        _ => Bound::Unbounded,
    };
    if matches!((&lower, &upper), (Bound::Unbounded, Bound::Unbounded)) {
        // tantivy's range query needs a bound to name its field (it panics when searched
        // without one); Elasticsearch rewrites a range open on both sides to `exists`.
        return exists(fields, &serde_json::json!({ "field": field_name }));
    }
    Ok(Box::new(RangeQuery::new(lower, upper)))
}

/// A date as seconds: a number, `now`, or ISO 8601.
pub fn seconds(value: &Value) -> Result<i64, QueryError> {
    match value {
        Value::Number(n) => n.as_i64().ok_or_else(|| QueryError::parsing("a date must be whole seconds")),
        Value::String(s) if s == "now" => Ok(chrono::Utc::now().timestamp()),
        Value::String(s) => {
            wcs_core::content::values::parse_datetime(s).map(|t| t.timestamp()).map_err(QueryError::parsing)
        }
        _ => Err(QueryError::parsing("a date must be seconds or ISO 8601")),
    }
}

/// The term of a typed custom field's value (numbers, booleans and dates given as JSON or as
/// text); `None` when the value is not of the field's type.
pub fn typed_term(field: tantivy::schema::Field, path: &str, kind: CustomKind, value: &Value) -> Option<Term> {
    let mut term = Term::from_field_json_path(field, path, false);
    let text = value.as_str().map(str::trim);
    match kind {
        CustomKind::Integer => term.append_type_and_fast_value(value.as_i64().or_else(|| text?.parse().ok())?),
        CustomKind::Float => term.append_type_and_fast_value(value.as_f64().or_else(|| text?.parse().ok())?),
        CustomKind::Boolean => term.append_type_and_fast_value(value.as_bool().or_else(|| text?.parse().ok())?),
        CustomKind::Date => {
            term.append_type_and_fast_value(crate::tantivy_dates::from_seconds(seconds(value).ok()?));
        }
        CustomKind::Text | CustomKind::Keyword => return None,
    }
    Some(term)
}

/// `{"ids": {"values": [uid, …]}}`: the objects of these uids, scored 1.
pub fn ids(mapping: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let values =
        body.get("values").and_then(Value::as_array).ok_or_else(|| QueryError::parsing("[ids] requires 'values'"))?;
    let uid = mapping.fields.uid;
    let terms = values
        .iter()
        .filter_map(|v| match v {
            Value::String(id) => Some(id.clone()),
            // Elasticsearch takes numbers as the ids they spell.
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .map(|v| Term::from_field_text(uid, &v))
        .collect();
    Ok(Box::new(ConstScoreQuery::new(any_term(terms), 1.0)))
}

/// `{"exists": {"field": name}}`, for the fields kept as columns (keywords and dates).
pub fn exists(mapping: &Mapping<'_>, body: &Value) -> Result<Box<dyn Query>, QueryError> {
    let name =
        body.get("field").and_then(Value::as_str).ok_or_else(|| QueryError::parsing("[exists] requires 'field'"))?;
    if let Some((declared, _)) = mapping.declared {
        let exists = |column: &str| -> Box<dyn Query> { Box::new(ExistsQuery::new(column.to_owned(), false)) };
        let found: Box<dyn Query> = match name {
            // Every document has an id and an index.
            "_id" | "_index" => Box::new(AllQuery),
            "_source" => {
                return Err(QueryError::shard("the _source field is not searchable, it has no exists query"));
            }
            _ => match declared.get(name) {
                Some(field) => exists(&field.column),
                // An object exists where any of its fields does.
                None => {
                    let inner = format!("{name}.");
                    let fields: Vec<(Occur, Box<dyn Query>)> = declared
                        .iter()
                        .filter(|(n, f)| n.starts_with(&inner) && f.source == **n)
                        .map(|(_, f)| (Occur::Should, exists(&f.column)))
                        .collect();
                    if fields.is_empty() { Box::new(EmptyQuery) } else { Box::new(BooleanQuery::new(fields)) }
                }
            },
        };
        return Ok(Box::new(ConstScoreQuery::new(found, 1.0)));
    }
    match field(mapping, name)? {
        Kind::Unmapped => Ok(Box::new(EmptyQuery)),
        Kind::Keyword(f) | Kind::Date(f) if f != mapping.fields.path && f != mapping.fields.allowed => {
            Ok(Box::new(ExistsQuery::new(name.to_owned(), false)))
        }
        _ => Err(QueryError::illegal(format!("[exists] is not supported on field [{name}]"))),
    }
}

/// `minimum_should_match` as Elasticsearch reads it: `2`, `"2"`, `"-1"`, `"75%"`, `"-25%"`.
pub fn minimum_should_match(value: &Value, should: usize) -> Result<usize, QueryError> {
    let bad = || QueryError::parsing(format!("cannot parse minimum_should_match [{value}]"));
    let text = match value {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_owned(),
        _ => return Err(bad()),
    };
    let should = i64::try_from(should).unwrap_or(i64::MAX);
    let wanted = match text.strip_suffix('%') {
        Some(percent) => {
            let percent: i64 = percent.parse().map_err(|_| bad())?;
            let of = should * percent.abs() / 100;
            if percent < 0 { should - of } else { of }
        }
        None => {
            let count: i64 = text.parse().map_err(|_| bad())?;
            if count < 0 { should + count } else { count }
        }
    };
    Ok(usize::try_from(wanted.clamp(0, should)).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::minimum_should_match;
    use serde_json::json;

    #[test]
    fn minimum_should_match_reads_like_elasticsearch() {
        let m = |v| minimum_should_match(&v, 4).ok();
        assert_eq!(m(json!(2)), Some(2));
        assert_eq!(m(json!("3")), Some(3));
        assert_eq!(m(json!("-1")), Some(3));
        assert_eq!(m(json!("75%")), Some(3));
        assert_eq!(m(json!("-25%")), Some(3));
        assert_eq!(m(json!(9)), Some(4));
        assert_eq!(m(json!("x")), None);
    }

    #[test]
    fn a_range_open_on_both_sides_finds_what_has_a_value() {
        use crate::engine::{IndexDoc, SearchEngine};
        let Ok(engine) = crate::tantivy_engine::TantivyEngine::open(None) else { panic!("an index in memory") };
        let dated = IndexDoc {
            uid: "a".into(),
            paths: vec!["/P/a".into()],
            created: 1_700_000_000,
            effective: i64::MIN,
            expires: i64::MAX,
            ..IndexDoc::default()
        };
        assert!(engine.index(&[dated]).and_then(|()| engine.commit(1)).is_ok());
        // Found by fuzzing: tantivy panicked searching a range without bounds.
        for query in [json!({"range": {"created": {}}}), json!({"range": {"created": {"format": "strict_date"}}})] {
            let body = json!({ "query": query }).to_string();
            let found = crate::raw_es_search::parse(body.as_bytes()).and_then(|(request, _)| engine.raw(&request));
            let total = found.as_ref().ok().and_then(|answer| answer.pointer("/hits/total/value").cloned());
            assert_eq!(total, Some(json!(1)), "{query}: {found:?}");
        }
    }
}
