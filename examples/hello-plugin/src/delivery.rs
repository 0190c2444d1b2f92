//! A field serializer for one content type: a card is delivered on a day, so its `Datetime`
//! fields go out as the date alone (`2026-12-24`), while every other type keeps core's
//! full timestamp. Core picks the most specific serializer (type, then behaviour, then
//! any content), so this needs no change anywhere else. A date sent back is stored as midnight
//! UTC, which is what a delivery day means.

use serde_json::{Value, json};
use wcs_core::content::FieldKind;
use wcs_core::serialize::FieldSerializer;
use wcs_core::service::ContentKind;

/// `Datetime` fields of `Greeting` as `YYYY-MM-DD`.
pub static DELIVERY_DATE: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::Datetime,
    kind: ContentKind::Type("Greeting"),
    widget: None,
    serialize: |_, _, _, stored| {
        Box::pin(async move {
            // Stored as ISO 8601 (`2026-12-24T09:00:00+00:00`); the date is its first ten characters.
            Ok(stored.as_str().and_then(|text| text.get(..10)).map_or(Value::Null, |date| json!(date)))
        })
    },
};
