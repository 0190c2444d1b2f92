//! The bodies of `@types`' writes and of their answers, for the OpenAPI document.

use crate::http::Shape;
use crate::http::schema::{any, any_object, array_of, boolean, integer, map_of, object, string};
use poem_openapi::registry::{MetaSchema, Registry};

/// A new field or fieldset, or a field's or fieldset's new settings.
pub struct FieldInputShape;

impl Shape for FieldInputShape {
    const NAME: &'static str = "ContentTypeFieldInput";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema {
            additional_properties: Some(Box::new(any())),
            ..object(
                "A field's settings: `factory` (its kind, one of @vocabularies/Fields, or `fieldset`), `id` (else made \
                 from `title`), `title`, `description`, `required`, `default`, `minLength`, `maxLength`, `values` (the \
                 choices); for a fieldset `title`, `description` and `fields` (moved onto it, in order)",
                vec![
                    ("factory", string()),
                    ("id", string()),
                    ("title", string()),
                    ("description", string()),
                    ("required", boolean()),
                    ("default", any()),
                    ("minLength", integer()),
                    ("maxLength", integer()),
                    ("values", array_of(string())),
                    ("fields", array_of(string())),
                ],
                &[],
            )
        }
    }
}

/// A schema change (PATCH) or a whole schema (PUT).
pub struct SchemaInputShape;

impl Shape for SchemaInputShape {
    const NAME: &'static str = "ContentTypeSchemaInput";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema {
            additional_properties: Some(Box::new(any())),
            ..object(
                "A type's schema as @types/<type> gives it: `properties` (field → settings as for one field; with PUT, \
                 fields added through the web that are left out are removed), `fieldsets` (the type's own tabs with \
                 their fields, in order) and `required`",
                vec![
                    ("properties", map_of(any_object())),
                    ("fieldsets", array_of(any_object())),
                    ("required", array_of(string())),
                ],
                &[],
            )
        }
    }
}

/// A field's or fieldset's schema, as added.
pub struct FieldSchemaShape;

impl Shape for FieldSchemaShape {
    const NAME: &'static str = "ContentTypeField";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema {
            additional_properties: Some(Box::new(any())),
            ..object(
                "A field's JSON Schema (`type`, `title`, `description`, `factory`, `behavior`, `widget`…), or a \
                 fieldset (`id`, `title`, `description`, `fields`)",
                vec![("title", string()), ("description", string()), ("behavior", string())],
                &["title", "description", "behavior"],
            )
        }
    }
}
