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
        "addable": profile.global_allow,
        "behaviours": profile.behaviours,
    })
}

/// One type's settings, with the form Volto shows them in.
pub fn type_settings(ctx: &Ctx, profile: &TypeProfile) -> Value {
    let mut data = Map::new();
    data.insert("title".into(), json!(profile.title));
    data.insert("description".into(), json!(profile.description));
    data.insert("allowed_content_types".into(), json!(profile.allowed_types.clone().unwrap_or_default()));
    data.insert("filter_content_types".into(), json!(profile.allowed_types.is_some()));
    for behaviour in &BEHAVIOURS {
        data.insert(behaviour.name.into(), json!(has(profile, behaviour)));
    }
    let mut properties = Map::new();
    properties.insert("title".into(), json!({"type": "string", "title": "Type name", "factory": "Text line (String)"}));
    properties.insert(
        "description".into(),
        json!({"type": "string", "title": "Description", "widget": "textarea", "factory": "Text"}),
    );
    properties.insert(
        "allowed_content_types".into(),
        json!({
            "type": "array",
            "title": "Allowed content types",
            "uniqueItems": true,
            "factory": "Multiple Choice",
            "items": {"vocabulary": {"@id": format!("{}/@vocabularies/plone.app.vocabularies.ReallyUserFriendlyTypes", ctx.site_url())}},
        }),
    );
    properties.insert(
        "filter_content_types".into(),
        json!({"type": "boolean", "title": "Filter content types", "factory": "Yes/No",
               "description": "Only the allowed content types may be added inside objects of this type."}),
    );
    for behaviour in &BEHAVIOURS {
        properties
            .insert(behaviour.name.into(), json!({"type": "boolean", "title": behaviour.title, "factory": "Yes/No"}));
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
            "required": ["title"],
        },
    })
}
