//! The events comments tell, as the plugin's own kinds: the detail names the comment.

use serde_json::json;
use wcs_core::events::{Event, EventKind, PluginEvent};

/// A comment (or a reply) was added to an object.
pub static COMMENT_ADDED: EventKind = EventKind { name: "comment_added" };
/// A comment's text was changed.
pub static COMMENT_MODIFIED: EventKind = EventKind { name: "comment_modified" };
/// A comment was deleted (each reply deleted with it tells its own).
pub static COMMENT_REMOVED: EventKind = EventKind { name: "comment_removed" };

/// The event of `kind` for comment `comment_id` on the object `uid`.
pub fn comment_event(kind: &'static EventKind, uid: &str, comment_id: i64) -> Event {
    Event::Plugin(PluginEvent { kind, uid: uid.to_owned(), detail: json!({"comment_id": comment_id.to_string()}) })
}
