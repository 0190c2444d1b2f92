//! What core's registry records must be beyond their kind ([`crate::records::RecordDef::check`]):
//! each check names what is wrong, so a control panel can show it next to the field.

use serde_json::Value;
use std::str::FromStr;

/// The text of a text record (its kind was checked first).
fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

/// One line of at most 1,000 characters: settings that end up in mail headers and protocol
/// lines, where a line break would start a header of the client's choosing.
pub fn single_line(value: &Value) -> Result<(), String> {
    let text = text(value);
    if text.chars().any(char::is_control) {
        return Err("Use one line, without line breaks or control characters.".into());
    }
    if text.chars().count() > 1_000 {
        return Err("Use at most 1,000 characters.".into());
    }
    Ok(())
}

/// An IANA time-zone name, such as `Europe/Berlin` or `UTC`.
pub fn time_zone(value: &Value) -> Result<(), String> {
    chrono_tz::Tz::from_str(text(value))
        .map(|_| ())
        .map_err(|_| format!("'{}' is not a time zone; use an IANA name such as Europe/Berlin.", text(value)))
}

/// A TCP port.
pub fn port(value: &Value) -> Result<(), String> {
    match value.as_i64() {
        Some(1..=65_535) => Ok(()),
        _ => Err("A port is a number from 1 to 65535.".into()),
    }
}

/// A whole number from 0 to 10,000: the per-minute limits (0 switches one off).
pub fn per_minute(value: &Value) -> Result<(), String> {
    match value.as_i64() {
        Some(0..=10_000) => Ok(()),
        _ => Err("Use a number from 0 (no limit) to 10000.".into()),
    }
}

/// A host name or address to connect to, or empty for none.
pub fn host_name(value: &Value) -> Result<(), String> {
    let host = text(value);
    let plain = host.len() <= 253
        && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if plain {
        Ok(())
    } else {
        Err(format!("'{host}' is not a host name; give only the name, such as smtp.example.org."))
    }
}

/// How an SMTP connection is protected.
pub fn smtp_security(value: &Value) -> Result<(), String> {
    match text(value) {
        "starttls" | "tls" | "none" => Ok(()),
        other => Err(format!("'{other}' is not one of starttls, tls or none.")),
    }
}

/// A sender: an e-mail address, optionally with a name (`Town Hall <info@example.org>`).
pub fn mailbox(value: &Value) -> Result<(), String> {
    single_line(value)?;
    lettre::message::Mailbox::from_str(text(value))
        .map(|_| ())
        .map_err(|_| format!("'{}' is not an e-mail address.", text(value)))
}

/// A language code (`de`, `en-GB`, `pt-br`).
pub fn language(value: &Value) -> Result<(), String> {
    let code = text(value);
    let mut parts = code.split('-');
    let primary = parts.next().unwrap_or_default();
    let well_formed = (2..=3).contains(&primary.len())
        && primary.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|part| (1..=8).contains(&part.len()) && part.chars().all(|c| c.is_ascii_alphanumeric()));
    if well_formed { Ok(()) } else { Err(format!("'{code}' is not a language code such as de or en-GB.")) }
}

/// A non-empty list of language codes.
pub fn languages(value: &Value) -> Result<(), String> {
    let codes = value.as_array().map(Vec::as_slice).unwrap_or_default();
    if codes.is_empty() || codes.len() > 200 {
        return Err("List from 1 to 200 language codes.".into());
    }
    codes.iter().try_for_each(language)
}

/// The logo front ends show: empty, a path on this site, or an `http(s)` URL.
pub fn logo_url(value: &Value) -> Result<(), String> {
    let url = text(value);
    let well_formed = url.is_empty()
        || ((url.starts_with('/') && !url.starts_with("//"))
            || url.starts_with("https://")
            || url.starts_with("http://"))
            && url.len() <= 2_000
            && !url.chars().any(|c| c.is_control() || c.is_whitespace() || matches!(c, '"' | '<' | '>' | '\\'));
    if well_formed {
        Ok(())
    } else {
        Err("Give the logo as a path on this site or an http(s) URL, or leave it empty.".into())
    }
}

/// Text of at most 64 KB (robots.txt).
pub fn document(value: &Value) -> Result<(), String> {
    if text(value).len() > 64 * 1024 { Err("Use at most 64 KB.".into()) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_that_would_break_their_readers_are_refused() {
        assert!(time_zone(&json!("Europe/Berlin")).is_ok() && time_zone(&json!("UTC")).is_ok());
        assert!(time_zone(&json!("Mars/Olympus")).is_err());
        assert!(port(&json!(587)).is_ok());
        assert!(port(&json!(-1)).is_err() && port(&json!(70_000)).is_err());
        assert!(mailbox(&json!("Rathaus <info@example.org>")).is_ok());
        assert_eq!(mailbox(&json!("noreply@localhost")), Ok(()), "the default");
        assert!(mailbox(&json!("info@example.org\r\nBcc: victim@example.org")).is_err());
        assert!(mailbox(&json!("not an address")).is_err());
        assert!(host_name(&json!("smtp.example.org")).is_ok() && host_name(&json!("")).is_ok());
        assert!(host_name(&json!("smtp://x")).is_err() && host_name(&json!("a b")).is_err());
        assert!(smtp_security(&json!("tls")).is_ok() && smtp_security(&json!("ssl")).is_err());
        assert!(languages(&json!(["de", "en-GB"])).is_ok());
        assert!(languages(&json!([])).is_err() && languages(&json!(["deutsch!"])).is_err());
        assert!(logo_url(&json!("")).is_ok() && logo_url(&json!("/Plone/logo.png")).is_ok());
        assert!(logo_url(&json!("https://cdn.example.org/logo.svg")).is_ok());
        for bad in ["javascript:alert(1)", "//evil.example/x", "filenameb64:eA==;datab64:!!", "/a b"] {
            assert!(logo_url(&json!(bad)).is_err(), "{bad}");
        }
        assert!(single_line(&json!("user\nname")).is_err());
        assert!(per_minute(&json!(0)).is_ok() && per_minute(&json!(5)).is_ok(), "0 switches a limit off");
        assert!(per_minute(&json!(-1)).is_err() && per_minute(&json!(10_001)).is_err());
    }
}
