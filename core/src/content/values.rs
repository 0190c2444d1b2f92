//! Turns a client's JSON body into a validated [`ChangeSet`], collecting every field error so
//! the client can fix them all at once.

use super::ContentObject;
use super::types::{FieldDef, FieldKind, TypeProfile};
use crate::http::{ApiError, ApiResult, FieldError};
use base64::Engine;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// Keys that serializations carry but clients may not set; sending them back is harmless.
const TEXT_LINE_LIMIT: usize = 1_000;
const TEXT_LIMIT: usize = 1_000_000;
const LIST_ITEM_LIMIT: usize = 255;
/// The setting of a folderish object that names the child shown as its view.
pub const DEFAULT_PAGE: &str = "default_page";
/// Columns of the `content` table that are also fields.
const COLUMN_FIELDS: [&str; 4] = ["title", "description", "effective", "expires"];

/// How missing keys are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A new object: missing fields take their defaults; required ones must be present.
    Create,
    /// PATCH: only the keys sent change.
    Patch,
    /// PUT: like create, for an existing object.
    Replace,
}

/// A file or image upload, written to the blob table with the change.
#[derive(Clone, Debug)]
pub struct BlobUpload {
    /// The field it belongs to.
    pub field: String,
    /// The client's file name.
    pub filename: String,
    /// The MIME type.
    pub content_type: String,
    /// Hex SHA-256 of the bytes.
    pub sha256: String,
    /// The bytes.
    pub data: Vec<u8>,
}

/// Validated changes to an object's fields.
#[derive(Clone, Debug, Default)]
pub struct ChangeSet {
    /// New values; `Value::Null` clears a field.
    pub values: Map<String, Value>,
    /// Blob fields to write.
    pub uploads: Vec<BlobUpload>,
    /// Blob fields to clear.
    pub cleared_blobs: Vec<String>,
}

impl ChangeSet {
    /// Whether nothing would change.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.uploads.is_empty() && self.cleared_blobs.is_empty()
    }

    /// Writes the values into `object`, columns and JSON fields alike.
    pub fn apply(&self, object: &mut ContentObject) {
        for (name, value) in &self.values {
            match name.as_str() {
                "title" => object.title = value.as_str().unwrap_or_default().to_owned(),
                "description" => object.description = value.as_str().unwrap_or_default().to_owned(),
                "effective" => object.effective = value.as_str().and_then(parse_stored_time),
                "expires" => object.expires = value.as_str().and_then(parse_stored_time),
                _ if value.is_null() => {
                    object.fields.remove(name);
                }
                _ => {
                    object.fields.insert(name.clone(), value.clone());
                }
            }
        }
    }
}

fn parse_stored_time(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text).ok().map(|t| t.with_timezone(&Utc))
}

