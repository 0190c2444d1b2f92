//! Plone's CSV uploads (`@aliases`, `@users`): the file comes as the `file` field of a
//! multipart form, as Volto and Plone's forms send it, or as a `text/csv` body.

use crate::http::{ApiError, ErrorCode};

/// The CSV text of the request, when it is the bulk form.
pub fn csv_text(content_type: &str, body: &[u8]) -> Result<Option<String>, ApiError> {
    let media = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let bytes = match media.as_str() {
        "text/csv" | "application/csv" => body,
        "multipart/form-data" => file_part(content_type, body)?,
        _ => return Ok(None),
    };
    String::from_utf8(bytes.to_vec())
        .map(Some)
        .map_err(|_| ApiError::new(ErrorCode::BadRequest, "The CSV file is not UTF-8 text."))
}

/// The content of the `file` part of a multipart body.
fn file_part<'b>(content_type: &str, body: &'b [u8]) -> Result<&'b [u8], ApiError> {
    let no_file = || ApiError::new(ErrorCode::BadRequest, "No file uploaded: send the CSV as the form field 'file'.");
    let boundary = content_type
        .split(';')
        .filter_map(|p| p.trim().strip_prefix("boundary="))
        .next()
        .map(|b| b.trim_matches('"'))
        .filter(|b| !b.is_empty())
        .ok_or_else(no_file)?;
    let delimiter = format!("--{boundary}");
    split(body, delimiter.as_bytes())
        .into_iter()
        .find_map(|part| {
            let head_end = find(part, b"\r\n\r\n")?;
            let head = String::from_utf8_lossy(&part[..head_end]).to_ascii_lowercase();
            let named_file = head.contains("name=\"file\"");
            let content = &part[head_end + 4..];
            let content = content.strip_suffix(b"\r\n").unwrap_or(content);
            named_file.then_some(content)
        })
        .ok_or_else(no_file)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The parts between the delimiters.
fn split<'b>(mut rest: &'b [u8], delimiter: &[u8]) -> Vec<&'b [u8]> {
    let mut parts = Vec::new();
    while let Some(found) = find(rest, delimiter) {
        rest = &rest[found + delimiter.len()..];
        let end = find(rest, delimiter).unwrap_or(rest.len());
        let part = &rest[..end];
        parts.push(part.strip_prefix(b"\r\n").unwrap_or(part));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::csv_text;

    #[test]
    fn the_file_field_of_a_multipart_form_is_read() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\n/alt,/neu\r\n--XyZ--\r\n";
        let text = csv_text("multipart/form-data; boundary=XyZ", body).ok().flatten();
        assert_eq!(text.as_deref(), Some("/alt,/neu"));
        assert!(csv_text("multipart/form-data; boundary=XyZ", b"--XyZ--").is_err());
        assert_eq!(csv_text("application/json", b"{}").ok().flatten(), None);
    }
}
