//! The request hook that answers an anonymous API GET of a `File` with the file.

use serde_json::{Value, json};
use wcs_core::http::{ApiResult, Ctx, file_meta, file_response, parse_bool};
use wcs_core::poem_reexports::{IntoResponse, Method, Response};
use wcs_core::records::{RecordDef, RecordKind};
use wcs_core::security::{Permission, Principal};
use wcs_core::service::RequestHook;

/// The switch. Read on every candidate request (from the database, or on SQLite from the
/// store's memory, which a committed change clears), so a change through `@registry` holds
/// from the next request on, on every instance.
pub static DIRECT_DOWNLOAD: RecordDef = RecordDef {
    name: "wcs.backend.api.directdownload",
    title: "Direct file download",
    description: "Anonymous API requests for a File get the file itself instead of its JSON \
                  (audio and video excepted; ?json=true asks for the JSON).",
    kind: RecordKind::Bool,
    check: None,
    default: || json!(false),
};

/// Answers before dispatch, when every condition holds.
pub static FILE_ITSELF: RequestHook = RequestHook {
    name: "directdownload",
    summary: "Anonymous API GET of a File answers the file itself while wcs.backend.api.directdownload is true",
    permission: Permission::VIEW,
    run: |ctx| Box::pin(file_itself(ctx)),
};

async fn file_itself(ctx: &Ctx) -> ApiResult<Option<Response>> {
    let candidate = ctx.request.method == Method::GET
        && ctx.request.api
        && ctx.context.portal_type == "File"
        && ctx.name.is_empty()
        && ctx.subpath.is_empty()
        && matches!(ctx.principal, Principal::Anonymous);
    if !candidate || wants_json(ctx)? {
        return Ok(None);
    }
    if ctx.app.record_value(&DIRECT_DOWNLOAD).await? != Value::Bool(true) {
        return Ok(None);
    }
    let Some(field) = ctx.profile.primary_blob_field() else { return Ok(None) };
    let Some(meta) = file_meta(ctx, &field.name).await? else { return Ok(None) };
    if is_streamed_media(&meta.content_type) {
        return Ok(None);
    }
    Ok(Some(file_response(ctx, &field.name).await?.into_response()))
}

/// `?json=true` (any of the usual spellings) forces the JSON; a malformed value is a 400.
fn wants_json(ctx: &Ctx) -> ApiResult<bool> {
    match ctx.request.query_value("json") {
        Some(value) => parse_bool("json", value),
        None => Ok(false),
    }
}

/// Audio and video, which players stream with Range requests against `@@download`.
fn is_streamed_media(content_type: &str) -> bool {
    let kind = content_type.split('/').next().unwrap_or_default().trim();
    kind.eq_ignore_ascii_case("audio") || kind.eq_ignore_ascii_case("video")
}

#[cfg(test)]
mod tests {
    use super::is_streamed_media;

    #[test]
    fn audio_and_video_stay_json() {
        assert!(is_streamed_media("audio/mpeg"));
        assert!(is_streamed_media("Video/mp4"));
        assert!(!is_streamed_media("application/pdf"));
        assert!(!is_streamed_media("text/plain"));
    }
}
