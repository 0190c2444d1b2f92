//! The security panel's settings (whether visitors may register themselves, whether users log
//! in with their e-mail address) and the users-and-groups panel's (whether Site Setup lists
//! principals only after a search).

use crate::controlpanel::{ControlPanelDef, PanelField, PanelSource};
use crate::records::{RecordDef, RecordKind};
use serde_json::json;

/// Visitors may create their own account (as a Member).
pub static ENABLE_SELF_REG: RecordDef = RecordDef {
    name: "plone.enable_self_reg",
    title: "Enable self-registration",
    description: "Visitors may create an account of their own (a Member, with no further roles).",
    kind: RecordKind::Bool,
    check: None,
    default: || json!(false),
};

/// Users may log in with their e-mail address.
pub static USE_EMAIL_AS_LOGIN: RecordDef = RecordDef {
    name: "plone.use_email_as_login",
    title: "Use e-mail address as login name",
    description: "Users may log in with their e-mail address as well as their login name (only where one \
                  account has that address).",
    kind: RecordKind::Bool,
    check: None,
    default: || json!(false),
};

/// `@controlpanels/security`.
pub static SECURITY_PANEL: ControlPanelDef = ControlPanelDef {
    id: "security",
    title: "Security",
    group: "Security",
    fields: &[
        PanelField { name: "enable_self_reg", source: PanelSource::Record(&ENABLE_SELF_REG), widget: None },
        PanelField { name: "use_email_as_login", source: PanelSource::Record(&USE_EMAIL_AS_LOGIN), widget: None },
    ],
    items: None,
};

/// Site Setup lists users only after a search when there are many.
pub static MANY_USERS: RecordDef = RecordDef {
    name: "plone.many_users",
    title: "Many users",
    description: "Users and Groups lists users only after a search, for sites with many accounts.",
    kind: RecordKind::Bool,
    check: None,
    default: || json!(false),
};

/// Site Setup lists groups only after a search when there are many.
pub static MANY_GROUPS: RecordDef = RecordDef {
    name: "plone.many_groups",
    title: "Many groups",
    description: "Users and Groups lists groups only after a search, for sites with many groups.",
    kind: RecordKind::Bool,
    check: None,
    default: || json!(false),
};

/// `@controlpanels/usergroup`: how Volto's user and group panels list principals.
pub static USERGROUP_PANEL: ControlPanelDef = ControlPanelDef {
    id: "usergroup",
    title: "Users and Groups",
    group: "Users",
    fields: &[
        PanelField { name: "many_users", source: PanelSource::Record(&MANY_USERS), widget: None },
        PanelField { name: "many_groups", source: PanelSource::Record(&MANY_GROUPS), widget: None },
    ],
    items: None,
};
