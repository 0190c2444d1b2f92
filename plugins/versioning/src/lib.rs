//! Versioning for wcs-backend: up to ten snapshots per object of a type with the `versioning`
//! behaviour (ContentPage and Chapter by default), kept in the `version` table outside the
//! content tree.
//!
//! A snapshot freezes the page, its layout, every block with its files, and the links among
//! them. Versions are listed, created, restored and deleted through `@versions` (stable ids)
//! and through the browser views `list_versions`, `display_version`, `compare_version`,
//! `create_version`, `restore_version` and `delete_version` (positional indexes, oldest = 0).
//! `@history` merges them with the workflow history for clients that know CMFEditions.

mod compare;
mod component;
pub mod events;
mod history;
mod history_revert;
mod items;
mod panel;
mod permissions;
mod render;
mod restore;
mod snapshot;
mod store;
mod tables;
mod versions;
mod views;
mod volto_markup;

pub use compare::html::{
    DEFAULT_DEADLINE, DiffOptions, HtmlDiff, ImageFile, MAX_ALIGNED_BYTES, Side, diff_html, no_image_files,
};
pub use permissions::{ACCESS_VERSIONS, CREATE_VERSIONS};
pub use store::create_version;
use wcs_core::content::TypeBehaviour;
use wcs_core::events::Event;
use wcs_core::plugin::Registrar;
use wcs_core::store::{Phase, Subscriber};

/// The plugin's id, as named in `--disable-plugin` and the manifest.
pub const PLUGIN_ID: &str = "versioning";

/// The behaviour that switches versioning on for a type.
pub const VERSIONING: &str = "versioning";

/// Plone's standard page keeps versions, as plone.app.versioningbehavior gives it them; other
/// types (a site profile's pages) list the behaviour in their own profiles.
static VERSIONED_DOCUMENT: TypeBehaviour = TypeBehaviour { portal_type: "Document", behaviour: VERSIONING };

/// How many versions an object keeps; creating one more drops the oldest.
pub const MAX_VERSIONS: usize = 10;

/// The plugin's message catalogs by language (also what tests and benchmarks build a
/// translator from).
pub const MESSAGES: [(&str, &str); 2] =
    [("en", include_str!("../locales/en.ftl")), ("de", include_str!("../locales/de.ftl"))];

/// Deleting content deletes its versions, in the same transaction.
static DROP_VERSIONS_OF_REMOVED: Subscriber = Subscriber {
    name: "versioning-drop-removed",
    phase: Phase::InTransaction(|tx, events| {
        Box::pin(async move {
            if events.iter().any(|e| matches!(e, Event::Removed { .. })) {
                tables::drop_orphans(tx).await?;
            }
            Ok(())
        })
    }),
};

fn build(r: &mut Registrar) {
    r.migrations(&tables::MIGRATIONS);
    r.type_behaviour(&VERSIONED_DOCUMENT);
    for kind in [&events::VERSION_CREATED, &events::VERSION_RESTORED, &events::VERSION_DELETED] {
        r.event_kind(kind);
    }
    r.subscriber(&DROP_VERSIONS_OF_REMOVED);
    r.permission(ACCESS_VERSIONS, permissions::ACCESS_ROLES);
    r.permission(CREATE_VERSIONS, permissions::CREATE_ROLES);
    r.service(&versions::get::GET);
    r.service(&versions::post::POST);
    r.service(&versions::delete::DELETE);
    r.component(&component::VERSIONS_COMPONENT);
    r.service(&history::HISTORY);
    r.service(&history_revert::HISTORY_REVERT);
    r.control_panel(&panel::VERSIONING_PANEL);
    for service in views::SERVICES {
        r.service(service);
    }
    for (name, source) in views::TEMPLATES {
        r.template(name, source);
    }
    for (language, source) in MESSAGES {
        r.messages(language, source);
    }
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
