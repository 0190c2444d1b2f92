//! Core's control panels: the site (title, logo, robots.txt), its language, its time zone, and
//! the content types (read-only).

use crate::controlpanel::{ControlPanelDef, PanelField, PanelSource};
use crate::i18n::SITE_LANGUAGE;
use crate::services::site::{AVAILABLE_LANGUAGES, PORTAL_TIMEZONE, ROBOTS_TXT, SITE_LOGO};
use crate::site::Site;
use serde_json::{Value, json};

/// The site: its title, logo and robots.txt.
pub static SITE_PANEL: ControlPanelDef = ControlPanelDef {
    id: "site",
    title: "Site",
    group: "General",
    fields: &[
        PanelField { name: "site_title", source: PanelSource::SiteTitle, widget: None },
        PanelField { name: "site_logo", source: PanelSource::Record(&SITE_LOGO), widget: None },
        PanelField { name: "robots_txt", source: PanelSource::Record(&ROBOTS_TXT), widget: Some("textarea") },
    ],
    items: None,
};

/// The site language and the languages content may be written in.
pub static LANGUAGE_PANEL: ControlPanelDef = ControlPanelDef {
    id: "language",
    title: "Language",
    group: "General",
    fields: &[
        PanelField { name: "default_language", source: PanelSource::Record(&SITE_LANGUAGE), widget: None },
        PanelField { name: "available_languages", source: PanelSource::Record(&AVAILABLE_LANGUAGES), widget: None },
    ],
    items: None,
};

/// The site's time zone.
pub static DATE_AND_TIME_PANEL: ControlPanelDef = ControlPanelDef {
    id: "date-and-time",
    title: "Date and Time",
    group: "General",
    fields: &[PanelField { name: "portal_timezone", source: PanelSource::Record(&PORTAL_TIMEZONE), widget: None }],
    items: None,
};

/// The content types, read-only: they come from the type profiles (`--types-dir` and plugins).
pub static CONTENT_TYPES_PANEL: ControlPanelDef = ControlPanelDef {
    id: "dexterity-types",
    title: "Content Types",
    group: "Content",
    fields: &[],
    items: Some(content_types),
};

fn content_types(site: &Site, site_url: &str) -> Vec<Value> {
    let mut types: Vec<Value> = site
        .types
        .all()
        .map(|profile| {
            json!({
                "@id": format!("{site_url}/@controlpanels/dexterity-types/{}", profile.id),
                "@type": profile.id,
                "id": profile.id,
                "title": profile.title,
                "description": "",
                "meta_type": if profile.folderish { "Dexterity Container" } else { "Dexterity Item" },
                "behaviours": profile.behaviours,
                "addable": profile.global_allow,
                "count": Value::Null,
            })
        })
        .collect();
    types.sort_by(|a, b| a["title"].as_str().cmp(&b["title"].as_str()));
    types
}
