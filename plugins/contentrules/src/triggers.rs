//! The triggers a rule may react to: the events of `plone.contentrules.events`, by the token
//! and title Plone gives them, and the events of this server each stands for.

use wcs_core::events::{Event, USER_CREATED, USER_LOGGED_IN, USER_LOGGED_OUT};
use wcs_core::future::BoxFuture;
use wcs_core::http::{ApiResult, Ctx};
use wcs_core::service::Vocabulary;

/// A trigger.
pub struct Trigger {
    /// The token: the dotted name of Plone's event interface.
    pub token: &'static str,
    /// The title Site Setup shows, and what rules name their trigger by over the API.
    pub title: &'static str,
}

impl Trigger {
    /// The CSS class Plone's listing gives rules of this trigger (`trigger-icommentaddedevent`).
    pub fn row_class(&self) -> String {
        let interface = self.token.rsplit('.').next().unwrap_or(self.token);
        format!("trigger-{}", interface.to_lowercase())
    }
}

/// Every trigger, in the order Site Setup offers them (by title, as Plone's vocabulary).
pub const TRIGGERS: [Trigger; 13] = [
    Trigger { token: "plone.app.discussion.interfaces.ICommentAddedEvent", title: "Comment added" },
    Trigger { token: "plone.app.discussion.interfaces.ICommentRemovedEvent", title: "Comment removed" },
    Trigger { token: "zope.lifecycleevent.interfaces.IObjectAddedEvent", title: "Object added to this container" },
    Trigger { token: "plone.app.iterate.interfaces.ICheckinEvent", title: "Object checked in" },
    Trigger { token: "plone.app.iterate.interfaces.ICheckoutEvent", title: "Object checked out" },
    Trigger { token: "zope.lifecycleevent.interfaces.IObjectCopiedEvent", title: "Object copied" },
    Trigger { token: "zope.lifecycleevent.interfaces.IObjectModifiedEvent", title: "Object modified" },
    Trigger { token: "zope.lifecycleevent.interfaces.IObjectMovedEvent", title: "Object moved" },
    Trigger {
        token: "zope.lifecycleevent.interfaces.IObjectRemovedEvent",
        title: "Object removed from this container",
    },
    Trigger { token: "Products.PluggableAuthService.interfaces.events.IPrincipalCreatedEvent", title: "User created" },
    Trigger { token: "Products.PluggableAuthService.interfaces.events.IUserLoggedInEvent", title: "User logged in" },
    Trigger { token: "Products.PluggableAuthService.interfaces.events.IUserLoggedOutEvent", title: "User logged out" },
    Trigger { token: "Products.CMFCore.interfaces.IActionSucceededEvent", title: "Workflow state changed" },
];

/// The trigger a rule names, by token or by title.
pub fn trigger(name: &str) -> Option<&'static Trigger> {
    TRIGGERS.iter().find(|t| t.token == name || t.title == name)
}

/// The title of the trigger a rule stores by token, as rules name it over the API (the token
/// itself for one this server does not know, such as an imported site's).
pub fn title_of(event: &str) -> String {
    trigger(event).map_or_else(|| event.to_owned(), |t| t.title.to_owned())
}

/// The trigger an event of this server fires, if any. Going to the trash is Plone's removal
/// (Volto's Delete); deleting from the trash tells nothing more.
pub fn fired_by(event: &Event) -> Option<&'static Trigger> {
    let title = match event {
        Event::Added { .. } => "Object added to this container",
        Event::Modified { .. } => "Object modified",
        Event::Moved { .. } => "Object moved",
        Event::Copied { .. } => "Object copied",
        Event::Trashed { .. } => "Object removed from this container",
        Event::Removed { .. } => "Object removed from this container",
        Event::WorkflowChanged { .. } => "Workflow state changed",
        Event::CheckedIn { .. } => "Object checked in",
        Event::CheckedOut { .. } => "Object checked out",
        Event::Plugin(plugin) if plugin.kind.name == "comment_added" => "Comment added",
        Event::Plugin(plugin) if plugin.kind.name == "comment_removed" => "Comment removed",
        Event::Plugin(plugin) if plugin.kind == &USER_CREATED => "User created",
        Event::Plugin(plugin) if plugin.kind == &USER_LOGGED_IN => "User logged in",
        Event::Plugin(plugin) if plugin.kind == &USER_LOGGED_OUT => "User logged out",
        _ => return None,
    };
    trigger(title)
}

/// `plone.contentrules.events`: the triggers, by token and title.
pub static EVENTS_VOCABULARY: Vocabulary = Vocabulary { name: "plone.contentrules.events", terms: event_terms };

fn event_terms(_: &Ctx) -> BoxFuture<'_, ApiResult<Vec<(String, String)>>> {
    Box::pin(async { Ok(TRIGGERS.iter().map(|t| (t.token.to_owned(), t.title.to_owned())).collect()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triggers_are_found_by_title_or_token_and_name_their_row_class() {
        let added = trigger("Comment added").map(Trigger::row_class);
        assert_eq!(added.as_deref(), Some("trigger-icommentaddedevent"));
        assert!(trigger("zope.lifecycleevent.interfaces.IObjectMovedEvent").is_some());
        assert!(trigger("Something else").is_none());
        let state = Event::WorkflowChanged { uid: "u".into(), state: "published".into() };
        assert_eq!(fired_by(&state).map(|t| t.title), Some("Workflow state changed"));
        assert!(fired_by(&Event::LocalRolesChanged { uid: "u".into() }).is_none());
    }
}
