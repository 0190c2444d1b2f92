//! Shapes: JSON bodies built at run time that the OpenAPI document still describes, by a
//! named schema; and the schemas of request bodies.

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::Type;

/// What a body built at run time (`http::Dyn`) always has: a named schema in `components/schemas`.
pub trait Shape: Send + 'static {
    /// The schema's name, unique in the document.
    const NAME: &'static str;
    /// The schema; `additionalProperties` stays open unless the shape closes it.
    fn schema(registry: &mut Registry) -> MetaSchema;
}

/// Puts `S` into `components/schemas`.
pub fn register_shape<S: Shape>(registry: &mut Registry) {
    registry.create_schema::<S, _>(S::NAME.to_owned(), S::schema);
}

/// The schema of `T` for a request body, registering what it refers to.
pub fn body_schema<T: Type>(registry: &mut Registry) -> MetaSchemaRef {
    T::register(registry);
    T::schema_ref()
}

/// The schema of shape `S` for a request body.
pub fn shape_schema<S: Shape>(registry: &mut Registry) -> MetaSchemaRef {
    register_shape::<S>(registry);
    MetaSchemaRef::Reference(S::NAME.to_owned())
}