/// Validates `body` against `profile`. `consumed` lists keys the caller handles itself
/// (such as `id` or `ordering`) and `read_only` the keys serializers add
/// ([`crate::plugin::Registry::read_only_keys`]), so neither is reported as unknown.
pub fn parse_changes(
    profile: &TypeProfile,
    body: &Map<String, Value>,
    mode: Mode,
    consumed: &[&str],
    read_only: &[&str],
) -> ApiResult<ChangeSet> {
    let mut changes = ChangeSet::default();
    let mut errors = Vec::new();
    for (key, value) in body {
        if read_only.contains(&key.as_str()) || consumed.contains(&key.as_str()) {
            continue;
        }
        if key == "layout" {
            match value {
                Value::String(s) if !s.is_empty() && s.len() <= 100 => {
                    changes.values.insert("layout".into(), value.clone());
                }
                _ => errors.push(FieldError::new("layout", "The layout must be a non-empty view name.")),
            }
            continue;
        }
        if key == DEFAULT_PAGE && profile.folderish {
            match value {
                Value::Null => {
                    changes.values.insert(DEFAULT_PAGE.into(), Value::Null);
                }
                Value::String(id) if super::ids::problem(id).is_none() => {
                    changes.values.insert(DEFAULT_PAGE.into(), value.clone());
                }
                _ => errors.push(FieldError::new(DEFAULT_PAGE, "The default page must be the id of a child or null.")),
            }
            continue;
        }
        let Some(field) = profile.field(key) else {
            // Columns every object has (`effective`…) are serialized for every type; where
            // the type has no such field they are read-only like any serializer's key.
            if !is_column(key) {
                errors.push(FieldError::new(key, format!("'{key}' is not a field of {}.", profile.id)));
            }
            continue;
        };
        match parse_value(field, value) {
            Ok(Parsed::Value(v)) => {
                if v.is_null() && field.required {
                    errors.push(FieldError::new(
                        key,
                        format!("{key} is a required field. Setting it to null is not allowed."),
                    ));
                } else {
                    if v.is_null() && field.kind.is_blob() {
                        changes.cleared_blobs.push(key.clone());
                    }
                    changes.values.insert(key.clone(), v);
                }
            }
            Ok(Parsed::Upload(upload, metadata)) => {
                changes.values.insert(key.clone(), metadata);
                changes.uploads.push(upload);
            }
            Ok(Parsed::Unchanged) => {}
            Err(message) => errors.push(FieldError::new(key, message)),
        }
    }
    if mode != Mode::Patch {
        for field in &profile.fields {
            if changes.values.contains_key(&field.name) || body.contains_key(&field.name) {
                continue;
            }
            let default = field.default_json();
            if field.required && default.is_null() {
                errors.push(FieldError::new(&field.name, format!("{} is a required field.", field.name)));
            } else if mode == Mode::Replace || !default.is_null() {
                if default.is_null() && field.kind.is_blob() {
                    changes.cleared_blobs.push(field.name.clone());
                }
                changes.values.insert(field.name.clone(), default);
            }
        }
    }
    if errors.is_empty() { Ok(changes) } else { Err(ApiError::validation(errors)) }
}

/// Whether a field is stored as a column rather than in the JSON fields.
pub fn is_column(name: &str) -> bool {
    COLUMN_FIELDS.contains(&name)
}

enum Parsed {
    Value(Value),
    Upload(BlobUpload, Value),
    Unchanged,
}

fn parse_value(field: &FieldDef, value: &Value) -> Result<Parsed, String> {
    if value.is_null() {
        return Ok(Parsed::Value(Value::Null));
    }
    let limit = field.max_length;
    let parsed = match field.kind {
        FieldKind::TextLine => {
            let text = expect_str(value)?;
            if text.contains(['\n', '\r']) {
                return Err("A text line must not contain line breaks.".into());
            }
            check_length(text, limit.unwrap_or(TEXT_LINE_LIMIT))?;
            check_pattern(field, text)?;
            json!(text)
        }
        FieldKind::Text => {
            let text = expect_str(value)?;
            check_length(text, limit.unwrap_or(TEXT_LIMIT))?;
            check_pattern(field, text)?;
            json!(text)
        }
        FieldKind::RichText => rich_text(value, limit.unwrap_or(TEXT_LIMIT))?,
        FieldKind::Bool => json!(value.as_bool().ok_or("Expected true or false.")?),
        FieldKind::Int => json!(value.as_i64().ok_or("Expected a whole number.")?),
        FieldKind::Float => json!(value.as_f64().ok_or("Expected a number.")?),
        FieldKind::Datetime => json!(format_time(parse_datetime(expect_str(value)?)?)),
        FieldKind::Date => {
            let text = expect_str(value)?;
            NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| "Expected a date like 2026-01-31.")?;
            json!(text)
        }
        FieldKind::List => {
            let items = value.as_array().ok_or("Expected a list of strings.")?;
            let mut out: Vec<&str> = Vec::with_capacity(items.len());
            for item in items {
                let text = item.as_str().ok_or("Expected a list of strings.")?;
                check_length(text, LIST_ITEM_LIMIT)?;
                if !out.contains(&text) {
                    out.push(text);
                }
            }
            json!(out)
        }
        FieldKind::Choice => {
            let text = expect_str(value)?;
            if !field.vocabulary.iter().any(|v| v == text) {
                return Err(format!("'{text}' is not one of: {}.", field.vocabulary.join(", ")));
            }
            json!(text)
        }
        FieldKind::URI => {
            let text = expect_str(value)?;
            check_length(text, limit.unwrap_or(TEXT_LINE_LIMIT * 2))?;
            check_url(text)?;
            check_pattern(field, text)?;
            json!(text)
        }
        FieldKind::File | FieldKind::Image => return blob(field, value),
        FieldKind::Mapping => {
            let map = value.as_object().ok_or("Expected an object of plain values.")?;
            super::layout::check_config(map)?;
            Value::Object(map.clone())
        }
        FieldKind::PageLayout => super::layout::parse(value)?.to_value(),
        FieldKind::Plugin(kind) => (kind.parse)(field, value)?,
        FieldKind::RelationChoice => json!(reference(value)?),
        FieldKind::RelationList => {
            let items = value.as_array().ok_or(RELATION_LIST_EXPECTED)?;
            let mut out: Vec<String> = Vec::with_capacity(items.len());
            for item in items {
                let reference = reference(item)?;
                if !out.contains(&reference) {
                    out.push(reference);
                }
            }
            json!(out)
        }
    };
    Ok(Parsed::Value(parsed))
}

