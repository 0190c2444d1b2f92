//! Core's control panels: the site (title, logo, robots.txt), its language, its time zone, and
//! the content types (listed here; their own service answers and edits them).

use crate::controlpanel::{ControlPanelDef, PanelField, PanelSource};
use crate::i18n::SITE_LANGUAGE;
use crate::services::site::{AVAILABLE_LANGUAGES, PORTAL_TIMEZONE, ROBOTS_TXT, SITE_LOGO};

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

/// The content types: listed in Site Setup here, answered and edited by
/// `@controlpanels/dexterity-types` (see [`super::dexterity_types`]).
pub static CONTENT_TYPES_PANEL: ControlPanelDef =
    ControlPanelDef { id: "dexterity-types", title: "Content Types", group: "Content", fields: &[], items: None };
