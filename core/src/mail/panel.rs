//! The mail control panel: where the outbox sends (SMTP server, security, account, sender).

use crate::controlpanel::{ControlPanelDef, PanelField, PanelSource};

/// `@controlpanels/mail`.
pub static MAIL_PANEL: ControlPanelDef = ControlPanelDef {
    id: "mail",
    title: "Mail",
    group: "General",
    fields: &[
        PanelField { name: "smtp_host", source: PanelSource::Record(&super::SMTP_HOST), widget: None },
        PanelField { name: "smtp_port", source: PanelSource::Record(&super::SMTP_PORT), widget: None },
        PanelField { name: "smtp_security", source: PanelSource::Record(&super::SMTP_SECURITY), widget: None },
        PanelField { name: "smtp_userid", source: PanelSource::Record(&super::SMTP_USER), widget: None },
        PanelField { name: "smtp_pass", source: PanelSource::Record(&super::SMTP_PASSWORD), widget: None },
        PanelField { name: "email_from_address", source: PanelSource::Record(&super::SENDER), widget: None },
    ],
    items: None,
};
