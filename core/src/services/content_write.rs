//! What `PATCH` and `PUT` of an object share: both change fields (`PUT` resets those not
//! sent), rename (`id`), reorder children (`ordering`) and answer 204 or the new
//! representation.

use crate::content::values::{Mode, parse_changes};
use crate::http::{ApiError, ApiResult, Ctx, Dyn, ErrorCode, NoContent};
use crate::ops::{self, OnConflict};
use crate::security::Permission;
use crate::serialize::{ContentShape, serialize_content};
use poem::{IntoResponse, Response};
use poem_openapi::ApiResponse;
use poem_openapi::registry::{MetaResponses, Registry};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// `PATCH <obj>`.
pub async fn patch(ctx: Ctx) -> ApiResult<Written> {
    write(ctx, Mode::Patch).await
}

/// `PUT <obj>`.
pub async fn put(ctx: Ctx) -> ApiResult<Written> {
    write(ctx, Mode::Replace).await
}

/// 204, or 200 with the object when the client sent `Prefer: return=representation`.
pub enum Written {
    /// Saved.
    Saved,
    /// Saved; the object as it is now.
    Representation(Dyn<ContentShape>),
}

impl IntoResponse for Written {
    fn into_response(self) -> Response {
        match self {
            Written::Saved => NoContent::NoContent.into_response(),
            Written::Representation(body) => body.into_response(),
        }
    }
}

impl ApiResponse for Written {
    fn meta() -> MetaResponses {
        let mut responses = NoContent::meta().responses;
        responses.extend(Dyn::<ContentShape>::meta().responses);
        MetaResponses { responses }
    }

    fn register(registry: &mut Registry) {
        Dyn::<ContentShape>::register(registry);
    }
}

/// Applies the body to the context, `mode` saying what becomes of the fields not sent.
async fn write(ctx: Ctx, mode: Mode) -> ApiResult<Written> {
    // A PATCH without a body changes nothing, as in Plone: @plone/client refreshes a lock
    // with an empty PATCH that sends only `Lock-Token`.
    let body = if mode == Mode::Patch { ctx.optional_json_body()? } else { ctx.json_body()? };
    super::lock::check_edit_lock(&ctx).await?;
    if let Some(type_name) = body.get("@type")
        && type_name.as_str() != Some(ctx.context.portal_type.as_str())
    {
        return Err(ApiError::invalid_parameter("@type", "The type of an existing object cannot be changed."));
    }
    let new_id = requested_id(&ctx, &body)?;
    let mut changes =
        parse_changes(&ctx.profile, &body, mode, &["id", "ordering"], &ctx.app.registry.read_only_keys(&ctx.profile))?;
    let visibility = ctx.visibility();
    let origin = ops::WriteOrigin { base_url: &ctx.request.base_url, visibility: &visibility };
    ops::resolve_references(&ctx.app, &origin, ctx.context.site_id(), &ctx.profile, &mut changes).await?;
    // The context as it is, unless a reorder gives a newer one: cloning it copies all its fields.
    let mut current = Cow::Borrowed(&*ctx.context);
    if let Some(ordering) = body.get("ordering") {
        if !ctx.profile.folderish {
            return Err(ApiError::new(ErrorCode::BadRequest, "Content ordering is not supported by this resource."));
        }
        ops::check_unlocked(&ctx.app, &ctx.context).await?;
        current = Cow::Owned(ops::reorder(&ctx.app, &ctx.context, ordering).await?);
    }
    // With If-Match the dispatcher has checked the state the caller read; a write landing
    // after that check is refused too rather than built upon.
    let conditional = ctx.request.header("if-match").is_some_and(|tag| tag.trim() != "*");
    let on_conflict = if conditional { OnConflict::Refuse } else { OnConflict::Reapply };
    let updated = ops::update(&ctx.app, &current, &changes, new_id, on_conflict).await?;
    if !wants_representation(&ctx) {
        return Ok(Written::Saved);
    }
    let options = ctx.serialize_options()?;
    let body = serialize_content(&ctx.serialize_ctx(&options, &visibility), &updated, ctx.visible_parent()).await?;
    Ok(Written::Representation(Dyn::serialized(&body)?))
}

/// The new id of a rename, after checking the caller may add to the container.
fn requested_id<'a>(ctx: &Ctx, body: &'a Map<String, Value>) -> ApiResult<Option<&'a str>> {
    match body.get("id") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) if *id == ctx.context.id => Ok(None),
        Some(Value::String(id)) => {
            if !ctx.access.allows_on_parent(&ctx.app, Permission::ADD_PORTAL_CONTENT) {
                return Err(Permission::ADD_PORTAL_CONTENT.refuse(&ctx.principal));
            }
            Ok(Some(id.as_str()))
        }
        Some(_) => Err(ApiError::invalid_parameter("id", "The id must be a string.")),
    }
}

fn wants_representation(ctx: &Ctx) -> bool {
    ctx.request
        .header("prefer")
        .is_some_and(|prefer| prefer.split(',').any(|p| p.trim().eq_ignore_ascii_case("return=representation")))
}
