//! The documented shapes of serialized content and summaries. Their keys depend on each
//! type's fields and on the serializer layers plugins add, so the schema names what every
//! such body has and leaves the rest open.

use crate::api::Shape;
use crate::api::schema::{any_object, array_of, boolean, integer, nullable_string, object, string};
use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};

/// A content object as `GET <object>` answers it.
pub struct ContentShape;

impl Shape for ContentShape {
    const NAME: &'static str = "Content";

    fn schema(registry: &mut Registry) -> MetaSchema {
        object(
            "A content object: the standard keys below, then its type's fields and what plugins add",
            vec![
                ("@id", string()),
                ("@type", string()),
                ("id", string()),
                ("UID", string()),
                ("title", string()),
                ("description", nullable_string()),
                ("review_state", nullable_string()),
                ("is_folderish", boolean()),
                ("parent", any_object()),
                ("@components", any_object()),
                ("items", array_of(summary(registry))),
            ],
            &["@id", "@type"],
        )
    }
}

/// An entry of a listing: `@id`, `@type`, `title`, `description`, `review_state` and the
/// metadata columns asked for.
pub struct SummaryShape;

impl Shape for SummaryShape {
    const NAME: &'static str = "Summary";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "A listing entry: the keys below and the metadata columns asked for",
            vec![
                ("@id", string()),
                ("@type", string()),
                ("title", string()),
                ("description", nullable_string()),
                ("review_state", nullable_string()),
            ],
            &["@id"],
        )
    }
}

/// A page of search results: `@id`, `items` (summaries, or full objects with `fullobjects`),
/// `items_total` and `batching` links when there are more pages.
pub struct SearchResultsShape;

impl Shape for SearchResultsShape {
    const NAME: &'static str = "SearchResults";

    fn schema(registry: &mut Registry) -> MetaSchema {
        object(
            "A page of results",
            vec![
                ("@id", string()),
                ("items", array_of(summary(registry))),
                ("items_total", integer()),
                ("batching", crate::api::shape_schema::<crate::api::BatchLinksShape>(registry)),
            ],
            &["@id", "items", "items_total"],
        )
    }
}

/// A reference to the summary schema, registering it.
pub fn summary(registry: &mut Registry) -> MetaSchemaRef {
    crate::api::shape_schema::<SummaryShape>(registry)
}
