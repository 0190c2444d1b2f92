//! What happened to content, told to whoever subscribed.
//!
//! The events are data here; telling them is the store's (`store::hooks`): every write goes
//! through a transaction, and the transaction records the events itself: its content writes (insert, update, move, delete, trash, workflow history,
//! local roles) each add theirs, so no write path can forget them; operations that
//! mean more than one write (a copy, a check-in) add their own on top, and plugins add events
//! of kinds they define ([`PluginEvent`]: versioning's version created, restored, deleted). When the
//! transaction commits, the events go to the subscribers plugins registered
//! ([`crate::plugin::Registrar::subscriber`]): those *in the transaction* first, with the
//! open transaction, so an error rolls the whole write back (the change feed is one); then
//! those *after commit*, on a task of their own, best effort, never delaying the response.

mod actor;

pub use actor::{Actor, acting, actor};

/// A change to content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// An object was created (also each object of a copy, and a block re-created by a restore).
    Added {
        /// The new object.
        uid: String,
        /// Where it is.
        path: String,
    },
    /// An object's fields changed.
    Modified {
        /// The object.
        uid: String,
        /// The names of the changed fields (`title`, `review_state`, `text`…).
        fields: Vec<String>,
    },
    /// An object and its subtree moved or were renamed.
    Moved {
        /// The subtree's root.
        uid: String,
        /// Its path before.
        from: String,
        /// Its path now.
        to: String,
    },
    /// An object was copied (each object of the copy is also `Added`).
    Copied {
        /// The copy's root.
        uid: String,
        /// The original.
        source: String,
    },
    /// A subtree went to the trash.
    Trashed {
        /// The subtree's root.
        uid: String,
    },
    /// A subtree came back from the trash.
    Untrashed {
        /// The subtree's root.
        uid: String,
    },
    /// A subtree was deleted for good.
    Removed {
        /// The subtree's root.
        uid: String,
        /// Where it was.
        path: String,
    },
    /// An object's workflow state changed (a transition, a set state or a restore).
    WorkflowChanged {
        /// The object.
        uid: String,
        /// The new state.
        state: String,
    },
    /// Local roles (or their inheritance) changed on an object, and so for its subtree.
    LocalRolesChanged {
        /// The subtree's root.
        uid: String,
    },
    /// A working copy of an object was made.
    CheckedOut {
        /// The original.
        uid: String,
        /// The working copy.
        working_copy: String,
    },
    /// A working copy went onto its original.
    CheckedIn {
        /// The original.
        uid: String,
        /// The working copy, gone now.
        working_copy: String,
    },
    /// A working copy was dropped.
    CheckoutCancelled {
        /// The original.
        uid: String,
        /// The working copy, gone now.
        working_copy: String,
    },
    /// Something a plugin defines happened to an object (a version was stored).
    Plugin(PluginEvent),
}

/// A kind of event a plugin defines, registered with
/// [`Registrar::event_kind`](crate::plugin::Registrar::event_kind) so that two plugins, or a
/// plugin and core, never tell different things under one name.
#[derive(Debug, PartialEq, Eq)]
pub struct EventKind {
    /// The name the change feed stores (`version_created`).
    pub name: &'static str,
}

/// A user logged in (`@login` or the login form); told on the site root, with `{"user": id}`.
pub static USER_LOGGED_IN: EventKind = EventKind { name: "user_logged_in" };
/// A user logged out; told on the site root, with `{"user": id}`.
pub static USER_LOGGED_OUT: EventKind = EventKind { name: "user_logged_out" };
/// A user was created (`@users`, its CSV upload, self-registration); told on the site root,
/// with `{"user": id}`, in the transaction that stores the user.
pub static USER_CREATED: EventKind = EventKind { name: "user_created" };

/// An event about a user rather than content, told on the site root (where Plone's
/// principal events fire) so what reacts to events of the site sees it.
pub fn user_event(kind: &'static EventKind, site_root_uid: &str, user_id: &str) -> Event {
    Event::Plugin(PluginEvent { kind, uid: site_root_uid.to_owned(), detail: serde_json::json!({"user": user_id}) })
}

/// An event of a kind a plugin defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginEvent {
    /// What happened.
    pub kind: &'static EventKind,
    /// The object it happened to.
    pub uid: String,
    /// What subscribers need besides (a version's number); the change feed keeps the kind and
    /// the object only.
    pub detail: serde_json::Value,
}

impl Event {
    /// The object the event is about.
    pub fn uid(&self) -> &str {
        use Event::*;
        match self {
            Added { uid, .. }
            | Modified { uid, .. }
            | Moved { uid, .. }
            | Copied { uid, .. }
            | Trashed { uid }
            | Untrashed { uid }
            | Removed { uid, .. }
            | WorkflowChanged { uid, .. }
            | LocalRolesChanged { uid }
            | CheckedOut { uid, .. }
            | CheckedIn { uid, .. }
            | CheckoutCancelled { uid, .. }
            | Plugin(PluginEvent { uid, .. }) => uid,
        }
    }

