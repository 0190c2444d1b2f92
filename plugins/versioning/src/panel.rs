//! The versioning control panel, read-only: which types keep versions and how many. Types get
//! versions through the `versioning` behaviour in their profiles, not through a setting.

use crate::MAX_VERSIONS;
use serde_json::{Value, json};
use wcs_core::controlpanel::ControlPanelDef;
use wcs_core::site::Site;

/// `@controlpanels/versioning`.
pub static VERSIONING_PANEL: ControlPanelDef = ControlPanelDef {
    id: "versioning",
    title: "Versioning",
    group: "Content",
    fields: &[],
    items: Some(versioned_types),
};

fn versioned_types(site: &Site, site_url: &str) -> Vec<Value> {
    let mut types: Vec<Value> = site
        .types
        .all()
        .filter(|profile| profile.has_behaviour(crate::VERSIONING))
        .map(|profile| {
            json!({
                "@id": format!("{site_url}/@controlpanels/dexterity-types/{}", profile.id),
                "id": profile.id,
                "title": profile.title,
                "max_versions": MAX_VERSIONS,
            })
        })
        .collect();
    types.sort_by(|a, b| a["title"].as_str().cmp(&b["title"].as_str()));
    types
}
