//! Typed parts of bodies the reply types do not cover:
//!
//! - [`Shaped`]: a part built at run time (a listing's summaries, a panel's form, batching
//!   links), documented by a [`Shape`] the way [`super::Dyn`] documents a whole body, so a
//!   derived `Object` can hold it without documenting "any";
//! - [`OrderedMap`]: an object whose keys are data (index names, facet names) and whose values
//!   are typed, in the order the keys were given;
//! - what batched listings share: their `batching` links and the `b_start`/`b_size` parameters.

use super::batching::{Batch, batching_links};
use super::schema::{map_of, object, string};
use super::shape::{Shape, register_shape};
use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;
use std::borrow::Cow;
use std::marker::PhantomData;

/// A JSON value of shape `S` inside a typed body; sent as it is.
pub struct Shaped<S: Shape>(Value, PhantomData<fn() -> S>);

impl<S: Shape> Shaped<S> {
    /// Wraps a value of shape `S`.
    pub fn new(value: impl Into<Value>) -> Self {
        Shaped(value.into(), PhantomData)
    }
}

impl<S: Shape> Type for Shaped<S> {
    const IS_REQUIRED: bool = true;
    type RawValueType = Value;
    type RawElementValueType = Value;

    fn name() -> Cow<'static, str> {
        S::NAME.into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Reference(S::NAME.to_owned())
    }

    fn register(registry: &mut Registry) {
        register_shape::<S>(registry);
    }

    fn as_raw_value(&self) -> Option<&Value> {
        Some(&self.0)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Value> + 'a> {
        Box::new(std::iter::once(&self.0))
    }
}

impl<S: Shape> ToJSON for Shaped<S> {
    fn to_json(&self) -> Option<Value> {
        Some(self.0.clone())
    }
}

impl<S: Shape> ParseFromJSON for Shaped<S> {
    /// Takes any value: the shape documents, it does not check.
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        Ok(Shaped::new(value.unwrap_or_default()))
    }
}

/// An object of `T`s whose keys are data, kept in the order given (a `HashMap` would shuffle
/// them, a `BTreeMap` sort them).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderedMap<T>(pub Vec<(String, T)>);

impl<T> Default for OrderedMap<T> {
    fn default() -> Self {
        OrderedMap(Vec::new())
    }
}

impl<T> FromIterator<(String, T)> for OrderedMap<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(entries: I) -> Self {
        OrderedMap(entries.into_iter().collect())
    }
}

impl<T: Type> Type for OrderedMap<T> {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = T::RawValueType;

    fn name() -> Cow<'static, str> {
        format!("map_{}", T::name()).into()
    }

    fn schema_ref() -> MetaSchemaRef {
        map_of(T::schema_ref())
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }

    fn as_raw_value(&self) -> Option<&Self> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a T::RawValueType> + 'a> {
        Box::new(self.0.iter().filter_map(|(_, value)| value.as_raw_value()))
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T: ToJSON> ToJSON for OrderedMap<T> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::Object(self.0.iter().filter_map(|(key, value)| Some((key.clone(), value.to_json()?))).collect()))
    }
}

impl<T: ParseFromJSON> ParseFromJSON for OrderedMap<T> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value.unwrap_or_default() {
            Value::Object(entries) => entries
                .into_iter()
                .map(|(key, value)| Ok((key, T::parse_from_json(Some(value)).map_err(ParseError::propagate)?)))
                .collect(),
            other => Err(ParseError::expected_type(other)),
        }
    }
}

/// The links of a batched listing, as [`batching_links`] builds them.
pub struct BatchLinksShape;

impl Shape for BatchLinksShape {
    const NAME: &'static str = "BatchLinks";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "Links to the pages of a batched listing (`b_start`, `b_size`); present only when there is more than \
             one page",
            vec![("@id", string()), ("first", string()), ("last", string()), ("prev", string()), ("next", string())],
            &["@id", "first", "last"],
        )
    }
}

/// [`batching_links`] for a typed body's optional `batching` key.
pub fn batch_links(url: &str, query: &[(String, String)], batch: Batch, total: i64) -> Option<Shaped<BatchLinksShape>> {
    batching_links(url, query, batch, total).map(Shaped::new)
}
