//! Registry records: typed settings that plugins declare and Managers change through
//! `@registry`. Only declared records are listed or writable, so server secrets kept in the
//! same table never leave it.

use serde_json::{Value, json};

/// The value type of a record, which `PATCH @registry` enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// true / false.
    Bool,
    /// A whole number.
    Int,
    /// A string.
    Text,
    /// A list of strings.
    TextList,
    /// Any JSON value (structured settings such as search aggregations).
    Json,
    /// A string that is written but never read back over HTTP (a password): reads show it
    /// empty, and writing it empty keeps it.
    Secret,
}

impl RecordKind {
    /// Checks a value a client sent.
    pub fn validate(self, value: &Value) -> Result<(), &'static str> {
        let ok = match self {
            RecordKind::Bool => value.is_boolean(),
            RecordKind::Int => value.is_i64(),
            RecordKind::Text | RecordKind::Secret => value.is_string(),
            RecordKind::TextList => value.as_array().is_some_and(|items| items.iter().all(Value::is_string)),
            RecordKind::Json => true,
        };
        if ok { Ok(()) } else { Err(self.expected()) }
    }

    fn expected(self) -> &'static str {
        match self {
            RecordKind::Bool => "Expected true or false.",
            RecordKind::Int => "Expected a whole number.",
            RecordKind::Text | RecordKind::Secret => "Expected a string.",
            RecordKind::TextList => "Expected a list of strings.",
            RecordKind::Json => "Expected JSON.",
        }
    }

    /// The `schema.properties` upstream gives each record.
    pub fn schema_type(self) -> (&'static str, &'static str) {
        match self {
            RecordKind::Bool => ("boolean", "Yes/No"),
            RecordKind::Int => ("integer", "Integer"),
            RecordKind::Text => ("string", "Text line (String)"),
            RecordKind::TextList => ("array", "List"),
            RecordKind::Json => ("object", "JSON"),
            RecordKind::Secret => ("string", "Password"),
        }
    }
}

/// A check of a record's value beyond its kind: the reason it is refused, if it is.
pub type RecordCheck = fn(&Value) -> Result<(), String>;

/// A record a plugin declares, with the value it has until a Manager changes it.
pub struct RecordDef {
    /// The dotted name, e.g. `wcs.backend.api.directdownload`.
    pub name: &'static str,
    /// A label for control panels.
    pub title: &'static str,
    /// What the setting changes.
    pub description: &'static str,
    /// The value type.
    pub kind: RecordKind,
    /// The value before any change.
    pub default: fn() -> Value,
    /// What a value must be beyond its kind (a known time zone, a port, an e-mail address, a
    /// query the search engine runs), with the reason when it is not; checked whenever the
    /// record is written, so a value that would break what reads it is a 400 then, never an
    /// error later. `None` when the kind says it all.
    pub check: Option<RecordCheck>,
}

impl RecordDef {
    /// Checks a value a client sent: its kind, then [`RecordDef::check`].
    pub fn validate(&self, value: &Value) -> Result<(), String> {
        self.kind.validate(value).map_err(str::to_owned)?;
        self.check.map_or(Ok(()), |check| check(value))
    }

    /// The value as reads over HTTP show it: a secret's is always empty.
    pub fn shown(&self, value: Value) -> Value {
        if self.kind == RecordKind::Secret { json!("") } else { value }
    }

    /// Whether writing `value` leaves the stored value as it is: an empty secret, which is what
    /// a form that showed it sends back unchanged.
    pub fn keeps_stored(&self, value: &Value) -> bool {
        self.kind == RecordKind::Secret && value.as_str() == Some("")
    }

    /// The `schema` of the `@registry` listing.
    pub fn schema(&self) -> Value {
        let (kind, factory) = self.kind.schema_type();
        json!({"properties": {"type": kind, "title": self.title, "description": self.description, "factory": factory}})
    }
}

/// A record's value from its stored text: the default when none is stored or it no longer
/// fits the declared kind.
pub fn current_value(record: &RecordDef, stored: Option<String>) -> Value {
    stored
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .filter(|value| record.kind.validate(value).is_ok())
        .unwrap_or_else(record.default)
}
