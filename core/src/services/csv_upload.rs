//! Plone's CSV uploads (`@aliases`, `@users`): the file comes as the `file` field of a
//! multipart form, as Volto and Plone's forms send it, or as a `text/csv` body. Forms are read
//! with multer, the parser poem itself uses.

use crate::http::{ApiError, ErrorCode};

/// The CSV text of the request, when it is the bulk form.
pub async fn csv_text(content_type: &str, body: &[u8]) -> Result<Option<String>, ApiError> {
    let media = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let bytes = match media.as_str() {
        "text/csv" | "application/csv" => body.to_vec(),
        "multipart/form-data" => form_file(content_type, body).await?,
        _ => return Ok(None),
    };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| ApiError::new(ErrorCode::BadRequest, "The CSV file is not UTF-8 text."))
}

/// The content of the `file` part of a multipart body (a CSV upload, a site's ZIP for
/// `@import`).
pub async fn form_file(content_type: &str, body: &[u8]) -> Result<Vec<u8>, ApiError> {
    let no_file = || ApiError::new(ErrorCode::BadRequest, "No file uploaded: send it as the form field 'file'.");
    let unreadable = |e: multer::Error| ApiError::new(ErrorCode::BadRequest, format!("The form cannot be read: {e}."));
    let boundary = multer::parse_boundary(content_type).map_err(|_| no_file())?;
    // The body is already read (and bounded by the edge): one chunk.
    let chunk = bytes::Bytes::copy_from_slice(body);
    let stream = futures_util::stream::once(async move { Ok::<_, std::convert::Infallible>(chunk) });
    let mut form = multer::Multipart::new(stream, boundary);
    while let Some(field) = form.next_field().await.map_err(unreadable)? {
        if field.name() == Some("file") {
            return Ok(field.bytes().await.map_err(unreadable)?.to_vec());
        }
    }
    Err(no_file())
}

#[cfg(test)]
mod tests {
    use super::csv_text;

    #[tokio::test]
    async fn the_file_field_of_a_multipart_form_is_read() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\n/alt,/neu\r\n--XyZ--\r\n";
        let text = csv_text("multipart/form-data; boundary=XyZ", body).await.ok().flatten();
        assert_eq!(text.as_deref(), Some("/alt,/neu"));
        assert!(csv_text("multipart/form-data; boundary=XyZ", b"--XyZ--").await.is_err());
        assert!(csv_text("multipart/form-data", b"--XyZ--").await.is_err(), "no boundary");
        assert_eq!(csv_text("application/json", b"{}").await.ok().flatten(), None);
    }
}
