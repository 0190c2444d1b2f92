//! What the Content Types panel answers and takes, for the OpenAPI document.

use crate::http::Shape;
use crate::http::schema::{any, any_object, array_of, boolean, object, string};
use poem_openapi::registry::{MetaSchema, Registry};

/// The panel: the types.
pub struct TypesPanelShape;

impl Shape for TypesPanelShape {
    const NAME: &'static str = "ContentTypesPanel";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "The Content Types panel: every type with @id, @type, id, title, description, meta_type and count (its \
             objects)",
            vec![("@id", string()), ("title", string()), ("group", string()), ("items", array_of(any_object()))],
            &["@id", "title", "group", "items"],
        )
    }
}

/// One type's settings.
pub struct TypeSettingsShape;

impl Shape for TypeSettingsShape {
    const NAME: &'static str = "ContentTypeSettings";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "A content type's settings: `data` (title, description, allowed_content_types, filter_content_types, \
             and one true/false per behaviour by Plone's name) and the `schema` of that form",
            vec![
                ("@id", string()),
                ("title", string()),
                ("description", string()),
                ("group", string()),
                ("items", array_of(any_object())),
                ("data", any_object()),
                ("schema", any_object()),
            ],
            &["@id", "title", "group", "data", "schema"],
        )
    }
}

/// The settings a POST or PATCH sends.
pub struct TypeSettingsInputShape;

impl Shape for TypeSettingsInputShape {
    const NAME: &'static str = "ContentTypeSettingsInput";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema {
            additional_properties: Some(Box::new(boolean())),
            ..object(
                "A type's settings, the keys given: `title` (required to create one; the id is made from it unless \
                 `id` is sent), `description`, `allowed_content_types`, `filter_content_types`, and true/false per \
                 behaviour (`plone.richtext`, `volto.blocks`, `plone.versioning`…)",
                vec![
                    ("id", string()),
                    ("title", string()),
                    ("description", string()),
                    ("allowed_content_types", array_of(string())),
                    ("filter_content_types", boolean()),
                    ("plone.richtext", any()),
                ],
                &[],
            )
        }
    }
}
