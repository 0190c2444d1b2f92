//! Plone's bulk form of `POST <site>/@aliases`: a CSV file (uploaded as the `file` field of a
//! multipart form, or sent as a `text/csv` body) with one alias per line:
//! `old path,new path[,date[,manual]]`, comma- or semicolon-separated.

use super::paths::MAX_ALIASES;
use crate::http::{ApiError, ErrorCode};

/// One line of the file.
pub struct CsvAlias {
    /// The alias (site-relative path).
    pub path: String,
    /// Where it leads (site-relative path or URL).
    pub target: String,
    /// When it was made, if given.
    pub datetime: Option<String>,
}

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

/// The aliases of the file, or every line that is not one.
pub fn parse(text: &str) -> Result<Vec<CsvAlias>, Vec<String>> {
    let mut aliases = Vec::new();
    let mut errors = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let separator = if line.contains(';') && !line.contains(',') { ';' } else { ',' };
        let cells: Vec<&str> = line.split(separator).map(|c| c.trim().trim_matches('"')).collect();
        match cells.as_slice() {
            [path, target, rest @ ..] if !path.is_empty() && !target.is_empty() && rest.len() <= 2 => {
                aliases.push(CsvAlias {
                    path: (*path).to_owned(),
                    target: (*target).to_owned(),
                    datetime: rest.first().filter(|d| !d.is_empty()).map(|d| (*d).to_owned()),
                });
            }
            _ => errors.push(format!("Line {}: expected 'old path,new path[,date[,manual]]'.", number + 1)),
        }
        if aliases.len() > MAX_ALIASES {
            errors.push(format!("A file adds at most {MAX_ALIASES} aliases."));
            break;
        }
    }
    if errors.is_empty() { Ok(aliases) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::{csv_text, parse};

    #[test]
    fn lines_become_aliases_and_bad_lines_are_named() {
        let aliases = parse("/alt,/neu\n\n/a;/b;2026-01-01T00:00:00Z\n").unwrap_or_default();
        assert_eq!(aliases.len(), 2);
        assert_eq!((aliases[1].path.as_str(), aliases[1].datetime.as_deref()), ("/a", Some("2026-01-01T00:00:00Z")));
        assert_eq!(
            parse("/nur-eins\n").err().map(|e| e[0].clone()).unwrap_or_default(),
            "Line 1: expected 'old path,new path[,date[,manual]]'."
        );
    }

    #[test]
    fn the_file_field_of_a_multipart_form_is_read() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\n/alt,/neu\r\n--XyZ--\r\n";
        let text = csv_text("multipart/form-data; boundary=XyZ", body).ok().flatten();
        assert_eq!(text.as_deref(), Some("/alt,/neu"));
        assert!(csv_text("multipart/form-data; boundary=XyZ", b"--XyZ--").is_err());
        assert_eq!(csv_text("application/json", b"{}").ok().flatten(), None);
    }
}
