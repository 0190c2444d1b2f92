//! The fields of content types: their kinds (core's and plugins') and their definitions as
//! profiles declare them.

use serde::{Deserialize, Serialize};

/// The kinds of field a profile may declare; each has its own validation and serialization.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// One line of text.
    #[default]
    TextLine,
    /// Multi-line plain text.
    Text,
    /// HTML, sanitised on the way in and out.
    RichText,
    /// true / false.
    Bool,
    /// A whole number.
    Int,
    /// A floating-point number.
    Float,
    /// An ISO 8601 timestamp, stored in UTC.
    Datetime,
    /// An ISO 8601 date.
    Date,
    /// A list of unique strings, such as tags.
    List,
    /// One value from a fixed vocabulary.
    Choice,
    /// A URL; `javascript:` and similar schemes are refused.
    URI,
    /// A file stored as a blob.
    File,
    /// An image stored as a blob.
    Image,
    /// A reference to one other object, stored as its uid.
    RelationChoice,
    /// An ordered list of references to other objects, stored as uids.
    RelationList,
    /// A small JSON object of plain values (text, numbers, booleans), such as a block's
    /// display configuration.
    Mapping,
    /// A block page's layout: slots → rows → columns → block uids (see `crate::layout`).
    PageLayout,
    /// Volto's `blocks`: block id → block data with an `@type` (see `crate::content::volto_blocks`).
    Blocks,
    /// Volto's `blocks_layout`: `{"items": [block ids in order]}`.
    BlocksLayout,
    /// A kind a plugin registered ([`crate::plugin::Registrar::field_kind`]), named by its
    /// `name` in profiles.
    #[serde(skip)]
    Plugin(&'static FieldKindDef),
}

/// A field kind a plugin adds: how input becomes a stored value, and how editors' forms
/// describe it. Its output is a field serializer for `FieldKind::Plugin(&THIS)`, registered
/// like any other (without one, the stored value is sent as it is).
pub struct FieldKindDef {
    /// The name profiles use in `kind = "…"`; it must not be one of core's.
    pub name: &'static str,
    /// Validates a client's value (never `null`, which clears the field) and returns what is
    /// stored, or a message for the field error. It must accept what the kind's serializer
    /// sends, so a GET followed by a PUT round-trips.
    pub parse: fn(&FieldDef, &serde_json::Value) -> Result<serde_json::Value, String>,
    /// The JSON Schema of the field in `@types`; its `factory` is the kind's name unless it
    /// gives one (as plone.schemaeditor names factories: `Choice`, `Text line (String)`…).
    pub json_schema: fn(&FieldDef) -> serde_json::Value,
}

impl std::fmt::Debug for FieldKindDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FieldKindDef({})", self.name)
    }
}

impl PartialEq for FieldKindDef {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for FieldKindDef {}

impl std::hash::Hash for FieldKindDef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl FieldKind {
    /// One of core's kinds, by the name profiles use.
    pub fn core(name: &str) -> Option<FieldKind> {
        use serde::de::IntoDeserializer;
        let deserializer: serde::de::value::StrDeserializer<'_, serde::de::value::Error> = name.into_deserializer();
        FieldKind::deserialize(deserializer).ok()
    }

    /// Whether values live in the blob table.
    pub fn is_blob(self) -> bool {
        matches!(self, FieldKind::File | FieldKind::Image)
    }

    /// Whether values point at other objects (and are mirrored in the relation index).
    pub fn is_relation(self) -> bool {
        matches!(self, FieldKind::RelationChoice | FieldKind::RelationList)
    }
}

/// One field of a content type. Profiles declare it in TOML; fields added through the web
/// are stored as JSON of the same shape ([`super::type_edits`]).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FieldDef {
    /// The JSON key.
    pub name: String,
    /// The kind as the profile names it.
    #[serde(rename = "kind")]
    pub(crate) kind_name: String,
    /// How values are validated and serialized (resolved from the name when the profile is
    /// added).
    #[serde(skip)]
    pub kind: FieldKind,
    /// Human-readable label.
    #[serde(default)]
    pub title: String,
    /// Help text shown under the field in edit forms.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Whether a value must be present.
    #[serde(default)]
    pub required: bool,
    /// The value used when none is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<toml::Value>,
    /// Allowed values of a `Choice` (and of each item of a `List` that has one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vocabulary: Vec<String>,
    /// A `List` whose items are the terms of one of core's named vocabularies
    /// ([`super::named_vocabularies`]): stored as tokens, answered as `{title, token}` terms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vocabulary_name: Option<String>,
    /// A widget hint that selects a specialised field serializer (e.g. `LinkFieldWidget`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub widget: Option<String>,
    /// The longest accepted text, in characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<usize>,
    /// The shortest accepted text, in characters (an empty value is no value: `required`
    /// decides about that).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<usize>,
    /// The types a relation field may point at; empty allows every type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_types: Vec<String>,
    /// A regular expression a text or URL value must match as a whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// A sentence telling editors what `pattern` accepts; shown in the field error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern_hint: Option<String>,
    /// Whether the value is the same in every language (plone.app.multilingual's language
    /// independent fields): a write to one translation is copied to the others.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub language_independent: bool,
    #[serde(skip)]
    pub(super) compiled_pattern: Option<regex::Regex>,
    /// Whether a site owner added it (no profile declares it): Volto's schema editor lets them
    /// edit and remove such fields only. Set when the edits are applied, never stored.
    #[serde(skip)]
    pub through_the_web: bool,
}

impl FieldDef {
    /// A field of the kind profiles call `kind_name`, with nothing else set; the registry
    /// resolves the kind when the type is added.
    pub fn named(name: &str, kind_name: &str) -> FieldDef {
        FieldDef {
            name: name.to_owned(),
            kind_name: kind_name.to_owned(),
            kind: FieldKind::default(),
            title: String::new(),
            description: String::new(),
            required: false,
            default: None,
            vocabulary: Vec::new(),
            vocabulary_name: None,
            widget: None,
            max_length: None,
            min_length: None,
            target_types: Vec::new(),
            pattern: None,
            pattern_hint: None,
            language_independent: false,
            compiled_pattern: None,
            through_the_web: false,
        }
    }

    /// The kind's name, as profiles write it.
    pub fn kind_name(&self) -> &str {
        &self.kind_name
    }

    /// The default as JSON, or `null`.
    pub fn default_json(&self) -> serde_json::Value {
        self.default.as_ref().and_then(|v| serde_json::to_value(v).ok()).unwrap_or(serde_json::Value::Null)
    }

    /// Whether `text` satisfies the field's `pattern` (always, without one). The pattern is
    /// compiled once when the profile is loaded.
    pub fn matches_pattern(&self, text: &str) -> bool {
        self.compiled_pattern.as_ref().is_none_or(|pattern| pattern.is_match(text))
    }
}
