//! The mail control panel: where the outbox sends (SMTP server, security, account, sender).

use crate::mailer;
use wcs_core::controlpanel::{ControlPanelDef, PanelField, PanelSource};

/// `@controlpanels/mail`.
pub static MAIL_PANEL: ControlPanelDef = ControlPanelDef {
    id: "mail",
    title: "Mail",
    group: "General",
    fields: &[
        PanelField { name: "smtp_host", source: PanelSource::Record(&mailer::SMTP_HOST) },
        PanelField { name: "smtp_port", source: PanelSource::Record(&mailer::SMTP_PORT) },
        PanelField { name: "smtp_security", source: PanelSource::Record(&mailer::SMTP_SECURITY) },
        PanelField { name: "smtp_userid", source: PanelSource::Record(&mailer::SMTP_USER) },
        PanelField { name: "smtp_pass", source: PanelSource::Record(&mailer::SMTP_PASSWORD) },
        PanelField { name: "email_from_address", source: PanelSource::Record(&mailer::SENDER) },
    ],
    items: None,
};
