//! What the Content Types panel answers: the types with their object counts, and one type's
//! settings form (`schema`) filled in (`data`), as plone.restapi gives them.

use super::behaviours::{BEHAVIOURS, has};
use crate::content::TypeProfile;
use crate::http::Ctx;
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// The panel's group in Site Setup.
pub const GROUP: &str = "Content";
/// The panel's title.
pub const TITLE: &str = "Content Types";

/// The panel's URL.
pub fn panel_url(ctx: &Ctx) -> String {
    format!("{}/@controlpanels/dexterity-types", ctx.site_url())
}

/// A type in the panel's listing.
pub fn listing_item(ctx: &Ctx, profile: &TypeProfile, counts: &HashMap<String, i64>) -> Value {
    json!({
        "@id": format!("{}/{}", panel_url(ctx), profile.id),
        "@type": profile.id,
        "id": profile.id,
        "title": profile.title,
        "description": profile.description,
        "meta_type": "Dexterity FTI",
        "count": counts.get(&profile.id).copied().unwrap_or(0),
    })
}

/// The types Plone installs, in the order it installs them: its panel lists `portal_types` in
/// that order, the types added since after them.
const INSTALLED_FIRST: [&str; 9] =
    ["Plone Site", "Collection", "Document", "Folder", "Link", "File", "Image", "News Item", "Event"];

/// Sorts the panel's types as Plone lists them: its own types as it installs them, then the
/// others (plugins', profiles', those made in the panel) by title.
pub fn in_installation_order(types: &mut [std::sync::Arc<TypeProfile>]) {
    let rank = |id: &str| INSTALLED_FIRST.iter().position(|first| *first == id).unwrap_or(INSTALLED_FIRST.len());
    types.sort_by(|a, b| (rank(&a.id), &a.title).cmp(&(rank(&b.id), &b.title)));
}

/// What `filter_content_types` takes: nothing may be added inside, every globally addable
/// type, or the allowed ones.
const FILTERS: [&str; 3] = ["none", "all", "some"];
const FILTER_TITLES: [&str; 3] = ["No content types", "All content types", "Some content types"];

/// The type's `filter_content_types`.
fn filter_of(profile: &TypeProfile) -> &'static str {
    match &profile.allowed_types {
        None => "all",
        Some(allowed) if allowed.is_empty() => "none",
        Some(_) => "some",
    }
}

/// One type's settings, with the form Volto shows them in.
pub fn type_settings(ctx: &Ctx, profile: &TypeProfile) -> Value {
    let mut data = Map::new();
    data.insert("title".into(), json!(profile.title));
    data.insert("description".into(), json!(profile.description));
    data.insert("allowed_content_types".into(), json!(profile.allowed_types.clone().unwrap_or_default()));
    data.insert("filter_content_types".into(), json!(filter_of(profile)));
    for behaviour in &BEHAVIOURS {
        data.insert(behaviour.name.into(), json!(has(profile, behaviour)));
    }
    let mut properties = Map::new();
    let types_vocabulary = format!("{}/@vocabularies/plone.app.vocabularies.ReallyUserFriendlyTypes", ctx.site_url());
    properties.insert(
        "title".into(),
        json!({"type": "string", "title": "Type Name", "description": "", "factory": "Text line (String)"}),
    );
    properties.insert(
        "description".into(),
        json!({"type": "string", "title": "Description", "description": "", "widget": "textarea", "factory": "Text"}),
    );
    properties.insert(
        "allowed_content_types".into(),
        json!({
            "type": "array",
            "title": "Allowed Content Types",
            "description": "",
            "uniqueItems": true,
            "additionalItems": true,
            "factory": "Multiple Choice",
            "items": {"type": "string", "title": "", "description": "", "factory": "Choice",
                      "vocabulary": {"@id": types_vocabulary}},
        }),
    );
    properties.insert(
        "filter_content_types".into(),
        json!({
            "type": "string",
            "title": "Filter Contained Types",
            "description": "Items of this type can act as a folder containing other  items. What content types should be allowed inside?",
            "factory": "Choice",
            "default": "none",
            "enum": FILTERS,
            "enumNames": FILTER_TITLES,
            "choices": FILTERS.iter().zip(FILTER_TITLES).map(|(token, title)| json!([token, title])).collect::<Vec<_>>(),
        }),
    );
    for behaviour in &BEHAVIOURS {
        properties.insert(
            behaviour.name.into(),
            json!({"type": "boolean", "title": behaviour.title, "description": behaviour.description, "factory": "Yes/No"}),
        );
    }
    json!({
        "@id": format!("{}/{}", panel_url(ctx), profile.id),
        "title": profile.title,
        "description": profile.description,
        "group": GROUP,
        "items": [],
        "data": data,
        "schema": {
            "type": "object",
            "fieldsets": [
                {"id": "default", "title": "Default", "behavior": "plone",
                 "fields": ["title", "description", "allowed_content_types", "filter_content_types"]},
                {"id": "behaviors", "title": "Behaviors", "behavior": "plone",
                 "fields": BEHAVIOURS.iter().map(|b| b.name).collect::<Vec<_>>()},
            ],
            "properties": properties,
            "required": ["title", "filter_content_types"],
        },
    })
}
