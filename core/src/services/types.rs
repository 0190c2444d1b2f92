//! `GET <obj>/@types`: the content types, and whether each may be added here.

use crate::content::{FieldDef, FieldKind, TypeProfile};
use crate::endpoint;
use crate::http::schema::{any_object, array_of, map_of, object, string};
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, Raw, RawMeta, media_response};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::type_fieldsets::{FIELDSETS, standard_field};
use poem::Response;
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::registry::MetaResponses;
use poem_openapi::types::ToJSON;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Lists types with `addable` for this context.
pub static TYPES: Service = Service {
    method: Method::GET,
    name: "@types",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "List content types and whether each can be added here", endpoint!(types)),
        Route::new("{name}", "A content type's JSON Schema, as Volto's forms read it", endpoint!(type_schema_of)),
        Route::new("{name}/{field}", "The JSON Schema of one field of a content type", endpoint!(field_schema_of)),
    ],
};

/// `@components.types`; expanded, it is the same list.
pub static TYPES_COMPONENT: Component = Component {
    name: "types",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| Box::pin(async move { Ok(list(ctx, subject).await?.to_json().unwrap_or_default()) }),
};

/// A type in the `@types` listing.
#[derive(Object)]
struct ContentTypeEntry {
    /// Its URL, which answers its JSON Schema.
    #[oai(rename = "@id")]
    url: String,
    /// The portal type.
    id: String,
    /// Its title.
    title: String,
    /// Whether the caller may add one here: the container allows it and they hold Add portal
    /// content.
    addable: bool,
    /// The same as `addable` (there are no restrictions beyond it).
    immediately_addable: bool,
}

/// `@types/<name>`: served as `application/json+schema`, like upstream.
struct TypeSchemaReply;

impl RawMeta for TypeSchemaReply {
    fn meta() -> MetaResponses {
        let schema = object(
            "The type's JSON Schema with plone.restapi's annotations: `fieldsets` (the form's tabs), `layouts` and, \
             per property, `factory`, `behavior` and `widget`",
            vec![
                ("title", string()),
                ("type", string()),
                ("required", array_of(string())),
                ("fieldsets", array_of(any_object())),
                ("layouts", array_of(string())),
                ("properties", map_of(any_object())),
            ],
            &["title", "type", "required", "fieldsets", "layouts", "properties"],
        );
        MetaResponses { responses: vec![media_response(200, "The type's schema", Some((JSON_SCHEMA, schema)))] }
    }
}

/// `@types/<name>/<field>`: one property, as `application/json+schema`.
struct FieldSchemaReply;

impl RawMeta for FieldSchemaReply {
    fn meta() -> MetaResponses {
        let schema = object(
            "One property of a type's JSON Schema: its JSON type, title, description, `factory`, `behavior`, and \
             `widget`, `vocabulary`, `default` where it has them",
            vec![
                ("type", string()),
                ("title", string()),
                ("description", string()),
                ("factory", string()),
                ("behavior", string()),
            ],
            &["title", "description", "factory", "behavior"],
        );
        MetaResponses { responses: vec![media_response(200, "The field's schema", Some((JSON_SCHEMA, schema)))] }
    }
}

/// The media type upstream serves schemas as.
const JSON_SCHEMA: &str = "application/json+schema";

async fn types(ctx: Ctx) -> ApiResult<Json<Vec<ContentTypeEntry>>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(Json(list(&sctx, ctx.subject()).await?))
}