const RELATION_LIST_EXPECTED: &str = "Expected a list of references: UIDs, paths, URLs or objects with a UID.";

/// A relation target as the client named it: a UID, a path, a URL, or a summary with `UID` or
/// `@id`. The write operation resolves it to a uid.
fn reference(value: &Value) -> Result<String, String> {
    let text = match value {
        Value::String(text) => text.as_str(),
        Value::Object(map) => map
            .get("UID")
            .or_else(|| map.get("@id"))
            .and_then(Value::as_str)
            .ok_or("A reference object needs a 'UID' or '@id' string.")?,
        _ => return Err("Expected a reference: a UID, a path, a URL or an object with a UID.".into()),
    };
    let text = text.trim();
    if text.is_empty() {
        return Err("A reference must not be empty.".into());
    }
    check_length(text, TEXT_LINE_LIMIT * 2)?;
    Ok(text.to_owned())
}

fn check_pattern(field: &FieldDef, text: &str) -> Result<(), String> {
    if text.is_empty() || field.matches_pattern(text) {
        return Ok(());
    }
    Err(field.pattern_hint.clone().unwrap_or_else(|| "The value does not have the expected form.".to_owned()))
}

fn expect_str(value: &Value) -> Result<&str, String> {
    value.as_str().ok_or_else(|| "Expected a string.".to_owned())
}

fn check_length(text: &str, limit: usize) -> Result<(), String> {
    if text.chars().count() > limit {
        return Err(format!("The text is longer than {limit} characters."));
    }
    Ok(())
}

fn rich_text(value: &Value, limit: usize) -> Result<Value, String> {
    let (data, content_type) = match value {
        Value::String(s) => (s.as_str(), "text/html"),
        Value::Object(map) => (
            map.get("data").and_then(Value::as_str).ok_or("Rich text needs a 'data' string.")?,
            map.get("content-type").and_then(Value::as_str).unwrap_or("text/html"),
        ),
        _ => return Err("Expected rich text: a string or {data, content-type}.".into()),
    };
    check_length(data, limit)?;
    let html = match content_type {
        "text/html" => crate::content::markup::sanitize_for_storage(data),
        "text/plain" => format!("<p>{}</p>", ammonia::clean_text(data)),
        other => return Err(format!("Unsupported rich text content-type '{other}'.")),
    };
    Ok(json!({"data": html, "content-type": "text/html", "encoding": "utf-8"}))
}