    /// The kind, as the change feed stores it.
    pub fn kind(&self) -> &'static str {
        use Event::*;
        match self {
            Added { .. } => "added",
            Modified { .. } => "modified",
            Moved { .. } => "moved",
            Copied { .. } => "copied",
            Trashed { .. } => "trashed",
            Untrashed { .. } => "untrashed",
            Removed { .. } => "removed",
            WorkflowChanged { .. } => "workflow_changed",
            LocalRolesChanged { .. } => "local_roles_changed",
            CheckedOut { .. } => "checked_out",
            CheckedIn { .. } => "checked_in",
            CheckoutCancelled { .. } => "checkout_cancelled",
            Plugin(event) => event.kind.name,
        }
    }

    /// Whether the event leaves what the store remembers of content (local roles, locks,
    /// working copies, where objects are) as it was: a field or state change, which the store
    /// applies to its memory itself, or an event about a user.
    pub fn leaves_content_facts(&self) -> bool {
        match self {
            Event::Modified { .. } | Event::WorkflowChanged { .. } => true,
            Event::Plugin(told) => [&USER_LOGGED_IN, &USER_LOGGED_OUT, &USER_CREATED].contains(&told.kind),
            _ => false,
        }
    }

    /// The kinds of core's own events, which no plugin's may take.
    pub const CORE_KINDS: [&'static str; 12] = [
        "added",
        "modified",
        "moved",
        "copied",
        "trashed",
        "untrashed",
        "removed",
        "workflow_changed",
        "local_roles_changed",
        "checked_out",
        "checked_in",
        "checkout_cancelled",
    ];
}

/// The events of one transaction as subscribers get them: an object added in it is told only
/// as added (its owner role and first state belong to being added), and the changes of one
/// object are told once, with every changed field.
pub(crate) fn coalesce(events: Vec<Event>) -> Vec<Event> {
    let added: Vec<String> =
        events.iter().filter(|e| matches!(e, Event::Added { .. })).map(|e| e.uid().to_owned()).collect();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    for event in events {
        let is_new = added.iter().any(|uid| uid == event.uid());
        match event {
            Event::Modified { .. } | Event::LocalRolesChanged { .. } | Event::WorkflowChanged { .. } if is_new => {}
            Event::Modified { uid, fields } => {
                let earlier = out.iter_mut().find_map(|e| match e {
                    Event::Modified { uid: u, fields: f } if *u == uid => Some(f),
                    _ => None,
                });
                match earlier {
                    Some(known) => {
                        for field in fields {
                            if !known.contains(&field) {
                                known.push(field);
                            }
                        }
                    }
                    None => out.push(Event::Modified { uid, fields }),
                }
            }
            Event::LocalRolesChanged { ref uid }
                if out.iter().any(|e| e == &Event::LocalRolesChanged { uid: uid.clone() }) => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modified(uid: &str, fields: &[&str]) -> Event {
        Event::Modified { uid: uid.into(), fields: fields.iter().map(|f| (*f).to_owned()).collect() }
    }

    #[test]
    fn core_kinds_are_the_kinds_of_core_events_and_plugins_name_their_own() {
        let uid = || String::from("u");
        let core = [
            Event::Added { uid: uid(), path: "/p".into() },
            Event::Modified { uid: uid(), fields: vec![] },
            Event::Moved { uid: uid(), from: "/a".into(), to: "/b".into() },
            Event::Copied { uid: uid(), source: uid() },
            Event::Trashed { uid: uid() },
            Event::Untrashed { uid: uid() },
            Event::Removed { uid: uid(), path: "/p".into() },
            Event::WorkflowChanged { uid: uid(), state: "published".into() },
            Event::LocalRolesChanged { uid: uid() },
            Event::CheckedOut { uid: uid(), working_copy: uid() },
            Event::CheckedIn { uid: uid(), working_copy: uid() },
            Event::CheckoutCancelled { uid: uid(), working_copy: uid() },
        ];
        let kinds: Vec<&str> = core.iter().map(Event::kind).collect();
        assert_eq!(kinds, Event::CORE_KINDS);
        static NOTED: EventKind = EventKind { name: "noted" };
        let plugin = Event::Plugin(PluginEvent { kind: &NOTED, uid: uid(), detail: serde_json::Value::Null });
        assert_eq!((plugin.kind(), plugin.uid()), ("noted", "u"));
    }

    #[test]
    fn an_added_object_is_told_once_and_changes_merge() {
        let events = vec![
            Event::Added { uid: "a".into(), path: "/p/a".into() },
            Event::LocalRolesChanged { uid: "a".into() },
            modified("a", &["title"]),
            modified("b", &["title"]),
            Event::LocalRolesChanged { uid: "b".into() },
            modified("b", &["text", "title"]),
            Event::LocalRolesChanged { uid: "b".into() },
        ];
        assert_eq!(
            coalesce(events),
            vec![
                Event::Added { uid: "a".into(), path: "/p/a".into() },
                modified("b", &["title", "text"]),
                Event::LocalRolesChanged { uid: "b".into() },
            ]
        );
    }
}