/// The types addable here or anywhere, titled in the caller's language and sorted by those
/// titles, as Plone lists them.
async fn list(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Vec<ContentTypeEntry>> {
    let site_url = format!("{}/{}", ctx.base_url, subject.object.site_id());
    let may_add = ctx.access.object().is_some_and(|o| o.uid == subject.object.uid)
        && ctx.access.allows(ctx.site, Permission::ADD_PORTAL_CONTENT);
    let translator = ctx.translator().await?;
    let mut entries: Vec<ContentTypeEntry> = ctx
        .site
        .types
        .all()
        .filter(|t| t.global_allow || subject.profile.allowed_types.as_ref().is_some_and(|a| a.contains(&t.id)))
        .map(|t| {
            let addable = may_add && ctx.site.types.allows_child(subject.profile, &t);
            ContentTypeEntry {
                url: format!("{site_url}/@types/{}", t.id),
                id: t.id.clone(),
                title: translator.type_title(&t),
                addable,
                immediately_addable: addable,
            }
        })
        .collect();
    entries.sort_by(|a, b| a.title.cmp(&b.title));
    Ok(entries)
}

async fn type_schema_of(ctx: Ctx) -> ApiResult<Raw<TypeSchemaReply>> {
    let profile = named_type(&ctx)?;
    Ok(schema_reply(type_schema(&profile, &ctx.site_url())))
}

async fn field_schema_of(ctx: Ctx) -> ApiResult<Raw<FieldSchemaReply>> {
    let profile = named_type(&ctx)?;
    let field = ctx.param("field");
    let def = profile.field(field).ok_or_else(|| {
        ApiError::new(
            ErrorCode::NotFound,
            format!("Field '{field}' of type '{}' could not be found.", ctx.param("name")),
        )
    })?;
    Ok(schema_reply(property(&profile, def, &ctx.site_url())))
}

/// The type `{name}` names; 404 with upstream's message when there is none.
pub(crate) fn named_type(ctx: &Ctx) -> ApiResult<Arc<TypeProfile>> {
    let name = ctx.param("name");
    ctx.app
        .types
        .get(name)
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("Type '{name}' could not be found.")))
}

fn schema_reply<M: RawMeta>(body: Value) -> Raw<M> {
    Raw::new(Response::builder().content_type(JSON_SCHEMA).body(body.to_string()))
}

/// The JSON Schema of a content type, with plone.restapi's `fieldsets`, `layouts`, `factory`
/// and `widget` annotations.
pub fn type_schema(profile: &TypeProfile, site_url: &str) -> Value {
    let properties: Map<String, Value> =
        profile.fields.iter().map(|f| (f.name.clone(), property(profile, f, site_url))).collect();
    let required: Vec<&str> = profile.fields.iter().filter(|f| f.required).map(|f| f.name.as_str()).collect();
    let is_layout = |f: &&FieldDef| matches!(f.kind, FieldKind::Blocks | FieldKind::BlocksLayout);
    let tab_of = |f: &FieldDef| standard_field(&f.name).map_or("default", |s| s.fieldset);
    // Plone's tabs, in its order, with the fields on each; empty ones are left out.
    let mut fieldsets: Vec<Value> = FIELDSETS
        .iter()
        .filter_map(|(id, title)| {
            let fields: Vec<&str> =
                profile.fields.iter().filter(|f| !is_layout(f) && tab_of(f) == *id).map(|f| f.name.as_str()).collect();
            let tab = match *id {
                "default" => json!({"id": id, "title": title, "behavior": "plone", "fields": fields}),
                _ if fields.is_empty() => return None,
                _ => json!({"id": id, "title": title, "behavior": "plone", "description": "", "fields": fields}),
            };
            Some(tab)
        })
        .collect();
    let layout: Vec<&str> = profile.fields.iter().filter(is_layout).map(|f| f.name.as_str()).collect();
    if !layout.is_empty() {
        // Plone keeps the blocks in a fieldset of their own, which Volto edits as the page itself.
        fieldsets.push(json!({"id": "layout", "title": "Layout", "behavior": "plone", "fields": layout}));
    }
    json!({
        "title": profile.title,
        "type": "object",
        "required": required,
        "fieldsets": fieldsets,
        "layouts": [profile.layout],
        "properties": properties,
    })
}

/// The behaviour plone.volto declares the blocks fields in.
const VOLTO_BLOCKS_BEHAVIOUR: &str = "volto.blocks";

/// The tags in use, which tag widgets offer.
pub const KEYWORDS_VOCABULARY: &str = "plone.app.vocabularies.Keywords";
/// The field that holds an object's tags (Plone's `Subject` index).
const TAGS_FIELD: &str = "subjects";

/// The vocabulary of every object the caller may see; relation widgets search it.
pub const CATALOG_VOCABULARY: &str = "plone.app.vocabularies.Catalog";

