//! The protocol's request headers, checked, and the responses' headers.

use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::http::Ctx;
use crate::http::tus::{MAX_UPLOAD_BYTES, TUS_VERSION};
use base64::Engine;
use poem_openapi::registry::{MetaHeader, MetaResponse};
use std::collections::BTreeMap;

/// Refuses a request that does not speak the protocol's version (412, as the protocol says).
pub fn check_version(ctx: &Ctx) -> ApiResult<()> {
    if ctx.request.header("tus-resumable").map(str::trim) == Some(TUS_VERSION) {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::PreconditionFailed,
        format!("Unsupported version: send Tus-Resumable: {TUS_VERSION}."),
    )
    .with_header("Tus-Version", TUS_VERSION))
}

/// A whole number from a header, or a 400 naming it.
pub fn number(ctx: &Ctx, name: &'static str) -> ApiResult<u64> {
    ctx.request
        .header(name)
        .and_then(|value| value.trim().parse::<u64>().ok())
        .ok_or_else(|| ApiError::new(ErrorCode::BadRequest, format!("Missing or invalid {name} header.")))
}

/// The announced length, within the largest upload.
pub fn upload_length(ctx: &Ctx) -> ApiResult<u64> {
    let length = number(ctx, "Upload-Length")?;
    if length > MAX_UPLOAD_BYTES {
        return Err(ApiError::new(
            ErrorCode::PayloadTooLarge,
            format!("An upload may hold at most {MAX_UPLOAD_BYTES} bytes."),
        ));
    }
    Ok(length)
}

/// `Upload-Metadata`: comma-separated `key base64value` pairs (a key alone has an empty value).
pub fn metadata(ctx: &Ctx) -> ApiResult<BTreeMap<String, String>> {
    let mut found = BTreeMap::new();
    let Some(header) = ctx.request.header("upload-metadata") else { return Ok(found) };
    for pair in header.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let mut parts = pair.split_whitespace();
        let key = parts.next().unwrap_or_default().to_ascii_lowercase();
        let value = match parts.next() {
            Some(encoded) => base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok())
                .ok_or_else(|| {
                    ApiError::new(ErrorCode::BadRequest, format!("Upload-Metadata: '{key}' is not base64 text."))
                })?,
            None => String::new(),
        };
        if parts.next().is_some() || key.len() > 100 || value.len() > 1000 {
            return Err(ApiError::new(ErrorCode::BadRequest, "Upload-Metadata: expected 'key base64value' pairs."));
        }
        found.insert(key, value);
    }
    Ok(found)
}

/// A response header for the OpenAPI document.
pub fn documented(name: &str, description: &str) -> MetaHeader {
    MetaHeader {
        name: name.to_owned(),
        description: Some(description.to_owned()),
        required: true,
        deprecated: false,
        schema: crate::http::schema::string(),
    }
}

/// A response without a body, with headers, for the OpenAPI document.
pub fn documented_response(status: u16, description: &'static str, headers: Vec<MetaHeader>) -> MetaResponse {
    let mut response = crate::http::media_response(status, description, None);
    response.headers = headers;
    response
}
