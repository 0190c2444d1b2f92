//! Starting an upload, for `@tus-upload` and `@tus-replace` (`Upload-Length`, `Upload-Metadata`
//! with `filename`, `content-type`, and optionally `@type` and `fieldname`): 201 with the
//! upload's URL in `Location`. What the upload will make is checked now (the
//! type may be added here, it has the file field), not after the last byte.

use super::headers::{check_version, documented, documented_response, metadata, upload_length};
use super::uploads::{Mode, Upload, Uploads};
use crate::content::{ContentObject, TypeProfile};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::http::tus::TUS_VERSION;
use crate::http::{Ctx, Raw, RawMeta};
use crate::site::Site;
use poem::Response;
use poem::http::StatusCode;
use poem_openapi::registry::MetaResponses;
use serde_json::{Map, Value, json};

/// 201 with the upload's URL.
pub struct UploadStarted;

impl RawMeta for UploadStarted {
    fn meta() -> MetaResponses {
        let headers = vec![
            documented("Location", "The upload's URL: send its bytes there with PATCH"),
            documented("Tus-Resumable", "1.0.0"),
            documented("Upload-Expires", "When the upload is dropped unless written to (an HTTP date)"),
        ];
        MetaResponses { responses: vec![documented_response(201, "The upload was started", headers)] }
    }
}

pub(super) async fn start(ctx: Ctx, mode: Mode) -> ApiResult<Raw<UploadStarted>> {
    check_version(&ctx)?;
    let length = upload_length(&ctx)?;
    let meta = metadata(&ctx)?;
    let text = |key: &str| meta.get(key).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let filename = text("filename").unwrap_or_else(|| "file".to_owned());
    let content_type = text("content-type");
    let field = text("fieldname");
    let portal_type = match mode {
        Mode::Create => {
            let name = text("@type").unwrap_or_else(|| guessed_type(&ctx.app, content_type.as_deref()).to_owned());
            let profile =
                crate::ops::requested_type(&ctx.app, &ctx.context, &Map::from_iter([("@type".into(), json!(name))]))?;
            check_file_field(&profile, field.as_deref())?;
            Some(name)
        }
        Mode::Replace => {
            check_file_field(&ctx.profile, field.as_deref())?;
            None
        }
    };
    let upload = Upload {
        length,
        filename,
        content_type,
        portal_type,
        field,
        mode,
        context_uid: ctx.context.uid.clone(),
        owner: ctx.principal.actor().to_owned(),
    };
    let uploads = Uploads::new(ctx.app.settings.data_dir.as_deref());
    let id = uploads.start(&upload).await?;
    let location = format!("{}/@tus-upload/{id}", ctx.url_of(&ctx.context));
    Ok(Raw::new(
        Response::builder()
            .status(StatusCode::CREATED)
            .header("Location", location)
            .header("Tus-Resumable", TUS_VERSION)
            .header("Upload-Expires", uploads.expires(&id))
            .finish(),
    ))
}

/// The type a file becomes without `@type`: an image becomes an Image, anything else a File
/// (Plone's content type registry).
fn guessed_type(site: &Site, content_type: Option<&str>) -> &'static str {
    let image = content_type.is_some_and(|t| t.starts_with("image/")) && site.types.get("Image").is_some();
    if image { "Image" } else { "File" }
}

fn check_file_field(profile: &TypeProfile, field: Option<&str>) -> ApiResult<()> {
    let found = match field {
        Some(name) => profile.field(name).is_some_and(|f| f.kind.is_blob()),
        None => profile.primary_blob_field().is_some(),
    };
    if found {
        return Ok(());
    }
    let what = field.map_or_else(|| "a file field".to_owned(), |name| format!("the file field '{name}'"));
    Err(ApiError::new(ErrorCode::BadRequest, format!("{} has no {what}.", profile.id)))
}

/// Whether `object` is where `upload` was started (an upload goes on where it began).
pub fn started_on(upload: &Upload, object: &ContentObject) -> bool {
    upload.context_uid == object.uid
}

/// The value a JSON field of the new object gets (none: the file gives the title).
pub fn create_body(upload: &Upload) -> Map<String, Value> {
    Map::from_iter([("@type".to_owned(), json!(upload.portal_type.clone().unwrap_or_else(|| "File".into())))])
}
