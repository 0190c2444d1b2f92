//! The discussion control panel (Site Setup → Discussion), over the plugin's records.

use crate::settings::{
    ANONYMOUS_COMMENTS, ANONYMOUS_EMAIL_ENABLED, DELETE_OWN_COMMENT_ENABLED, EDIT_COMMENT_ENABLED, GLOBALLY_ENABLED,
    TEXT_TRANSFORM,
};
use wcs_core::controlpanel::{ControlPanelDef, PanelField, PanelSource};

/// `@controlpanels/discussion`.
pub static DISCUSSION_PANEL: ControlPanelDef = ControlPanelDef {
    id: "discussion",
    title: "Discussion",
    group: "Content",
    fields: &[
        PanelField { name: "globally_enabled", source: PanelSource::Record(&GLOBALLY_ENABLED), widget: None },
        PanelField { name: "anonymous_comments", source: PanelSource::Record(&ANONYMOUS_COMMENTS), widget: None },
        PanelField {
            name: "anonymous_email_enabled",
            source: PanelSource::Record(&ANONYMOUS_EMAIL_ENABLED),
            widget: None,
        },
        PanelField { name: "edit_comment_enabled", source: PanelSource::Record(&EDIT_COMMENT_ENABLED), widget: None },
        PanelField {
            name: "delete_own_comment_enabled",
            source: PanelSource::Record(&DELETE_OWN_COMMENT_ENABLED),
            widget: None,
        },
        PanelField { name: "text_transform", source: PanelSource::Record(&TEXT_TRANSFORM), widget: None },
    ],
    items: None,
};
