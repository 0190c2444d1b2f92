//! The events versioning tells: a version stored, restored or deleted. They are the plugin's
//! own kinds, told and fed like core's; the detail names the version.

use serde_json::json;
use wcs_core::events::{Event, EventKind, PluginEvent};

/// A version of an object was stored.
pub static VERSION_CREATED: EventKind = EventKind { name: "version_created" };
/// An object was restored from a version.
pub static VERSION_RESTORED: EventKind = EventKind { name: "version_restored" };
/// A version of an object was deleted.
pub static VERSION_DELETED: EventKind = EventKind { name: "version_deleted" };

/// The event of `kind` for version `version` of the object `uid`.
pub fn version_event(kind: &'static EventKind, uid: &str, version: i64) -> Event {
    Event::Plugin(PluginEvent { kind, uid: uid.to_owned(), detail: json!({"version": version}) })
}
