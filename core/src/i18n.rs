//! Translations for HTML views and display values, from Fluent message catalogs. Core ships
//! English and German for type titles, field labels, workflow titles and date formats, and
//! Spanish for the titles plone.restapi translates; plugins add their own
//! messages through [`crate::plugin::Registrar::messages`]. The language comes from the
//! client's `Accept-Language` when it names one we have, else from the site language record.

use crate::content::{FieldDef, TypeProfile};
use crate::records::{RecordDef, RecordKind};
use chrono::{DateTime, Utc};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use unic_langid::LanguageIdentifier;

/// The catalogs core itself ships.
pub(crate) const CORE_MESSAGES: [(&str, &str); 3] = [
    ("en", include_str!("../locales/en.ftl")),
    ("de", include_str!("../locales/de.ftl")),
    ("es", include_str!("../locales/es.ftl")),
];

/// The language used when neither the client nor the site names one we have.
pub const FALLBACK_LANGUAGE: &str = "en";

/// The language of `offered` (lowercase codes) that an `Accept-Language` header prefers most,
/// by its primary tag (`de-CH` asks for `de`); none when it names none of them.
pub fn preferred_language(accept_language: Option<&str>, offered: &[&str]) -> Option<String> {
    let available = |tag: &str| -> Option<String> {
        let primary = tag.split(['-', '_']).next().unwrap_or_default().trim().to_ascii_lowercase();
        offered.iter().find(|l| **l == primary).map(|l| (*l).to_owned())
    };
    let mut wanted: Vec<(f32, &str)> = accept_language
        .unwrap_or_default()
        .split(',')
        .filter_map(|part| {
            let mut pieces = part.split(';');
            let tag = pieces.next()?.trim();
            let quality =
                pieces.find_map(|p| p.trim().strip_prefix("q=")).map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
            (!tag.is_empty() && quality > 0.0).then_some((quality, tag))
        })
        .collect();
    wanted.sort_by(|a, b| b.0.total_cmp(&a.0));
    wanted.iter().find_map(|(_, tag)| available(tag))
}

/// The site's language (Plone's record name), used when `Accept-Language` names none we have.
pub static SITE_LANGUAGE: RecordDef = RecordDef {
    name: "plone.default_language",
    title: "Site language",
    description: "The language of browser views when the browser asks for none that is available, e.g. 'de'.",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::language),
    default: || serde_json::json!(FALLBACK_LANGUAGE),
};

/// Every language's compiled messages.
pub struct Catalogs {
    bundles: Vec<(String, FluentBundle<FluentResource>)>,
}

impl Catalogs {
    /// Compiles core's catalogs and the plugins' (language, `.ftl` text) pairs. A syntax error
    /// or a message defined twice for one language stops start-up.
    pub fn load(plugin_messages: &[(&'static str, &'static str)]) -> Result<Catalogs, String> {
        let mut catalogs = Catalogs { bundles: Vec::new() };
        for (language, ftl) in CORE_MESSAGES.iter().chain(plugin_messages) {
            let resource = FluentResource::try_new((*ftl).to_owned())
                .map_err(|(_, errors)| format!("messages ({language}): {errors:?}"))?;
            let bundle = catalogs.bundle_mut(language)?;
            bundle.add_resource(resource).map_err(|errors| format!("messages ({language}): {errors:?}"))?;
        }
        Ok(catalogs)
    }

    fn bundle_mut(&mut self, language: &str) -> Result<&mut FluentBundle<FluentResource>, String> {
        if let Some(index) = self.bundles.iter().position(|(l, _)| l == language) {
            return Ok(&mut self.bundles[index].1);
        }
        let id: LanguageIdentifier = language.parse().map_err(|e| format!("language '{language}': {e}"))?;
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        bundle.set_use_isolating(false);
        self.bundles.push((language.to_owned(), bundle));
        let last = self.bundles.len() - 1;
        Ok(&mut self.bundles[last].1)
    }

    /// The languages with catalogs.
    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.bundles.iter().map(|(l, _)| l.as_str())
    }

    /// The best language for a request: the client's most preferred one we have, else the
    /// site's, else English.
    pub fn negotiate(&self, accept_language: Option<&str>, site_language: &str) -> String {
        let ours: Vec<&str> = self.languages().collect();
        preferred_language(accept_language, &ours)
            .or_else(|| preferred_language(Some(site_language), &ours))
            .unwrap_or_else(|| FALLBACK_LANGUAGE.to_owned())
    }

    /// A translator for one language.
    pub fn translator(&self, language: &str) -> Translator<'_> {
        Translator { catalogs: self, language: language.to_owned() }
    }

    fn format(&self, language: &str, id: &str, args: Option<&FluentArgs>) -> Option<String> {
        let bundle = &self.bundles.iter().find(|(l, _)| l == language)?.1;
        let pattern = bundle.get_message(id)?.value()?;
        let mut errors = Vec::new();
        Some(bundle.format_pattern(pattern, args, &mut errors).into_owned())
    }
}