fn property(profile: &TypeProfile, field: &FieldDef, site_url: &str) -> Value {
    let (mut schema, factory) = match field.kind {
        FieldKind::TextLine => (json!({"type": "string"}), "Text line (String)"),
        FieldKind::Text => (json!({"type": "string", "widget": "textarea"}), "Text"),
        FieldKind::RichText => (json!({"type": "string", "widget": "richtext"}), "Rich Text"),
        FieldKind::Bool => (json!({"type": "boolean"}), "Yes/No"),
        FieldKind::Int => (json!({"type": "integer"}), "Integer"),
        FieldKind::Float => (json!({"type": "number"}), "Floating-point number"),
        FieldKind::Datetime => (json!({"type": "string", "format": "date-time", "widget": "datetime"}), "Date/Time"),
        FieldKind::Date => (json!({"type": "string", "format": "date", "widget": "date"}), "Date"),
        FieldKind::List if field.name == TAGS_FIELD => (
            json!({
                "type": "array",
                "uniqueItems": true,
                "items": {"type": "string", "title": ""},
                "widgetOptions": {"vocabulary": {"@id": format!("{site_url}/@vocabularies/{KEYWORDS_VOCABULARY}")}},
            }),
            "Tuple",
        ),
        FieldKind::List => {
            (json!({"type": "array", "uniqueItems": true, "items": {"type": "string", "title": ""}}), "List")
        }
        FieldKind::Choice => (
            json!({
                "type": "string",
                "enum": field.vocabulary,
                "enumNames": field.vocabulary,
                "choices": field.vocabulary.iter().map(|v| json!([v, v])).collect::<Vec<_>>(),
                "vocabulary": {"@id": format!("{site_url}/@vocabularies/{}.{}", profile.id, field.name)},
            }),
            "Choice",
        ),
        FieldKind::URI => (json!({"type": "string", "widget": "url"}), "URL"),
        FieldKind::File => (json!({"type": "object", "widget": "file"}), "File Upload"),
        FieldKind::Image => (json!({"type": "object", "widget": "image"}), "Image"),
        FieldKind::RelationChoice => (
            json!({
                "type": "object",
                "widget": "relation",
                "vocabulary": {"@id": format!("{site_url}/@vocabularies/{CATALOG_VOCABULARY}")},
                "widgetOptions": {"pattern_options": {"selectableTypes": field.target_types}},
            }),
            "Relation Choice",
        ),
        FieldKind::RelationList => (
            json!({
                "type": "array",
                "uniqueItems": true,
                "widget": "relation",
                "items": {"vocabulary": {"@id": format!("{site_url}/@vocabularies/{CATALOG_VOCABULARY}")}},
                "widgetOptions": {"pattern_options": {"selectableTypes": field.target_types}},
            }),
            "Relation List",
        ),
        FieldKind::Mapping => (json!({"type": "object", "additionalProperties": true}), "Dict"),
        FieldKind::Blocks => (json!({"type": "dict", "widget": "json", "default": {}}), "JSONField"),
        FieldKind::BlocksLayout => (json!({"type": "dict", "widget": "json", "default": {"items": []}}), "JSONField"),
        FieldKind::PageLayout => (json!({"type": "object", "widget": "simplelayout"}), "Page layout"),
        FieldKind::Plugin(kind) => ((kind.json_schema)(field), kind.name),
    };
    schema["title"] = json!(if field.title.is_empty() { field.name.clone() } else { field.title.clone() });
    let standard = standard_field(&field.name);
    schema["description"] = json!(standard.as_ref().map_or("", |s| s.description));
    schema["factory"] = json!(factory);
    schema["behavior"] = json!(match (&standard, field.kind) {
        (_, FieldKind::Blocks | FieldKind::BlocksLayout) => VOLTO_BLOCKS_BEHAVIOUR,
        (Some(standard), _) => standard.behavior,
        (None, _) => profile.id.as_str(),
    });
    if let Some(widget) = &field.widget {
        schema["widget"] = json!(widget);
    }
    if let Some(max) = field.max_length {
        schema["maxLength"] = json!(max);
    }
    if let Some(pattern) = &field.pattern {
        schema["pattern"] = json!(format!("^(?:{pattern})$"));
    }
    let default = field.default_json();
    if !default.is_null() {
        schema["default"] = default;
    }
    schema
}
