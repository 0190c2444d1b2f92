//! Two things JSON allows that a request body must not have: an object naming a key twice
//! (parsers keep one of the values, and which one decides what is written, `@type` included)
//! and NUL characters in text (they end strings in other systems and in logs).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

/// `Ok` when `body` has neither; else what is wrong, in words. serde_json bounds the nesting.
pub fn check(body: &[u8]) -> Result<(), String> {
    serde_json::from_slice::<Checked>(body).map(|_| ()).map_err(|e| e.to_string())
}

struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CheckVisitor)
    }
}

struct CheckVisitor;

impl<'de> Visitor<'de> for CheckVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Checked, E> {
        if text.contains('\0') { Err(E::custom("text must not contain NUL characters")) } else { Ok(Checked) }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Checked, A::Error> {
        while items.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Checked, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = entries.next_key::<Cow<'de, str>>()? {
            if key.contains('\0') {
                return Err(de::Error::custom("keys must not contain NUL characters"));
            }
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("the key '{key}' appears twice in one object")));
            }
            entries.next_value::<Checked>()?;
        }
        Ok(Checked)
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn repeated_keys_and_nul_are_found_at_any_depth() {
        assert!(check(br#"{"a": [1, {"b": "x", "c": null}], "d": true}"#).is_ok());
        assert!(
            check(br#"{"@type": "Document", "@type": "Folder"}"#).is_err_and(|e| e.contains("'@type' appears twice"))
        );
        assert!(check(br#"{"a": {"b": 1, "b": 2}}"#).is_err());
        assert!(check(br#"{"title": "a\u0000b"}"#).is_err_and(|e| e.contains("NUL")));
        assert!(check(br#"{"a\u0000": 1}"#).is_err());
        assert!(check(br#"{"text": "a\\u0000b"}"#).is_ok(), "an escaped backslash is text");
    }
}