/// Parses a client timestamp: with an offset, naive (taken as UTC) or a bare date.
pub fn parse_datetime(text: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(t.with_timezone(&Utc));
    }
    for format in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(text, format) {
            return Ok(t.and_utc());
        }
    }
    if let Ok(d) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return Ok(d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc());
    }
    Err(format!("'{text}' is not an ISO 8601 date and time."))
}

/// The wire and storage form of a timestamp: UTC, seconds, `+00:00`.
pub fn format_time(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%dT%H:%M:%S+00:00").to_string()
}

const SAFE_SCHEMES: [&str; 6] = ["http", "https", "mailto", "tel", "ftp", "ftps"];

fn check_url(text: &str) -> Result<(), String> {
    let trimmed = text.trim();
    if trimmed.starts_with("${") {
        return Ok(());
    }
    let scheme_end = trimmed.find([':', '/', '?', '#']);
    if let Some(pos) = scheme_end
        && trimmed[pos..].starts_with(':')
    {
        let scheme = trimmed[..pos].to_ascii_lowercase();
        if !SAFE_SCHEMES.contains(&scheme.as_str()) {
            return Err(format!("The URL scheme '{scheme}' is not allowed."));
        }
    }
    Ok(())
}

fn blob(field: &FieldDef, value: &Value) -> Result<Parsed, String> {
    let map = value.as_object().ok_or("Expected a file object {data, encoding, filename, content-type}.")?;
    let Some(data) = map.get("data") else {
        if map.contains_key("download") {
            return Ok(Parsed::Unchanged);
        }
        return Err("A file upload needs a 'data' key.".into());
    };
    let data = data.as_str().ok_or("'data' must be a base64 string.")?;
    match map.get("encoding").and_then(Value::as_str) {
        None | Some("base64") => {}
        Some(other) => return Err(format!("Unsupported encoding '{other}'; use base64.")),
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|_| "'data' is not valid base64.".to_owned())?;
    let filename = map.get("filename").and_then(Value::as_str).unwrap_or(&field.name).to_owned();
    if filename.is_empty() || filename.len() > 255 || filename.contains(['/', '\\', '\0']) {
        return Err("The filename must be 1 to 255 characters without slashes.".into());
    }
    let content_type = map
        .get("content-type")
        .and_then(Value::as_str)
        .filter(|ct| !ct.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| guess_content_type(&filename).to_owned());
    if !content_type.contains('/') || content_type.len() > 255 || content_type.contains(['\r', '\n']) {
        return Err(format!("'{content_type}' is not a MIME type."));
    }
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let mut metadata = json!({
        "filename": filename,
        "content-type": content_type,
        "size": bytes.len(),
        "sha256": sha256,
    });
    if field.kind == FieldKind::Image {
        let size =
            imagesize::blob_size(&bytes).map_err(|_| "The data is not an image in a known format.".to_owned())?;
        metadata["width"] = json!(size.width);
        metadata["height"] = json!(size.height);
    }
    let upload = BlobUpload { field: field.name.clone(), filename, content_type, sha256, data: bytes };
    Ok(Parsed::Upload(upload, metadata))
}

fn guess_content_type(filename: &str) -> &'static str {
    let ext = filename.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "txt" => "text/plain",
        "html" | "htm" => "text/html",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        "mp3" => "audio/mpeg",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "json" => "application/json",
        "csv" => "text/csv",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_script_urls() {
        assert!(check_url("javascript:alert(1)").is_err());
        assert!(check_url(" JavaScript:alert(1)").is_err());
        assert!(check_url("https://example.org/a:b").is_ok());
        assert!(check_url("/relative/path").is_ok());
        assert!(check_url("${portal_url}/doc").is_ok());
    }

    #[test]
    fn parses_naive_and_offset_times() {
        assert_eq!(
            format_time(parse_datetime("2026-01-02T03:04:05+01:00").unwrap_or_default()),
            "2026-01-02T02:04:05+00:00"
        );
        assert_eq!(format_time(parse_datetime("2026-01-02T03:04").unwrap_or_default()), "2026-01-02T03:04:00+00:00");
        assert!(parse_datetime("yesterday").is_err());
    }
}
