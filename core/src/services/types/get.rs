//! `GET <obj>/@types`: the content types, and whether each may be added here.

use super::schema::{fieldset_schema, property, type_schema};
use crate::content::TypeProfile;
use crate::endpoint;
use crate::http::schema::{any_object, array_of, map_of, object, string};
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, Raw, RawMeta, media_response};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::Response;
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::registry::MetaResponses;
use poem_openapi::types::ToJSON;
use serde_json::Value;
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
        Route::new(
            "{name}/{field}",
            "The JSON Schema of one field of a content type, or one of its own fieldsets",
            endpoint!(field_schema_of),
        ),
    ],
};

/// `@components.types`; expanded, it is the same list.
pub static TYPES_COMPONENT: Component = Component {
    name: "types",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| Box::pin(async move { Ok(list(ctx, subject).await?.to_json().unwrap_or_default().into()) }),
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

/// `@types/<name>/<field>`: one property (or fieldset), as `application/json`.
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
        MetaResponses { responses: vec![media_response(200, "The field's schema", Some(("application/json", schema)))] }
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
    let name = ctx.param("field");
    let body = match profile.fieldsets.iter().find(|f| f.id == name) {
        Some(fieldset) => fieldset_schema(fieldset),
        None => property(&profile, profile.field(name).ok_or_else(|| unknown_field(&ctx))?, &ctx.site_url()),
    };
    // Upstream serves one field as plain JSON, unlike the whole schema.
    Ok(Raw::new(Response::builder().content_type("application/json").body(body.to_string())))
}

/// The 404 for a `{field}` that is neither a field nor a fieldset of the type.
pub(crate) fn unknown_field(ctx: &Ctx) -> ApiError {
    let (name, field) = (ctx.param("name"), ctx.param("field"));
    ApiError::new(ErrorCode::NotFound, format!("Field '{field}' of type '{name}' could not be found."))
}

/// The type `{name}` names; 404 with upstream's message when there is none.
fn named_type(ctx: &Ctx) -> ApiResult<Arc<TypeProfile>> {
    let name = ctx.param("name");
    ctx.app
        .types
        .get(name)
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("Type '{name}' could not be found.")))
}

fn schema_reply<M: RawMeta>(body: Value) -> Raw<M> {
    Raw::new(Response::builder().content_type(JSON_SCHEMA).body(body.to_string()))
}
