//! [`JsonText`]: a value serialized once and kept as JSON text, so requests that send it again
//! (a navigation tree shared by every editor who sees the same objects) copy bytes instead of
//! building and serializing a `serde_json::Value` tree each time.

use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::types::{ParseFromJSON, ParseResult, ToJSON, Type};
use serde::{Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

/// The JSON text of a `T`, cheap to clone and written out verbatim; documented as `T`.
pub struct JsonText<T> {
    text: Arc<RawValue>,
    of: PhantomData<fn() -> T>,
}

impl<T> Clone for JsonText<T> {
    fn clone(&self) -> Self {
        JsonText { text: self.text.clone(), of: PhantomData }
    }
}

impl<T: ToJSON> JsonText<T> {
    /// Serializes `value` once, through the same `ToJSON` the document describes.
    pub fn new(value: &T) -> Self {
        let json = value.to_json().unwrap_or(Value::Null);
        // A `Value` always serializes (its keys are strings); `null` stands in if it ever did not.
        let text = serde_json::value::to_raw_value(&json).unwrap_or_else(|_| RawValue::NULL.to_owned());
        JsonText { text: Arc::from(text), of: PhantomData }
    }
}

impl<T> JsonText<T> {
    /// The text.
    pub fn get(&self) -> &str {
        self.text.get()
    }
}

impl<T> Serialize for JsonText<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.text.serialize(serializer)
    }
}

impl<T: Type> Type for JsonText<T> {
    const IS_REQUIRED: bool = T::IS_REQUIRED;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        Box::new(std::iter::once(self))
    }
}

impl<T: Type> ToJSON for JsonText<T> {
    fn to_json(&self) -> Option<Value> {
        serde_json::from_str(self.text.get()).ok()
    }
}

impl<T: ParseFromJSON + ToJSON> ParseFromJSON for JsonText<T> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        T::parse_from_json(value)
            .map(|parsed| JsonText::new(&parsed))
            .map_err(poem_openapi::types::ParseError::propagate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_what_to_json_gives_and_is_written_verbatim() {
        let value = vec!["a\"b".to_owned(), "ü".to_owned()];
        let text = JsonText::new(&value);
        assert_eq!(text.get(), r#"["a\"b","ü"]"#);
        assert_eq!(serde_json::to_string(&text).ok().as_deref(), Some(r#"["a\"b","ü"]"#));
        assert_eq!(text.to_json(), value.to_json());
    }
}
