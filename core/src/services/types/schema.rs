//! The JSON Schema of a content type and of its fields, with plone.restapi's annotations
//! (`fieldsets`, `layouts`, `factory`, `behavior`, `widget`), as Volto's forms read them.

use super::factories::{EMAIL_WIDGET, MULTIPLE_CHOICE_WIDGET};
use super::fieldsets::{FIELDSETS, standard_field};
use crate::content::language::LANGUAGE_WIDGET;
use crate::content::{FieldDef, FieldKind, Fieldset, TypeProfile};
use crate::services::content_languages::SUPPORTED_CONTENT_LANGUAGES;
use serde_json::{Map, Value, json};

/// The JSON Schema of a content type, with plone.restapi's `fieldsets`, `layouts`, `factory`
/// and `widget` annotations.
pub fn type_schema(profile: &TypeProfile, site_url: &str) -> Value {
    let properties: Map<String, Value> =
        profile.fields.iter().map(|f| (f.name.clone(), property(profile, f, site_url))).collect();
    let required: Vec<&str> = profile.fields.iter().filter(|f| f.required).map(|f| f.name.as_str()).collect();
    let is_layout = |f: &&FieldDef| matches!(f.kind, FieldKind::Blocks | FieldKind::BlocksLayout) && is_volto_blocks(f);
    let tab_of = |f: &FieldDef| standard_field(&f.name).map_or("default", |s| s.fieldset);
    let own_tab = |f: &FieldDef| profile.fieldset_of(&f.name).is_some();
    // Plone's tabs, in its order, with the fields on each (empty ones are left out), then the
    // type's own tabs, last, as plone.restapi lists a type's own fieldsets after the
    // behaviours'.
    let standard = |id: &str| -> Vec<&str> {
        profile
            .fields
            .iter()
            .filter(|f| !is_layout(f) && !own_tab(f) && tab_of(f) == id)
            .map(|f| f.name.as_str())
            .collect()
    };
    let mut fieldsets =
        vec![json!({"id": "default", "title": "Default", "behavior": "plone", "fields": standard("default")})];
    fieldsets.extend(FIELDSETS.iter().skip(1).filter_map(|(id, title)| {
        let fields = standard(id);
        (!fields.is_empty())
            .then(|| json!({"id": id, "title": title, "behavior": "plone", "description": "", "fields": fields}))
    }));
    fieldsets.extend(profile.fieldsets.iter().map(fieldset_schema));
    let layout: Vec<&str> = profile.fields.iter().filter(is_layout).map(|f| f.name.as_str()).collect();
    if !layout.is_empty() {
        // Plone keeps the blocks in a fieldset of their own, which Volto edits as the page itself.
        fieldsets.push(json!({"id": "layout", "title": "Layout", "behavior": "plone", "fields": layout}));
    }
    json!({
        "title": profile.title,
        "type": "object",
        "required": required,
        "fieldsets": fieldsets,
        "layouts": [profile.layout],
        "properties": properties,
    })
}

/// One of the type's own tabs, as `GET @types/<type>/<fieldset>` answers it.
pub fn fieldset_schema(fieldset: &Fieldset) -> Value {
    json!({
        "id": fieldset.id,
        "title": fieldset.title,
        "description": fieldset.description,
        "behavior": GENERATED_BEHAVIOUR,
        "fields": fieldset.fields,
    })
}

/// What Plone calls the schema a type's own fields and tabs are in.
const GENERATED_BEHAVIOUR: &str = "plone.dexterity.schema.generated";

/// Whether the field is one of Volto's two blocks fields (a JSON field added through the web
/// is a form field like any other).
fn is_volto_blocks(field: &FieldDef) -> bool {
    matches!(field.name.as_str(), "blocks" | "blocks_layout")
}

/// The behaviour plone.volto declares the blocks fields in.
const VOLTO_BLOCKS_BEHAVIOUR: &str = "volto.blocks";

/// The tags in use, which tag widgets offer.
pub const KEYWORDS_VOCABULARY: &str = "plone.app.vocabularies.Keywords";
/// The field that holds an object's tags (Plone's `Subject` index).
const TAGS_FIELD: &str = "subjects";

/// The vocabulary of every object the caller may see; relation widgets search it.
pub const CATALOG_VOCABULARY: &str = "plone.app.vocabularies.Catalog";

