//! One field's value from a client: checked and brought into its stored form by kind (text
//! lengths and patterns, dates, vocabularies, URLs without script schemes, rich text through
//! the HTML policy, base64 uploads with their metadata, relation references, plugin kinds).

use super::named_vocabularies;
use super::types::{FieldDef, FieldKind};
use super::values::{BlobUpload, format_time, parse_datetime};
use base64::Engine;
use chrono::NaiveDate;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const TEXT_LINE_LIMIT: usize = 1_000;
const TEXT_LIMIT: usize = 1_000_000;
const LIST_ITEM_LIMIT: usize = 255;

/// What a client's value becomes.
pub(super) enum Parsed {
    Value(Value),
    Upload(BlobUpload, Value),
    Unchanged,
}

pub(super) fn parse_value(field: &FieldDef, value: &Value) -> Result<Parsed, String> {
    let value = if field.widget.as_deref() == Some(super::language::LANGUAGE_WIDGET) {
        super::language::code(value)
    } else {
        value
    };
    if value.is_null() {
        return Ok(Parsed::Value(Value::Null));
    }
    let limit = field.max_length;
    let parsed = match field.kind {
        FieldKind::TextLine => text(field, value, true)?,
        FieldKind::Text => text(field, value, false)?,
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
            let items = match field.vocabulary_name.as_deref().and_then(named_vocabularies::terms) {
                Some(terms) => named_list(terms, value)?,
                None => list(value)?,
            };
            let unknown = items
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .find(|item| !field.vocabulary.is_empty() && !field.vocabulary.iter().any(|v| v == item));
            if let Some(item) = unknown {
                return Err(format!("'{item}' is not one of: {}.", field.vocabulary.join(", ")));
            }
            items
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
            check_min_length(field, text)?;
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
        FieldKind::Blocks => super::volto_blocks::parse_blocks(&json_value(value)?)?,
        FieldKind::BlocksLayout => super::volto_blocks::parse_layout(&json_value(value)?)?,
        FieldKind::Plugin(kind) => (kind.parse)(field, value)?,
        FieldKind::RelationChoice => json!(reference(value)?),
        FieldKind::RelationList => relation_list(value)?,
    };
    Ok(Parsed::Value(parsed))
}

/// The largest JSON value, serialized, and its deepest nesting.
const JSON_LIMIT: usize = 1_000_000;
const JSON_DEPTH: usize = 32;

