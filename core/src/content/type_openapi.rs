//! Content types in the OpenAPI document: a schema per type as served now (profiles' and
//! those made or edited through the web), which the services' own schemas cannot know.

use super::{FieldKind, TypeProfile, Types};
use serde_json::{Map, Value, json};

/// The document with a schema per content type.
pub fn with_type_schemas(mut document: Value, types: &Types) -> Value {
    if let Some(schemas) = document.pointer_mut("/components/schemas").and_then(Value::as_object_mut) {
        for profile in types.all() {
            schemas.insert(openapi_schema_name(&profile), openapi_schema(&profile));
        }
    }
    document
}

/// The type's fields as an OpenAPI 3.0 schema of what a content GET of it holds (beyond the
/// keys every object has): the document names it `ContentType_<id>`, so front-end developers
/// see a type added through the web as they see the profiles' types.
fn openapi_schema(profile: &TypeProfile) -> Value {
    let properties: Map<String, Value> = profile
        .fields
        .iter()
        .map(|field| {
            let mut schema = match field.kind {
                FieldKind::TextLine | FieldKind::Text | FieldKind::URI => json!({"type": "string"}),
                FieldKind::RichText => {
                    json!({"type": "object", "description": "`data` (HTML), `content-type`, `encoding`"})
                }
                FieldKind::Bool => json!({"type": "boolean"}),
                FieldKind::Int => json!({"type": "integer"}),
                FieldKind::Float => json!({"type": "number"}),
                FieldKind::Datetime => json!({"type": "string", "format": "date-time"}),
                FieldKind::Date => json!({"type": "string", "format": "date"}),
                FieldKind::Choice if !field.vocabulary.is_empty() => {
                    json!({"type": "string", "enum": field.vocabulary})
                }
                FieldKind::Choice => json!({"type": "string"}),
                // Answered as terms; a write may send their tokens too.
                FieldKind::List if field.vocabulary_name.is_some() => json!({
                    "type": "array",
                    "items": {"type": "object", "properties": {"title": {"type": "string"}, "token": {"type": "string"}}},
                }),
                FieldKind::List if !field.vocabulary.is_empty() => {
                    json!({"type": "array", "items": {"type": "string", "enum": field.vocabulary}})
                }
                FieldKind::List => json!({"type": "array", "items": {"type": "string"}}),
                FieldKind::RelationList => json!({"type": "array", "items": {"type": "object"}}),
                FieldKind::File
                | FieldKind::Image
                | FieldKind::RelationChoice
                | FieldKind::Mapping
                | FieldKind::Blocks
                | FieldKind::BlocksLayout
                | FieldKind::PageLayout
                | FieldKind::Plugin(_) => json!({"type": "object"}),
            };
            if !field.title.is_empty() {
                schema["title"] = json!(field.title);
            }
            if !field.description.is_empty() && schema.get("description").is_none() {
                schema["description"] = json!(field.description);
            }
            if let Some(max) = field.max_length.filter(|_| schema["type"] == "string") {
                schema["maxLength"] = json!(max);
            }
            if let Some(min) = field.min_length.filter(|_| schema["type"] == "string") {
                schema["minLength"] = json!(min);
            }
            schema["nullable"] = json!(true);
            (field.name.clone(), schema)
        })
        .collect();
    json!({
        "type": "object",
        "title": profile.title,
        "description": format!("Content of type '{}': its fields as a GET answers them", profile.id),
        "x-wcs-portal-type": profile.id,
        "properties": properties,
    })
}

/// The name of a type's schema in the OpenAPI document (ids may hold spaces, names may not).
fn openapi_schema_name(profile: &TypeProfile) -> String {
    let id: String = profile.id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    format!("ContentType_{id}")
}
