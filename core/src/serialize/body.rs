//! What serializing a content object gives: its keys in order, with `@components` held apart
//! so that an expanded component kept as JSON text between requests (a navigation tree) is
//! written out as it is instead of being rebuilt as a `Value` tree for every answer.

use crate::error::{ApiError, ApiResult};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The key the base layer reserves, in its place among the others, for the components.
pub(super) const COMPONENTS: &str = "@components";

/// A component's body in `@components`: built for this answer, or JSON text.
pub enum Expanded {
    /// A value built for this answer.
    Built(Value),
    /// Text serialized once (from kept parts) and written out verbatim.
    Text(Box<RawValue>),
}

impl From<Value> for Expanded {
    fn from(value: Value) -> Self {
        Expanded::Built(value)
    }
}

impl Expanded {
    /// Serializes `body` to text now; worth it when `body` holds [`JsonText`] parts.
    ///
    /// [`JsonText`]: crate::api::JsonText
    pub fn text(body: &impl Serialize) -> ApiResult<Self> {
        serde_json::value::to_raw_value(body)
            .map(Expanded::Text)
            .map_err(|e| ApiError::internal(format!("a component did not serialize: {e}")))
    }

    /// The body as a value, for callers that go on to change it.
    pub fn into_value(self) -> Value {
        match self {
            Expanded::Built(value) => value,
            Expanded::Text(text) => serde_json::from_str(text.get()).unwrap_or(Value::Null),
        }
    }
}

impl Serialize for Expanded {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Expanded::Built(value) => value.serialize(serializer),
            Expanded::Text(text) => text.serialize(serializer),
        }
    }
}

/// A content object's serialization: the keys the layers wrote and its components.
pub struct ContentBody {
    fields: Map<String, Value>,
    components: Vec<(&'static str, Expanded)>,
}

impl ContentBody {
    pub(super) fn new(fields: Map<String, Value>, components: Vec<(&'static str, Expanded)>) -> Self {
        ContentBody { fields, components }
    }

    /// The serialization as one JSON object, components in place, for callers that nest it
    /// in another answer or change it.
    pub fn into_map(self) -> Map<String, Value> {
        let ContentBody { mut fields, components } = self;
        if let Some(slot) = fields.get_mut(COMPONENTS) {
            *slot = Value::Object(
                components.into_iter().map(|(name, body)| (name.to_owned(), body.into_value())).collect(),
            );
        }
        fields
    }
}

impl Serialize for ContentBody {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.fields.len()))?;
        for (key, value) in &self.fields {
            if key == COMPONENTS {
                map.serialize_entry(key, &Components(&self.components))?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

struct Components<'a>(&'a [(&'static str, Expanded)]);

impl Serialize for Components<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, body) in self.0 {
            map.serialize_entry(name, body)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn body() -> ContentBody {
        let Value::Object(fields) = json!({"@id": "x", COMPONENTS: {}, "title": "T"}) else { unreachable!() };
        let kept = Expanded::text(&json!({"items": [1, 2]})).ok();
        let components = vec![("actions", Expanded::from(json!({"@id": "x/@actions"})))]
            .into_iter()
            .chain(kept.map(|k| ("navigation", k)))
            .collect();
        ContentBody::new(fields, components)
    }

    #[test]
    fn written_and_nested_forms_agree_and_keep_the_key_order() {
        let written = serde_json::to_string(&body()).unwrap_or_default();
        assert_eq!(
            written,
            r#"{"@id":"x","@components":{"actions":{"@id":"x/@actions"},"navigation":{"items":[1,2]}},"title":"T"}"#
        );
        assert_eq!(Value::Object(body().into_map()).to_string(), written);
    }
}