/// Any JSON value within bounds (size and nesting, counted without recursion).
fn json_value(value: &Value) -> Result<Value, String> {
    let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
    while let Some((current, depth)) = stack.pop() {
        if depth > JSON_DEPTH {
            return Err(format!("The value nests deeper than {JSON_DEPTH} levels."));
        }
        match current {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    if value.to_string().len() > JSON_LIMIT {
        return Err(format!("The value is larger than {JSON_LIMIT} bytes."));
    }
    Ok(value.clone())
}

/// Plain text: one line (`line`) or several, within the field's length and pattern.
fn text(field: &FieldDef, value: &Value, line: bool) -> Result<Value, String> {
    let text = expect_str(value)?;
    if line && text.contains(['\n', '\r']) {
        return Err("A text line must not contain line breaks.".into());
    }
    let limit = if line { TEXT_LINE_LIMIT } else { TEXT_LIMIT };
    check_length(text, field.max_length.unwrap_or(limit))?;
    check_min_length(field, text)?;
    check_pattern(field, text)?;
    Ok(json!(text))
}

/// A text shorter than the field's `min_length`; an empty one is left to `required`.
fn check_min_length(field: &FieldDef, text: &str) -> Result<(), String> {
    match field.min_length {
        Some(min) if !text.is_empty() && text.chars().count() < min => {
            Err(format!("The text is shorter than {min} characters."))
        }
        _ => Ok(()),
    }
}

/// Unique short strings, in the order given.
fn list(value: &Value) -> Result<Value, String> {
    let items = value.as_array().ok_or("Expected a list of strings.")?;
    let mut out: Vec<&str> = Vec::with_capacity(items.len());
    for item in items {
        let text = item.as_str().ok_or("Expected a list of strings.")?;
        check_length(text, LIST_ITEM_LIMIT)?;
        if !out.contains(&text) {
            out.push(text);
        }
    }
    Ok(json!(out))
}

/// Unique tokens of a named vocabulary, given as tokens or as the terms a GET answers.
fn named_list(terms: &[(&str, &str)], value: &Value) -> Result<Value, String> {
    const EXPECTED: &str = "Expected a list of tokens or of {token, title} terms.";
    let items = value.as_array().ok_or(EXPECTED)?;
    let mut out: Vec<&str> = Vec::with_capacity(items.len());
    for item in items {
        let token = named_vocabularies::token_of(item).ok_or(EXPECTED)?;
        if !terms.iter().any(|(known, _)| *known == token) {
            check_length(token, LIST_ITEM_LIMIT)?;
            return Err(format!("'{token}' is not a term of this field's vocabulary."));
        }
        if !out.contains(&token) {
            out.push(token);
        }
    }
    Ok(json!(out))
}

/// Unique references, in the order given.
fn relation_list(value: &Value) -> Result<Value, String> {
    let items = value.as_array().ok_or(RELATION_LIST_EXPECTED)?;
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let reference = reference(item)?;
        if !out.contains(&reference) {
            out.push(reference);
        }
    }
    Ok(json!(out))
}

const RELATION_LIST_EXPECTED: &str = "Expected a list of references: UIDs, paths, URLs or objects with a UID.";

/// A relation target as the client named it: a UID, a path, a URL, or a summary with `UID` or
/// `@id`. The write operation resolves it to a uid. An empty `UID` counts as none: Volto's
/// object browser sends `{"@id": "/page-2", "UID": ""}` for a page it found by path, and Plone
/// resolves it by `@id`.
fn reference(value: &Value) -> Result<String, String> {
    fn named<'a>(map: &'a serde_json::Map<String, Value>, key: &str) -> Option<&'a str> {
        map.get(key).and_then(Value::as_str).map(str::trim).filter(|text| !text.is_empty())
    }
    let text = match value {
        Value::String(text) => text.as_str(),
        Value::Object(map) => named(map, "UID")
            .or_else(|| named(map, "@id"))
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
    let depth = crate::content::markup::nesting_depth(data);
    if depth > crate::content::markup::MAX_NESTING {
        return Err(format!(
            "The text nests elements {depth} levels deep; at most {} are allowed.",
            crate::content::markup::MAX_NESTING
        ));
    }
    let html = match content_type {
        "text/html" => crate::content::markup::sanitize_for_storage(data),
        "text/plain" => format!("<p>{}</p>", plain_text_as_html(data)),
        other => return Err(format!("Unsupported rich text content-type '{other}'.")),
    };
    Ok(json!({"data": html, "content-type": "text/html", "encoding": "utf-8"}))
}

/// Plain text as the content of an HTML paragraph, as Plone's text/plain transform makes it:
/// the markup characters escaped, line breaks kept as `<br />`.
fn plain_text_as_html(text: &str) -> String {
    let mut html = String::with_capacity(text.len() + 16);
    for ch in text.chars() {
        match ch {
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' => html.push_str("&quot;"),
            '\'' => html.push_str("&#x27;"),
            '\n' => html.push_str("<br />"),
            '\r' => {}
            c => html.push(c),
        }
    }
    html
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
    let content_type = map.get("content-type").and_then(Value::as_str);
    let (upload, metadata) = file_from_bytes(field, bytes, filename, content_type)?;
    Ok(Parsed::Upload(upload, metadata))
}

/// A file for a blob field from its bytes, checked as a JSON upload is (file name, media type,
/// an image's format): what is stored, and the field's value.
pub(super) fn file_from_bytes(
    field: &FieldDef,
    bytes: Vec<u8>,
    filename: String,
    content_type: Option<&str>,
) -> Result<(BlobUpload, Value), String> {
    if filename.is_empty() || filename.len() > 255 || filename.contains(['/', '\\', '\0']) {
        return Err("The filename must be 1 to 255 characters without slashes.".into());
    }
    let content_type = content_type
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
    Ok((upload, metadata))
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
    fn plain_text_becomes_a_paragraph_with_markup_escaped_and_spaces_kept() {
        let html =
            rich_text(&json!({"data": "If you're <b>here</b> & there\nnext", "content-type": "text/plain"}), 1000);
        assert_eq!(
            html.unwrap_or_default()["data"],
            "<p>If you&#x27;re &lt;b&gt;here&lt;/b&gt; &amp; there<br />next</p>"
        );
    }
}
