//! Content rules for wcs-backend, as plone.app.contentrules has them and plone.restapi
//! serves them: a rule reacts to a trigger (an object added, modified, moved, removed, its
//! workflow state changed, a comment added…) with actions (send a mail, copy, move, delete,
//! transition, store a version, log) when its conditions hold (content type, workflow state,
//! file extension, the user's group or role). Beyond Plone, a webhook action posts the event as
//! signed JSON, for headless sites that rebuild a static front end or feed another system.
//!
//! - Site Setup's Content Rules panel: `@controlpanels/content-rules` and its rules,
//!   conditions and actions (Manage portal);
//! - an object's rules: `@content-rules` assigns them to a folder, enables them there and
//!   applies them to sub-folders ("Content rules: Manage rules");
//! - `plone.contentrules.events`: the triggers;
//! - `@content-rules-deliveries`: webhook deliveries pending or given up, and failed runs.
//!
//! Rules run after the write that triggered them committed, on a background task, never
//! failing or delaying it: the write queues them in its own transaction ([`enqueue`]), and the
//! worker ([`worker`]) runs them. A rule's actions do not trigger rules again, unless it
//! cascades, and then one level deep.

mod actions;
mod assignments;
mod conditions;
mod deliveries;
mod elements;
pub mod enqueue;
mod model;
mod origin;
mod panel;
pub mod permissions;
mod run;
pub mod settings;
mod store;
mod substitutions;
mod triggers;
mod webhook;
pub mod worker;

pub use webhook::signature;

use wcs_core::controlpanel::ControlPanelDef;
use wcs_core::plugin::Registrar;

/// The plugin's id, as named in `--disable-plugin` and the manifest.
pub const PLUGIN_ID: &str = "contentrules";

/// The panel in Site Setup's listing; its own services answer under its URL.
static CONTENT_RULES_PANEL: ControlPanelDef =
    ControlPanelDef { id: "content-rules", title: panel::TITLE, group: panel::GROUP, fields: &[], items: None };

fn build(r: &mut Registrar) {
    r.migrations(&store::MIGRATIONS);
    r.permission(permissions::MANAGE_RULES, permissions::DEFAULT_ROLES);
    r.record(&settings::WEBHOOK_FIRST_PAUSE);
    r.record(&settings::WEBHOOK_MAX_ATTEMPTS);
    r.control_panel(&CONTENT_RULES_PANEL);
    r.vocabulary(&triggers::EVENTS_VOCABULARY);
    r.subscriber(&enqueue::ENQUEUE);
    r.on_start(&worker::START);
    for service in [&panel::GET, &panel::POST, &panel::PATCH, &panel::DELETE] {
        r.service(service);
    }
    for service in [&assignments::GET, &assignments::POST, &assignments::PATCH, &assignments::DELETE] {
        r.service(service);
    }
    r.service(&deliveries::GET);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: [], build: build);
