//! Building blocks for the schemas of bodies whose keys are only known at run time
//! ([`super::reply::Shape`]), and [`Nullable`] for fields sent as `null`.

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;
use std::borrow::Cow;

/// An object schema: `properties` with `required` among them, open to further keys.
pub fn object(
    description: &'static str,
    properties: Vec<(&'static str, MetaSchemaRef)>,
    required: &[&'static str],
) -> MetaSchema {
    MetaSchema { description: Some(description), properties, required: required.to_vec(), ..MetaSchema::new("object") }
}

/// An object whose every value has the schema `values`.
pub fn map_of(values: MetaSchemaRef) -> MetaSchemaRef {
    inline(MetaSchema { additional_properties: Some(Box::new(values)), ..MetaSchema::new("object") })
}

/// An array of `items`.
pub fn array_of(items: MetaSchemaRef) -> MetaSchemaRef {
    inline(MetaSchema { items: Some(Box::new(items)), ..MetaSchema::new("array") })
}

/// The schema of `T`, registering what it refers to.
pub fn of<T: Type>(registry: &mut Registry) -> MetaSchemaRef {
    T::register(registry);
    T::schema_ref()
}

/// A string.
pub fn string() -> MetaSchemaRef {
    inline(MetaSchema::new("string"))
}

/// A string or `null`.
pub fn nullable_string() -> MetaSchemaRef {
    inline(MetaSchema { nullable: true, ..MetaSchema::new("string") })
}

/// An integer.
pub fn integer() -> MetaSchemaRef {
    inline(MetaSchema::new("integer"))
}

/// A boolean.
pub fn boolean() -> MetaSchemaRef {
    inline(MetaSchema::new("boolean"))
}

/// `schema`, or `null`.
pub fn nullable(schema: MetaSchemaRef) -> MetaSchemaRef {
    match schema {
        MetaSchemaRef::Inline(mut inline_schema) => {
            inline_schema.nullable = true;
            MetaSchemaRef::Inline(inline_schema)
        }
        reference @ MetaSchemaRef::Reference(_) => {
            inline(MetaSchema { nullable: true, all_of: vec![reference], ..MetaSchema::ANY })
        }
    }
}

/// Any JSON value, `null` included.
pub fn any() -> MetaSchemaRef {
    inline(MetaSchema { nullable: true, ..MetaSchema::ANY })
}

/// Any JSON object.
pub fn any_object() -> MetaSchemaRef {
    inline(MetaSchema::new("object"))
}

fn inline(schema: MetaSchema) -> MetaSchemaRef {
    MetaSchemaRef::Inline(Box::new(schema))
}

/// A value that is always sent, as `null` when absent (plone.restapi sends `"description":
/// null` rather than leaving the key out); its schema says `nullable`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Nullable<T>(pub Option<T>);

impl<T> From<Option<T>> for Nullable<T> {
    fn from(value: Option<T>) -> Self {
        Nullable(value)
    }
}

impl<T: Type> Type for Nullable<T> {
    const IS_REQUIRED: bool = true;
    type RawValueType = T::RawValueType;
    type RawElementValueType = T::RawElementValueType;

    fn name() -> Cow<'static, str> {
        format!("nullable_{}", T::name()).into()
    }

    fn schema_ref() -> MetaSchemaRef {
        nullable(T::schema_ref())
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        self.0.as_ref().and_then(Type::as_raw_value)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        match &self.0 {
            Some(value) => value.raw_element_iter(),
            None => Box::new(std::iter::empty()),
        }
    }
}

impl<T: ToJSON> ToJSON for Nullable<T> {
    fn to_json(&self) -> Option<Value> {
        Some(self.0.as_ref().and_then(ToJSON::to_json).unwrap_or(Value::Null))
    }
}

impl<T: ParseFromJSON> ParseFromJSON for Nullable<T> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        Option::<T>::parse_from_json(value).map(Nullable).map_err(poem_openapi::types::ParseError::propagate)
    }
}
