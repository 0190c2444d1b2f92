//! `POST @versions` and `POST @versions/<id>/restore`.

use super::check_object_visible;
use crate::items::{item_schema, version_item};
use crate::store::{create_version, find_version};
use crate::{CREATE_VERSIONS, VERSIONING, restore};
use serde_json::{Map, Value, json};
use wcs_core::http::{ApiError, ApiResult, Ctx, FieldError, json, json_with_status};
use wcs_core::poem_reexports::{Method, Response, StatusCode};
use wcs_core::security::Csrf;
use wcs_core::serialize::serialize_content;
use wcs_core::service::{ContentKind, Service};

/// The longest comment a version takes.
const MAX_COMMENT_CHARS: usize = 2000;

/// `POST @versions` (create) and `POST @versions/<id>/restore`; X-CSRF-TOKEN for every
/// authentication method.
pub static CREATE_OR_RESTORE: Service = Service {
    method: Method::POST,
    name: "@versions",
    kind: ContentKind::Behaviour(VERSIONING),
    permission: CREATE_VERSIONS,
    csrf: Csrf::Always,
    summary: "Create a version (optional {comment}; 201 with the version item, the oldest beyond 10 is dropped); \
              /<id>/restore restores one and answers with the content",
    request_schema: Some(create_schema),
    response_schema: Some(item_schema),
    handler: |ctx| Box::pin(post(ctx)),
};

async fn post(ctx: Ctx) -> ApiResult<Response> {
    check_object_visible(&ctx)?;
    let url = ctx.url_of(&ctx.context);
    match ctx.subpath.as_slice() {
        [] => {
            let comment = requested_comment(&ctx.optional_json_body()?)?;
            let info = create_version(&ctx.app, &ctx.context, &ctx.principal, &comment).await?;
            Ok(json_with_status(StatusCode::CREATED, &version_item(&url, &info, true)))
        }
        [id, action] if action == "restore" => {
            let (info, snapshot) = find_version(&ctx.app, &ctx.context, id, &ctx.request.service_url).await?;
            let restored = restore::restore(&ctx.app, &ctx.context, &info, &snapshot, &ctx.principal).await?;
            let options = ctx.serialize_options()?;
            let visibility = ctx.visibility();
            let sctx = ctx.serialize_ctx(&options, &visibility);
            Ok(json(&Value::Object(serialize_content(&sctx, &restored, ctx.visible_parent()).await?)))
        }
        _ => Err(ApiError::not_found(&ctx.request.service_url)),
    }
}

/// The optional `comment` of a create request: a string or null, nothing else.
fn requested_comment(body: &Map<String, Value>) -> ApiResult<String> {
    if let Some(unknown) = body.keys().find(|k| *k != "comment") {
        return Err(ApiError::validation(vec![FieldError::new(
            unknown,
            format!("Unknown property '{unknown}'; a version takes only 'comment'."),
        )]));
    }
    match body.get("comment") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) if text.chars().count() <= MAX_COMMENT_CHARS => Ok(text.clone()),
        Some(Value::String(_)) => Err(ApiError::validation(vec![FieldError::new(
            "comment",
            format!("The comment is longer than {MAX_COMMENT_CHARS} characters."),
        )])),
        Some(_) => Err(ApiError::validation(vec![FieldError::new("comment", "The comment must be a string or null.")])),
    }
}

fn create_schema() -> Value {
    json!({"type": "object", "properties": {"comment": {"type": ["string", "null"], "maxLength": MAX_COMMENT_CHARS}}})
}
