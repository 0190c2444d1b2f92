//! Comments for wcs-backend, as plone.app.discussion has them and plone.restapi serves them:
//! a conversation per object, threaded by replies, kept in the plugin's `comment` table
//! outside the content tree.
//!
//! `@comments` lists, adds, replies to, edits and deletes comments. An object takes comments
//! when discussion is on site-wide (`…IDiscussionSettings.globally_enabled`) and on the
//! object (its `allow_discussion`, which the plugin adds to Plone's standard types); the
//! serialized `allow_discussion` says whether it does, and Volto shows its comment form by
//! it. Site owners change the settings in Site Setup → Discussion.

mod access;
mod add;
mod allow;
mod delete;
mod discussions_file;
pub mod events;
mod get;
mod input;
mod panel;
pub mod permissions;
mod render;
pub mod settings;
mod store;
mod threads;
mod update;

pub use render::intelligent_text;
pub use store::MAX_PER_OBJECT;

use wcs_core::events::Event;
use wcs_core::plugin::Registrar;
use wcs_core::store::{Phase, Subscriber};

/// The plugin's id, as named in `--disable-plugin` and the manifest.
pub const PLUGIN_ID: &str = "comments";

/// The standard types that get the `allow_discussion` setting.
const DISCUSSABLE_TYPES: [&str; 8] = [
    include_str!("../types/document.toml"),
    include_str!("../types/news_item.toml"),
    include_str!("../types/event.toml"),
    include_str!("../types/folder.toml"),
    include_str!("../types/file.toml"),
    include_str!("../types/image.toml"),
    include_str!("../types/link.toml"),
    include_str!("../types/collection.toml"),
];

/// Deleting content deletes its comments, in the same transaction.
static DROP_COMMENTS_OF_REMOVED: Subscriber = Subscriber {
    name: "comments-drop-removed",
    phase: Phase::InTransaction(|tx, events| {
        Box::pin(async move {
            if events.iter().any(|e| matches!(e, Event::Removed { .. })) {
                store::drop_orphans(tx).await?;
            }
            Ok(())
        })
    }),
};

fn build(r: &mut Registrar) {
    r.migrations(&store::MIGRATIONS);
    r.site_file(&discussions_file::DISCUSSIONS);
    r.field_kind(&allow::ALLOW_DISCUSSION_KIND);
    for profile in DISCUSSABLE_TYPES {
        r.content_type(profile);
    }
    r.content_serializer(&allow::ALLOW_DISCUSSION_LAYER);
    for record in settings::RECORDS {
        r.record(record);
    }
    for (permission, roles) in permissions::DEFAULTS {
        r.permission(permission, roles);
    }
    for kind in [&events::COMMENT_ADDED, &events::COMMENT_MODIFIED, &events::COMMENT_REMOVED] {
        r.event_kind(kind);
    }
    r.subscriber(&DROP_COMMENTS_OF_REMOVED);
    r.service(&get::GET);
    r.service(&add::POST);
    r.service(&update::PATCH);
    r.service(&delete::DELETE);
    r.control_panel(&panel::DISCUSSION_PANEL);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
