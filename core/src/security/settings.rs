//! The security panel's settings: whether visitors may register themselves, and whether users
//! log in with their e-mail address.

use crate::controlpanel::{ControlPanelDef, PanelField, PanelSource};
use crate::records::{RecordDef, RecordKind};
use serde_json::json;

/// Visitors may create their own account (as a Member).
pub static ENABLE_SELF_REG: RecordDef = RecordDef {
    name: "plone.enable_self_reg",
    title: "Enable self-registration",
    description: "Visitors may create an account of their own (a Member, with no further roles).",
    kind: RecordKind::Bool,
    default: || json!(false),
};

/// Users may log in with their e-mail address.
pub static USE_EMAIL_AS_LOGIN: RecordDef = RecordDef {
    name: "plone.use_email_as_login",
    title: "Use e-mail address as login name",
    description: "Users may log in with their e-mail address as well as their login name (only where one \
                  account has that address).",
    kind: RecordKind::Bool,
    default: || json!(false),
};

/// `@controlpanels/security`.
pub static SECURITY_PANEL: ControlPanelDef = ControlPanelDef {
    id: "security",
    title: "Security",
    group: "Security",
    fields: &[
        PanelField { name: "enable_self_reg", source: PanelSource::Record(&ENABLE_SELF_REG) },
        PanelField { name: "use_email_as_login", source: PanelSource::Record(&USE_EMAIL_AS_LOGIN) },
    ],
    items: None,
};
