//! The language field, as Plone has it: a choice from the content languages, stored as its code
//! (`en`, `pt-br`), sent as the vocabulary's term `{"title": "Deutsch", "token": "de"}`, each
//! language named in itself as Plone's language vocabularies name them (the empty code stays
//! `""`), and taken back in either form, so a GET followed by a PUT round-trips. Profiles mark
//! the field with `widget = "language"`.

use super::Types;
use serde_json::{Value, json};

/// The widget hint of a language field.
pub const LANGUAGE_WIDGET: &str = "language";

/// The wire form of a stored code.
pub fn term(code: &str) -> Value {
    if code.is_empty() { json!("") } else { json!({"title": autonym(code), "token": code}) }
}

/// A language's name in English; a regional code (`pt-br`) by its language; an unknown code
/// by itself.
fn english_name(code: &str) -> String {
    let base = code.split(['-', '_']).next().unwrap_or(code).to_ascii_lowercase();
    isolang::Language::from_639_1(&base).map_or_else(|| code.to_owned(), |language| language.to_name().to_owned())
}

/// A language's name in itself (`Deutsch`, `Français`), capitalised as a title, as Plone's
/// language vocabularies and plone.app.multilingual's root folders have it; its English name
/// when there is none.
pub fn autonym(code: &str) -> String {
    let base = code.split(['-', '_']).next().unwrap_or(code).to_ascii_lowercase();
    let Some(own) = isolang::Language::from_639_1(&base).and_then(|language| language.to_autonym()) else {
        return english_name(code);
    };
    let mut chars = own.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The codes in a stored language list (`plone.available_languages`); what is no text is
/// left out.
pub fn codes(list: &Value) -> Vec<String> {
    list.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

/// Whether a site whose available languages are `available` is multilingual, as Volto's
/// `features.multilingual` means it: two languages or more, and a type of language root
/// folders (which a plugin brings) to keep each language's content in.
pub fn is_multilingual(types: &Types, available: &[String]) -> bool {
    available.len() > 1 && types.all().any(|profile| profile.has_behaviour(super::LANGUAGE_ROOT))
}

/// The code a client sent: a term's `token`, or the value itself.
pub fn code(value: &Value) -> &Value {
    value.get("token").unwrap_or(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_become_terms_and_terms_codes() {
        assert_eq!(term("en"), json!({"title": "English", "token": "en"}));
        assert_eq!(term("de"), json!({"title": "Deutsch", "token": "de"}));
        assert_eq!(term("pt-br")["title"], "Português");
        assert_eq!(term("xx")["title"], "xx");
        assert_eq!(term(""), json!(""));
        assert_eq!(code(&json!({"title": "English", "token": "en"})), &json!("en"));
        assert_eq!(code(&json!("de")), &json!("de"));
    }

    #[test]
    fn languages_are_named_in_themselves() {
        assert_eq!(autonym("de"), "Deutsch");
        assert_eq!(autonym("fr"), "Français");
        assert_eq!(autonym("es"), "Español");
        assert_eq!(autonym("xx"), "xx");
    }
}
