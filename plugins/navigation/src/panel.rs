//! The navigation control panel: which types navigation lists.

use crate::tree::DISPLAYED_TYPES;
use wcs_core::controlpanel::{ControlPanelDef, PanelField, PanelSource};

/// `@controlpanels/navigation`.
pub static NAVIGATION_PANEL: ControlPanelDef = ControlPanelDef {
    id: "navigation",
    title: "Navigation",
    group: "General",
    fields: &[PanelField { name: "displayed_types", source: PanelSource::Record(&DISPLAYED_TYPES), widget: None }],
    items: None,
};
