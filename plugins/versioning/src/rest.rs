//! `@versions`: list, read, create, restore, delete and compare versions by stable id.
//!
//! Every handler first checks that the caller may see the object itself: a caller who holds
//! Access versions but not View on this object gets 404 for its versions, as if they did
//! not exist (SPEC Authentication rule 3).

use crate::items::{item_schema, list_schema, version_item, version_list};
use crate::store::{create_version, find_version};
use crate::{ACCESS_VERSIONS, CREATE_VERSIONS, VERSIONING, compare, restore};
use serde_json::{Map, Value, json};
use wcs_core::http::{ApiError, ApiResult, Ctx, FieldError, json, json_with_status};
use wcs_core::poem_reexports::{Method, Response, StatusCode};
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::serialize_content;
use wcs_core::service::{ContentKind, Service};

/// The longest comment a version takes.
const MAX_COMMENT_CHARS: usize = 2000;

/// `GET @versions`, `GET @versions/<id>`, `GET @versions/<id>/comparison`.
pub static LIST_OR_GET: Service = Service {
    method: Method::GET,
    name: "@versions",
    kind: ContentKind::Behaviour(VERSIONING),
    permission: ACCESS_VERSIONS,
    csrf: Csrf::Cookie,
    summary: "The object's versions, newest first (not batched); /<id> one version; /<id>/comparison its \
              differences from the current content",
    request_schema: None,
    response_schema: Some(list_schema),
    handler: |ctx| Box::pin(get(ctx)),
};

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

/// `DELETE @versions/<id>`; X-CSRF-TOKEN for every authentication method.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "@versions",
    kind: ContentKind::Behaviour(VERSIONING),
    permission: CREATE_VERSIONS,
    csrf: Csrf::Always,
    summary: "Delete a version for good; answers with the updated version list",
    request_schema: None,
    response_schema: Some(list_schema),
    handler: |ctx| Box::pin(delete(ctx)),
};

/// Versions of an object the caller may not see do not exist for them.
fn check_object_visible(ctx: &Ctx) -> ApiResult<()> {
    if ctx.allows(Permission::VIEW) { Ok(()) } else { Err(ApiError::not_found(&ctx.request.service_url)) }
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    check_object_visible(&ctx)?;
    let url = ctx.url_of(&ctx.context);
    let may_change = ctx.allows(CREATE_VERSIONS);
    match ctx.subpath.as_slice() {
        [] => Ok(json(&version_list(&ctx.app, &ctx.context, &url, may_change).await?)),
        [id] => {
            let (info, _) = find_version(&ctx.app, &ctx.context, id, &ctx.request.service_url).await?;
            Ok(json(&version_item(&url, &info, may_change)))
        }
        [id, comparison] if comparison == "comparison" => {
            let (info, snapshot) = find_version(&ctx.app, &ctx.context, id, &ctx.request.service_url).await?;
            let translator = ctx.app.translator(ctx.request.header("accept-language")).await?;
            let result =
                compare::compare(&ctx.app, &ctx.context, &snapshot, &translator, &ctx.request.base_url).await?;
            let item = version_item(&url, &info, may_change);
            Ok(json(&result.to_json(&format!("{url}/@versions/{}/comparison", info.seq), item)))
        }
        _ => Err(ApiError::not_found(&ctx.request.service_url)),
    }
}

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

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    check_object_visible(&ctx)?;
    let [id] = ctx.subpath.as_slice() else {
        return Err(ApiError::not_found(&ctx.request.service_url));
    };
    let (info, _) = find_version(&ctx.app, &ctx.context, id, &ctx.request.service_url).await?;
    let mut tx = ctx.app.store.begin().await?;
    let deleted = crate::tables::delete_version(&mut tx, &info.object_uid, info.seq).await?;
    tx.commit().await?;
    if !deleted {
        // Deleted by someone else in the meantime.
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    let url = ctx.url_of(&ctx.context);
    Ok(json(&version_list(&ctx.app, &ctx.context, &url, true).await?))
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
