//! `@controlpanels`: Site Setup's settings forms. `GET @controlpanels` lists the panels,
//! `GET @controlpanels/<id>` gives one as plone.restapi does (`schema` plus `data`, and
//! `items` for listing panels), `PATCH @controlpanels/<id>` saves its form. Everything needs
//! Manage portal. Core's panels are here; plugins register the panels of their own records.

mod dexterity_types;
mod get;
mod panels;
mod patch;

pub use dexterity_types::{DEXTERITY_TYPES_DELETE, DEXTERITY_TYPES_GET, DEXTERITY_TYPES_PATCH, DEXTERITY_TYPES_POST};
pub use get::CONTROLPANELS;
pub use panels::{CONTENT_TYPES_PANEL, DATE_AND_TIME_PANEL, LANGUAGE_PANEL, SITE_PANEL};
pub use patch::CONTROLPANEL_PATCH;
