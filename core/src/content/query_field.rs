//! The `Query` field kind: a querystring query as plone.app.querystring stores it (a
//! Collection's `query`), checked and bounded when written. Core registers it with the other
//! kinds a plugin could add, so a type profile names it as `kind = "Query"`.

use super::{FieldDef, FieldKindDef};
use serde_json::{Value, json};

/// The most criteria one query may hold, as `@querystring-search` takes them.
const MAX_CRITERIA: usize = 50;
/// The longest index or operation name.
const MAX_NAME: usize = 200;
/// The most values one criterion may list.
const MAX_VALUES: usize = 100;

/// A querystring query: `[{i, o, v}]`.
pub static QUERY: FieldKindDef = FieldKindDef {
    name: "Query",
    parse: parse_query,
    json_schema: |_| {
        json!({"type": "array", "widget": "querystring",
               "items": {"type": "object", "properties": {"i": {"type": "string"}, "o": {"type": "string"}, "v": {}}}})
    },
};

fn parse_query(_: &FieldDef, value: &Value) -> Result<Value, String> {
    let criteria = value.as_array().ok_or("Expected a list of criteria {i, o, v}.")?;
    if criteria.len() > MAX_CRITERIA {
        return Err(format!("At most {MAX_CRITERIA} criteria."));
    }
    for criterion in criteria {
        let name =
            |key: &str| criterion.get(key).and_then(Value::as_str).filter(|s| !s.is_empty() && s.len() <= MAX_NAME);
        if name("i").is_none() || name("o").is_none() {
            return Err("Each criterion needs an index 'i' and an operation 'o'.".into());
        }
        let plain = |v: &Value| matches!(v, Value::String(s) if s.len() <= 1000) || v.is_number() || v.is_boolean();
        let fine = match criterion.get("v") {
            None | Some(Value::Null) => true,
            Some(Value::Array(values)) => values.len() <= MAX_VALUES && values.iter().all(plain),
            Some(other) => plain(other),
        };
        if !fine {
            return Err("A criterion's value 'v' is text, a number, a truth value or a short list of them.".into());
        }
    }
    Ok(value.clone())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::content::TypeRegistry;

    /// What the fuzz harness does: core's profiles load with core's own kinds, and need them.
    fn core_types() -> TypeRegistry {
        let mut types = TypeRegistry::with_field_kinds(vec![&QUERY]);
        types.add_dir(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("types")).unwrap();
        types
    }

    #[test]
    fn core_types_load_with_the_query_kind() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("types");
        assert!(TypeRegistry::default().add_dir(&dir).is_err(), "a Collection names the Query kind");
        assert!(core_types().get("Collection").is_some());
    }

    #[test]
    fn queries_are_lists_of_bounded_criteria() {
        let types = core_types();
        let field = types.get("Collection").and_then(|c| c.field("query")).unwrap();
        let one =
            json!([{"i": "portal_type", "o": "plone.app.querystring.operation.selection.any", "v": ["Document"]}]);
        assert_eq!(parse_query(field, &one).unwrap(), one);
        assert!(parse_query(field, &json!({"i": "x"})).is_err());
        assert!(parse_query(field, &json!([{"i": "x", "o": ""}])).is_err());
        assert!(parse_query(field, &json!([{"i": "x", "o": "y", "v": [[1]]}])).is_err());
        let many: Vec<Value> = (0..51).map(|_| json!({"i": "x", "o": "y"})).collect();
        assert!(parse_query(field, &Value::Array(many)).is_err());
    }
}
