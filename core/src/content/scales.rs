//! Image scales: the named sizes upstream clients ask for, their dimensions (computed from the
//! original's size alone, so serializers need no decoding) and the resampling itself.

/// Plone 6's default scales: name and bounding box (width, height).
pub const SCALES: [(&str, u32, u32); 11] = [
    ("listing", 16, 16),
    ("icon", 32, 32),
    ("tile", 64, 64),
    ("thumb", 128, 128),
    ("mini", 200, 65536),
    ("preview", 400, 65536),
    ("teaser", 600, 65536),
    ("large", 800, 65536),
    ("larger", 1000, 65536),
    ("great", 1200, 65536),
    ("huge", 1600, 65536),
];

/// The largest original we decode; bigger ones (or decompression bombs) are refused.
const MAX_SIDE: u32 = 12_000;
const MAX_DECODE_BYTES: u64 = 512 * 1024 * 1024;

/// The bounding box of a scale name.
pub fn scale_box(name: &str) -> Option<(u32, u32)> {
    SCALES.iter().find(|(n, _, _)| *n == name).map(|(_, w, h)| (*w, *h))
}

/// The size of an image of `width`×`height` scaled into `bounds`, never enlarged.
pub fn scaled_size(width: u32, height: u32, bounds: (u32, u32)) -> (u32, u32) {
    if width == 0 || height == 0 {
        return (width, height);
    }
    let factor = (f64::from(bounds.0) / f64::from(width)).min(f64::from(bounds.1) / f64::from(height)).min(1.0);
    let scale = |side: u32| ((f64::from(side) * factor).round() as u32).max(1);
    (scale(width), scale(height))
}

/// A rendered scale.
pub struct RenderedScale {
    /// The encoded bytes.
    pub data: Vec<u8>,
    /// Their MIME type.
    pub content_type: &'static str,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// Decodes `original` (within size limits), resamples it into `bounds` and encodes it as JPEG
/// when the original was one, else as PNG (keeping transparency).
pub fn render_scale(original: &[u8], bounds: (u32, u32)) -> Result<RenderedScale, String> {
    let mut reader = image::ImageReader::new(std::io::Cursor::new(original))
        .with_guessed_format()
        .map_err(|e| format!("unreadable image: {e}"))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    let is_jpeg = reader.format() == Some(image::ImageFormat::Jpeg);
    let decoded = reader.decode().map_err(|e| format!("cannot decode image: {e}"))?;
    let (width, height) = scaled_size(decoded.width(), decoded.height(), bounds);
    let resized = if (width, height) == (decoded.width(), decoded.height()) {
        decoded
    } else {
        decoded.resize_exact(width, height, image::imageops::FilterType::Triangle)
    };
    let mut data = Vec::new();
    let (format, content_type, image) = if is_jpeg {
        (image::ImageFormat::Jpeg, "image/jpeg", image::DynamicImage::ImageRgb8(resized.to_rgb8()))
    } else {
        (image::ImageFormat::Png, "image/png", resized)
    };
    image.write_to(&mut std::io::Cursor::new(&mut data), format).map_err(|e| format!("cannot encode scale: {e}"))?;
    Ok(RenderedScale { data, content_type, width, height })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_fit_the_box_keep_the_aspect_and_never_enlarge() {
        assert_eq!(scaled_size(1000, 500, (128, 128)), (128, 64));
        assert_eq!(scaled_size(500, 1000, (400, 65536)), (400, 800));
        assert_eq!(scaled_size(100, 50, (800, 65536)), (100, 50));
        assert_eq!(scaled_size(3000, 1, (16, 16)), (16, 1));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(render_scale(b"not an image", (128, 128)).is_err());
        assert!(render_scale(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0], (128, 128)).is_err());
    }
}
