//! The directdownload control panel: whether anonymous API GETs of files answer the file.

use crate::hook::DIRECT_DOWNLOAD;
use wcs_core::controlpanel::{ControlPanelDef, PanelField, PanelSource};

/// `@controlpanels/directdownload`.
pub static DIRECT_DOWNLOAD_PANEL: ControlPanelDef = ControlPanelDef {
    id: "directdownload",
    title: "Direct download",
    group: "Add-on Configuration",
    fields: &[PanelField { name: "directdownload", source: PanelSource::Record(&DIRECT_DOWNLOAD), widget: None }],
    items: None,
};
