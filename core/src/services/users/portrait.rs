//! The `portrait` of `PATCH @users/<id>`: plone.restapi's
//! `{"data", "encoding": "base64", "filename", "content-type", "scale"}`, null to remove it.
//! Only raster images are kept (PNG, JPEG, GIF, WebP, recognised by their bytes, not by the
//! type the client names), so a portrait served from the site's origin can never be a script.

use crate::content::scales::render_scale;
use crate::http::{ApiError, ApiResult, FieldError};
use crate::store::StoredPortrait;
use base64::Engine;
use image::ImageFormat;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The largest portrait taken, decoded.
pub const MAX_PORTRAIT_BYTES: usize = 2 * 1024 * 1024;
/// The largest side a portrait may have, so decoding one stays cheap.
const MAX_SIDE: u32 = 5_000;
/// The box `scale: true` fits a portrait into, as Plone's `scale_image` does.
const SCALED: (u32, u32) = (200, 200);

/// What a `PATCH` does to a user's portrait.
pub enum PortraitChange {
    /// Leave it: the key is missing, or it is the portrait's own URL that GET answered.
    Keep,
    /// Remove it (`null`).
    Remove,
    /// Replace it.
    Set(StoredPortrait),
}

/// Reads the `portrait` value; `own_url` is the URL GET gives the user's portrait, which a
/// form sends back unchanged.
pub async fn portrait_change(
    value: Option<&Value>,
    own_url: &str,
    errors: &mut Vec<FieldError>,
) -> ApiResult<PortraitChange> {
    let refuse = |errors: &mut Vec<FieldError>, message: String| {
        errors.push(FieldError::new("portrait", message));
        Ok(PortraitChange::Keep)
    };
    let fields = match value {
        None => return Ok(PortraitChange::Keep),
        Some(Value::Null) => return Ok(PortraitChange::Remove),
        Some(Value::String(url)) if url == own_url => return Ok(PortraitChange::Keep),
        Some(Value::Object(fields)) => fields,
        Some(_) => {
            return refuse(errors, "Expected {\"data\", \"encoding\", \"filename\", \"content-type\"} or null.".into());
        }
    };
    let text = |key: &str| fields.get(key).and_then(Value::as_str);
    if text("encoding").is_some_and(|e| e != "base64") {
        return refuse(errors, "The portrait's encoding must be base64.".into());
    }
    let Some(encoded) = text("data") else {
        return refuse(errors, "The portrait needs its data, base64-encoded.".into());
    };
    // Four base64 characters per three bytes: anything longer cannot fit the limit.
    if encoded.len() > MAX_PORTRAIT_BYTES / 3 * 4 + 4 {
        return refuse(errors, too_large());
    }
    let Ok(data) = base64::engine::general_purpose::STANDARD.decode(encoded.trim()) else {
        return refuse(errors, "The portrait's data is not valid base64.".into());
    };
    if data.len() > MAX_PORTRAIT_BYTES {
        return refuse(errors, too_large());
    }
    let filename = text("filename").unwrap_or("portrait").chars().take(255).collect::<String>();
    let scale = fields.get("scale").is_some_and(|s| s == true);
    let checked = tokio::task::spawn_blocking(move || checked_image(data, scale)).await.map_err(ApiError::internal)?;
    match checked {
        Ok((content_type, data)) => {
            let sha256 = hex::encode(Sha256::digest(&data));
            Ok(PortraitChange::Set(StoredPortrait { content_type, filename, sha256, data }))
        }
        Err(message) => refuse(errors, message),
    }
}

fn too_large() -> String {
    format!("A portrait may have at most {} MiB.", MAX_PORTRAIT_BYTES / 1024 / 1024)
}

/// The image's MIME type and bytes (scaled into [`SCALED`] when asked), or why it is refused.
fn checked_image(data: Vec<u8>, scale: bool) -> Result<(String, Vec<u8>), String> {
    let refused = || "The portrait must be a PNG, JPEG, GIF or WebP image.".to_owned();
    let format = image::guess_format(&data).map_err(|_| refused())?;
    let content_type = match format {
        ImageFormat::Png => "image/png",
        ImageFormat::Jpeg => "image/jpeg",
        ImageFormat::Gif => "image/gif",
        ImageFormat::WebP => "image/webp",
        _ => return Err(refused()),
    };
    let (width, height) = image::ImageReader::with_format(std::io::Cursor::new(&data), format)
        .into_dimensions()
        .map_err(|e| format!("The portrait cannot be read: {e}"))?;
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(format!("A portrait may be at most {MAX_SIDE} pixels wide and high."));
    }
    if !scale {
        return Ok((content_type.to_owned(), data));
    }
    let rendered = render_scale(&data, SCALED).map_err(|e| format!("The portrait cannot be scaled: {e}"))?;
    Ok((rendered.content_type.to_owned(), rendered.data))
}
