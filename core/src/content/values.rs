//! Turns a client's JSON body into a validated [`ChangeSet`], collecting every field error so
//! the client can fix them all at once.

use super::ContentObject;
use super::field_input::{Parsed, parse_value};
use super::types::TypeProfile;
use crate::error::{ApiError, ApiResult, ErrorCode, FieldError};
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde_json::{Map, Value};

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

/// A file sent other than as base64 JSON (a resumable upload) for `field`, or the type's first
/// file or image field: the changes that store it, checked as a JSON upload is.
pub fn file_change(
    profile: &TypeProfile,
    field: Option<&str>,
    bytes: Vec<u8>,
    filename: String,
    content_type: Option<&str>,
) -> ApiResult<ChangeSet> {
    let field = match field {
        Some(name) => profile.field(name).filter(|f| f.kind.is_blob()),
        None => profile.primary_blob_field(),
    }
    .ok_or_else(|| {
        let named = field.map_or_else(|| "a file field".to_owned(), |name| format!("the file field '{name}'"));
        ApiError::new(ErrorCode::BadRequest, format!("{} has no {named}.", profile.id))
    })?;
    let (upload, metadata) = super::field_input::file_from_bytes(field, bytes, filename, content_type)
        .map_err(|message| ApiError::validation(vec![FieldError::new(&field.name, message)]))?;
    let mut changes = ChangeSet::default();
    changes.values.insert(field.name.clone(), metadata);
    changes.uploads.push(upload);
    Ok(changes)
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
        // A plugin may make a key core only shows into a field (comments' `allow_discussion`).
        let shown_only = read_only.contains(&key.as_str()) && profile.field(key).is_none();
        if shown_only || consumed.contains(&key.as_str()) {
            continue;
        }
        if let Some(setting) = setting(profile, key, value) {
            match setting {
                Ok(value) => {
                    changes.values.insert(key.clone(), value);
                }
                Err(error) => errors.push(error),
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
            Ok(Parsed::Value(v)) if v.is_null() && field.required => errors
                .push(FieldError::new(key, format!("{key} is a required field. Setting it to null is not allowed."))),
            Ok(Parsed::Value(v)) => {
                if v.is_null() && field.kind.is_blob() {
                    changes.cleared_blobs.push(key.clone());
                }
                changes.values.insert(key.clone(), v);
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
        add_defaults(profile, body, mode, &mut changes, &mut errors);
    }
    if errors.is_empty() { Ok(changes) } else { Err(ApiError::validation(errors)) }
}

/// A setting that is not a field (`layout`, a folder's `default_page`), checked; `None` for
/// every other key.
fn setting(profile: &TypeProfile, key: &str, value: &Value) -> Option<Result<Value, FieldError>> {
    if !is_setting(profile, key) {
        return None;
    }
    match key {
        "layout" => Some(match value {
            Value::String(s) if !s.is_empty() && s.len() <= 100 => Ok(value.clone()),
            _ => Err(FieldError::new("layout", "The layout must be a non-empty view name.")),
        }),
        DEFAULT_PAGE => Some(match value {
            Value::Null => Ok(Value::Null),
            Value::String(id) if super::ids::problem(id).is_none() => Ok(value.clone()),
            _ => Err(FieldError::new(DEFAULT_PAGE, "The default page must be the id of a child or null.")),
        }),
        _ => None,
    }
}

/// The fields a create or a replace did not send: their defaults, or an error for required
/// ones without a default. A replace clears the others.
fn add_defaults(
    profile: &TypeProfile,
    body: &Map<String, Value>,
    mode: Mode,
    changes: &mut ChangeSet,
    errors: &mut Vec<FieldError>,
) {
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

/// Whether `key` is a setting of objects of `profile` rather than a field: the view
/// (`layout`) and, for folderish types, the default page.
pub fn is_setting(profile: &TypeProfile, key: &str) -> bool {
    key == "layout" || (key == DEFAULT_PAGE && profile.folderish)
}

/// Whether a field is stored as a column rather than in the JSON fields.
pub fn is_column(name: &str) -> bool {
    COLUMN_FIELDS.contains(&name)
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

/// Why a value stored under `before` no longer fits the field as `after` defines it, if it
/// does not: a site owner changing a field's kind or limits learns which objects stand in the
/// way. Values of the kinds whose stored form is not their input form (files, rich text,
/// references, blocks) are only refused when the kind changes.
pub fn stored_value_misfit(before: &super::FieldDef, after: &super::FieldDef, stored: &Value) -> Option<String> {
    use super::FieldKind;
    let stored_form = |kind: FieldKind| {
        kind.is_blob()
            || kind.is_relation()
            || matches!(
                kind,
                FieldKind::RichText
                    | FieldKind::Blocks
                    | FieldKind::BlocksLayout
                    | FieldKind::PageLayout
                    | FieldKind::Plugin(_)
            )
    };
    if before.kind == after.kind && stored_form(after.kind) {
        return None;
    }
    if stored_form(before.kind) || stored_form(after.kind) {
        return Some(format!("a stored {} value cannot become {}", before.kind_name, after.kind_name));
    }
    match parse_value(after, stored) {
        Ok(Parsed::Value(_) | Parsed::Unchanged) => None,
        Ok(Parsed::Upload(..)) => Some("a stored value would become a file".to_owned()),
        Err(message) => Some(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
