//! `POST @versions` and `POST @versions/<id>/restore`.

use super::check_object_visible;
use crate::items::{VersionItem, version_item};
use crate::store::{create_version, find_version};
use crate::{CREATE_VERSIONS, VERSIONING, restore};
use poem_openapi::Object;
use serde_json::{Map, Value};
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Created, Ctx, Dyn, FieldError, body_schema};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::serialize::{ContentShape, serialize_content};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The longest comment a version takes.
const MAX_COMMENT_CHARS: usize = 2000;

/// `POST @versions` (create) and `POST @versions/<id>/restore`; X-CSRF-TOKEN for every
/// authentication method.
pub static POST: Service = Service {
    method: Method::POST,
    name: "@versions",
    kind: ContentKind::Behaviour(VERSIONING),
    guard: Guard::Has(CREATE_VERSIONS),
    csrf: Csrf::Always,
    routes: &[
        Route {
            request: Some(body_schema::<NewVersion>),
            body_required: false,
            ..Route::new("", "Create a version; the oldest beyond the limit is dropped", endpoint!(create))
        },
        Route::new("{version_id}/restore", "Restore a version; answers with the content", endpoint!(restore_one)),
    ],
};

/// The body of a create request.
#[derive(Object)]
pub struct NewVersion {
    /// Why; at most 2,000 characters.
    #[oai(validator(max_length = 2000))]
    pub comment: Option<String>,
}

async fn create(ctx: Ctx) -> ApiResult<Created<VersionItem>> {
    check_object_visible(&ctx)?;
    let url = ctx.url_of(&ctx.context);
    let comment = requested_comment(&ctx.optional_json_body()?)?;
    let info = create_version(&ctx.app, &ctx.context, &ctx.principal, &comment).await?;
    Ok(Created::new(version_item(&url, &info, true)))
}

async fn restore_one(ctx: Ctx) -> ApiResult<Dyn<ContentShape>> {
    check_object_visible(&ctx)?;
    let (info, snapshot) =
        find_version(&ctx.app, &ctx.context, ctx.param("version_id"), &ctx.request.service_url).await?;
    let restored = restore::restore(&ctx.app, &ctx.context, &info, &snapshot, &ctx.principal).await?;
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Dyn::serialized(&serialize_content(&sctx, &restored, ctx.visible_parent()).await?)
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
