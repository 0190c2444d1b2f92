//! What an imported row of core's tables must hold for the server to read it: the types of
//! the columns are checked as rows are bound, these are the values' own forms. A row that
//! passes the types but not these (`fields` that are no JSON object, a secret that is no hex)
//! would be committed and then stop the server at its next start, with the database no longer
//! empty for a second try; so the import is refused instead, naming the line and column.
//! Plugins' tables are checked by type only: their rows are read by the plugin that wrote them.

use crate::store::time_from_db;
use serde_json::Value;
use std::collections::BTreeMap;

/// The problem with `row` of `table`, if there is one.
pub(super) fn problem(table: &str, row: &BTreeMap<String, Value>, site_id: &str) -> Option<String> {
    let text = |column: &str| row.get(column).and_then(Value::as_str);
    let check = |column: &str, rule: Rule| rule.check(row.get(column).unwrap_or(&Value::Null), site_id);
    let rules: &[(&str, Rule)] = match table {
        "content" => &[
            ("uid", Rule::Uid),
            ("parent_uid", Rule::Optional(&Rule::Uid)),
            ("path", Rule::Path),
            ("fields", Rule::JsonObject),
            ("created", Rule::Time),
            ("modified", Rule::Time),
            ("effective", Rule::Optional(&Rule::Time)),
            ("expires", Rule::Optional(&Rule::Time)),
            ("trashed_at", Rule::Optional(&Rule::Time)),
            ("trash_root", Rule::Optional(&Rule::Uid)),
            ("working_copy_of", Rule::Optional(&Rule::Uid)),
        ],
        "principal" => &[("roles", Rule::StringList), ("kind", Rule::PrincipalKind)],
        "local_role" | "allowed" => &[("content_uid", Rule::Uid)],
        "workflow_history" => &[("content_uid", Rule::Uid), ("time", Rule::Time)],
        "record" if text("name").is_some_and(|name| name.starts_with("wcs.secret.")) => &[("value", Rule::Secret)],
        "record" => &[("value", Rule::Json)],
        "audit_log" => &[("at", Rule::Time), ("details", Rule::Json)],
        "content_type_edit" => &[("definition", Rule::JsonObject)],
        _ => &[],
    };
    rules.iter().find_map(|(column, rule)| check(column, *rule).err().map(|e| format!("column {column}: {e}")))
}

/// A value's form.
#[derive(Clone, Copy)]
enum Rule {
    /// 32 lower-case hex digits.
    Uid,
    /// A path inside the site: `/<site id>` and segments.
    Path,
    /// Text holding a JSON object.
    JsonObject,
    /// Text holding any JSON.
    Json,
    /// Text holding a JSON list of strings.
    StringList,
    /// A stored time.
    Time,
    /// `user` or `group`.
    PrincipalKind,
    /// A server secret: 32 bytes as hex.
    Secret,
    /// Null, or the rule.
    Optional(&'static Rule),
}

impl Rule {
    fn check(self, value: &Value, site_id: &str) -> Result<(), String> {
        if let Rule::Optional(inner) = self {
            return if value.is_null() { Ok(()) } else { inner.check(value, site_id) };
        }
        let text = value.as_str().ok_or_else(|| format!("expected text, found {value}"))?;
        let ok = match self {
            Rule::Uid => text.len() == 32 && text.chars().all(|c| c.is_ascii_digit() || matches!(c, 'a'..='f')),
            Rule::Path => {
                let root = format!("/{site_id}");
                text == root
                    || text.strip_prefix(&format!("{root}/")).is_some_and(|rest| rest.split('/').all(|s| !s.is_empty()))
            }
            Rule::JsonObject => matches!(serde_json::from_str::<Value>(text), Ok(Value::Object(_))),
            Rule::Json => serde_json::from_str::<Value>(text).is_ok(),
            Rule::StringList => matches!(serde_json::from_str::<Value>(text),
                Ok(Value::Array(items)) if items.iter().all(Value::is_string)),
            Rule::Time => time_from_db(text).is_ok(),
            Rule::PrincipalKind => matches!(text, "user" | "group"),
            Rule::Secret => text.len() == 64 && hex::decode(text).is_ok(),
            Rule::Optional(_) => true,
        };
        if ok { Ok(()) } else { Err(format!("'{}' is not {}", shortened(text), self.expected())) }
    }

    fn expected(self) -> &'static str {
        match self {
            Rule::Uid => "a uid (32 hex digits)",
            Rule::Path => "a path inside the site",
            Rule::JsonObject => "a JSON object",
            Rule::Json => "JSON",
            Rule::StringList => "a JSON list of strings",
            Rule::Time => "a stored time (RFC 3339)",
            Rule::PrincipalKind => "user or group",
            Rule::Secret => "a secret (64 hex digits)",
            Rule::Optional(inner) => inner.expected(),
        }
    }
}

/// At most 60 characters of a value, for messages.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::problem;
    use serde_json::{Value, json};
    use std::collections::BTreeMap;

    fn row(value: Value) -> BTreeMap<String, Value> {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn rows_the_server_could_not_read_are_named() {
        let content = json!({"uid": "0123456789abcdef0123456789abcdef", "parent_uid": null, "path": "/Plone",
                             "fields": "{}", "created": "2026-01-01T00:00:00.000000+00:00",
                             "modified": "2026-01-01T00:00:00.000000+00:00"});
        assert_eq!(problem("content", &row(content.clone()), "Plone"), None);
        let mut bad = content.clone();
        bad["fields"] = json!("[1, 2]");
        assert!(problem("content", &row(bad), "Plone").unwrap().contains("column fields"));
        let mut bad = content;
        bad["path"] = json!("/Other/x");
        assert!(problem("content", &row(bad), "Plone").is_some());
        let secret = json!({"name": "wcs.secret.jwt", "value": "zz"});
        assert!(problem("record", &row(secret), "Plone").unwrap().contains("secret"));
        let good = json!({"name": "wcs.secret.jwt", "value": "ab".repeat(32)});
        assert_eq!(problem("record", &row(good), "Plone"), None);
        assert!(problem("principal", &row(json!({"roles": "Manager", "kind": "user"})), "Plone").is_some());
        assert_eq!(problem("version", &row(json!({"anything": 1})), "Plone"), None);
    }
}