/// Translates into one language, falling back to English, then to the message id.
pub struct Translator<'a> {
    catalogs: &'a Catalogs,
    language: String,
}

impl Translator<'_> {
    /// The language code, e.g. `de`, for `<html lang>`.
    pub fn language(&self) -> &str {
        &self.language
    }

    /// The message `id`, or `None` when no catalog has it.
    pub fn lookup(&self, id: &str, args: &[(&str, String)]) -> Option<String> {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(*name, value.clone());
        }
        let args = (!args.is_empty()).then_some(&fluent_args);
        self.catalogs.format(&self.language, id, args).or_else(|| self.catalogs.format(FALLBACK_LANGUAGE, id, args))
    }

    /// The message `id`; the id itself when no catalog has it, so a gap shows, not breaks.
    pub fn text(&self, id: &str) -> String {
        self.lookup(id, &[]).unwrap_or_else(|| id.to_owned())
    }

    /// The message `id` with `{ $name }` arguments.
    pub fn text_with(&self, id: &str, args: &[(&str, String)]) -> String {
        self.lookup(id, args).unwrap_or_else(|| id.to_owned())
    }

    /// A content type's title in this language, else the profile's own.
    pub fn type_title(&self, profile: &TypeProfile) -> String {
        self.lookup(&format!("type-{}", message_key(&profile.id)), &[]).unwrap_or_else(|| profile.title.clone())
    }

    /// A workflow state's title in this language, else the workflow's own.
    pub fn state_title(&self, state: &crate::workflow::State) -> String {
        self.lookup(&format!("state-{}", message_key(&state.id)), &[]).unwrap_or_else(|| state.title.clone())
    }

    /// A workflow transition's title in this language, else the workflow's own.
    pub fn transition_title(&self, transition: &crate::workflow::Transition) -> String {
        self.lookup(&format!("transition-{}", message_key(&transition.id)), &[])
            .unwrap_or_else(|| transition.title.clone())
    }

    /// A field's label in this language, else the profile's own.
    pub fn field_label(&self, field: &FieldDef) -> String {
        self.lookup(&format!("field-{}", message_key(&field.name)), &[]).unwrap_or_else(|| field.title.clone())
    }

    /// A point in time as people of this language write it (in UTC).
    pub fn datetime(&self, time: DateTime<Utc>) -> String {
        let pattern = self.lookup("datetime-format", &[]).unwrap_or_else(|| "%Y-%m-%d %H:%M UTC".to_owned());
        format_with(time, &pattern)
    }

    /// A date as people of this language write it.
    pub fn date(&self, time: DateTime<Utc>) -> String {
        let pattern = self.lookup("date-format", &[]).unwrap_or_else(|| "%Y-%m-%d".to_owned());
        format_with(time, &pattern)
    }
}

/// Formats with a pattern from a catalog; a broken pattern falls back to ISO 8601 instead of
/// panicking inside chrono's `Display`.
fn format_with(time: DateTime<Utc>, pattern: &str) -> String {
    use chrono::format::{Item, StrftimeItems};
    let items: Vec<Item> = StrftimeItems::new(pattern).collect();
    if items.contains(&Item::Error) {
        return time.to_rfc3339();
    }
    time.format_with_items(items.into_iter()).to_string()
}

/// A Fluent message id part: letters, digits, `-` and `_`; anything else becomes `-`.
fn message_key(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '-' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogs() -> Catalogs {
        match Catalogs::load(&[]) {
            Ok(c) => c,
            Err(e) => panic!("core catalogs: {e}"),
        }
    }

    #[test]
    fn the_browser_wins_over_the_site_language() {
        let c = catalogs();
        assert_eq!(c.negotiate(Some("de-CH,de;q=0.9,en;q=0.8"), "en"), "de");
        assert_eq!(c.negotiate(Some("fr, en;q=0.5"), "de"), "en");
        assert_eq!(c.negotiate(Some("fr"), "de"), "de");
        assert_eq!(c.negotiate(None, "xx"), "en");
        assert_eq!(c.negotiate(Some("de;q=0"), "en"), "en");
    }

    #[test]
    fn dates_and_types_are_localized() {
        let c = catalogs();
        let time = DateTime::parse_from_rfc3339("2026-03-05T14:07:00Z").map(|t| t.with_timezone(&Utc));
        let Ok(time) = time else { panic!("bad test time") };
        assert_eq!(c.translator("de").datetime(time), "05.03.2026 14:07 UTC");
        assert_eq!(c.translator("en").datetime(time), "Mar 5, 2026 2:07 PM UTC");
        assert_eq!(c.translator("de").text("yes"), "Ja");
        assert_eq!(c.translator("de").text("no-such-message"), "no-such-message");
    }
}