/// One field's schema, as `GET @types/<type>/<field>` answers it.
pub fn property(profile: &TypeProfile, field: &FieldDef, site_url: &str) -> Value {
    let (mut schema, factory) = match field.kind {
        FieldKind::TextLine if field.widget.as_deref() == Some(EMAIL_WIDGET) => (json!({"type": "string"}), "Email"),
        FieldKind::TextLine if field.widget.as_deref() == Some(LANGUAGE_WIDGET) => (
            json!({
                "type": "string",
                "vocabulary": {"@id": format!("{site_url}/@vocabularies/{SUPPORTED_CONTENT_LANGUAGES}")},
            }),
            "Choice",
        ),
        FieldKind::TextLine => (json!({"type": "string"}), "Text line (String)"),
        FieldKind::Text => (json!({"type": "string", "widget": "textarea"}), "Text"),
        FieldKind::RichText => (json!({"type": "string", "widget": "richtext"}), "Rich Text"),
        FieldKind::Bool => (json!({"type": "boolean"}), "Yes/No"),
        FieldKind::Int => (json!({"type": "integer"}), "Integer"),
        FieldKind::Float => (json!({"type": "number"}), "Floating-point number"),
        FieldKind::Datetime => (json!({"type": "string", "format": "date-time", "widget": "datetime"}), "Date/Time"),
        FieldKind::Date => (json!({"type": "string", "format": "date", "widget": "date"}), "Date"),
        FieldKind::List if field.name == TAGS_FIELD => (
            json!({
                "type": "array",
                "uniqueItems": true,
                "items": {"type": "string", "title": ""},
                "widgetOptions": {"vocabulary": {"@id": format!("{site_url}/@vocabularies/{KEYWORDS_VOCABULARY}")}},
            }),
            "Tuple",
        ),
        FieldKind::List if field.widget.as_deref() == Some(MULTIPLE_CHOICE_WIDGET) => (
            json!({
                "type": "array",
                "uniqueItems": true,
                "items": {
                    "type": "string",
                    "title": "",
                    "enum": field.vocabulary,
                    "choices": field.vocabulary.iter().map(|v| json!([v, v])).collect::<Vec<_>>(),
                },
            }),
            "Multiple Choice",
        ),
        FieldKind::List if field.vocabulary_name.is_some() => (
            json!({
                "type": "array",
                "uniqueItems": true,
                "items": {
                    "type": "string",
                    "title": "",
                    "vocabulary": {"@id": format!("{site_url}/@vocabularies/{}", field.vocabulary_name.as_deref().unwrap_or_default())},
                },
            }),
            "List",
        ),
        FieldKind::List => {
            (json!({"type": "array", "uniqueItems": true, "items": {"type": "string", "title": ""}}), "List")
        }
        FieldKind::Choice => (
            json!({
                "type": "string",
                "enum": field.vocabulary,
                "enumNames": field.vocabulary,
                "choices": field.vocabulary.iter().map(|v| json!([v, v])).collect::<Vec<_>>(),
                "vocabulary": {"@id": format!("{site_url}/@vocabularies/{}.{}", profile.id, field.name)},
            }),
            "Choice",
        ),
        FieldKind::URI => (json!({"type": "string", "widget": "url"}), "URL"),
        FieldKind::File => (json!({"type": "object", "widget": "file"}), "File Upload"),
        FieldKind::Image => (json!({"type": "object", "widget": "image"}), "Image"),
        FieldKind::RelationChoice => (
            json!({
                "type": "object",
                "widget": "relation",
                "vocabulary": {"@id": format!("{site_url}/@vocabularies/{CATALOG_VOCABULARY}")},
                "widgetOptions": {"pattern_options": {"selectableTypes": field.target_types}},
            }),
            "Relation Choice",
        ),
        FieldKind::RelationList => (
            json!({
                "type": "array",
                "uniqueItems": true,
                "widget": "relation",
                "items": {"vocabulary": {"@id": format!("{site_url}/@vocabularies/{CATALOG_VOCABULARY}")}},
                "widgetOptions": {"pattern_options": {"selectableTypes": field.target_types}},
            }),
            "Relation List",
        ),
        FieldKind::Mapping => (json!({"type": "object", "additionalProperties": true}), "Dict"),
        FieldKind::Blocks if is_volto_blocks(field) => {
            (json!({"type": "dict", "widget": "json", "default": {}}), "JSONField")
        }
        FieldKind::Blocks => (json!({"type": "dict", "widget": "json"}), "JSONField"),
        FieldKind::BlocksLayout => (json!({"type": "dict", "widget": "json", "default": {"items": []}}), "JSONField"),
        FieldKind::PageLayout => (json!({"type": "object", "widget": "simplelayout"}), "Page layout"),
        FieldKind::Plugin(kind) => ((kind.json_schema)(field), kind.name),
    };
    schema["title"] = json!(if field.title.is_empty() { field.name.clone() } else { field.title.clone() });
    let standard = standard_field(&field.name);
    schema["description"] = json!(match standard.as_ref() {
        _ if !field.description.is_empty() => field.description.as_str(),
        Some(standard) => standard.description,
        None => "",
    });
    // A plugin's kind may name itself as plone.schemaeditor does (`Choice`…).
    if schema.get("factory").is_none() {
        schema["factory"] = json!(factory);
    }
    schema["behavior"] = json!(match (&standard, field.kind) {
        (_, FieldKind::Blocks | FieldKind::BlocksLayout) if is_volto_blocks(field) => VOLTO_BLOCKS_BEHAVIOUR.to_owned(),
        (Some(standard), _) => standard.behavior.to_owned(),
        _ if field.through_the_web => format!("{GENERATED_BEHAVIOUR}.plone_0_{}", profile.id.replace(' ', "_")),
        _ => profile.id.clone(),
    });
    // The language field is a choice of the site's languages, as Plone's: the widget hint and
    // the bound on its code are the server's own business.
    let language = field.widget.as_deref() == Some(LANGUAGE_WIDGET);
    if let Some(widget) = field.widget.as_deref().filter(|w| *w != MULTIPLE_CHOICE_WIDGET && !language) {
        schema["widget"] = json!(widget);
    }
    if let Some(max) = field.max_length.filter(|_| !language) {
        schema["maxLength"] = json!(max);
    }
    if let Some(min) = field.min_length {
        schema["minLength"] = json!(min);
    }
    // An e-mail field's pattern is how it checks addresses, not a setting of the field.
    if let Some(pattern) = field.pattern.as_ref().filter(|_| field.widget.as_deref() != Some(EMAIL_WIDGET)) {
        schema["pattern"] = json!(format!("^(?:{pattern})$"));
    }
    let default = field.default_json();
    if !default.is_null() {
        schema["default"] = default;
    }
    // plone.restapi's mark: Volto's translation form copies these fields from the original.
    if field.language_independent {
        schema["multilingual_options"] = json!({"language_independent": true});
    }
    schema
}
