//! What a rule runs with: the event's object (or what is left of it), who caused the event,
//! and the site.

use crate::triggers::Trigger;
use wcs_core::app::App;
use wcs_core::content::ContentObject;
use wcs_core::events::Actor;
use wcs_core::security::{Principal, Role, User};

/// One rule's run for one event.
pub struct Run<'a> {
    /// The application.
    pub app: &'a App,
    /// The trigger.
    pub trigger: &'static Trigger,
    /// The event's object as it is now; `None` once it is deleted.
    pub object: Option<ContentObject>,
    /// Where the object was when the event was told.
    pub path: String,
    /// Its UID.
    pub uid: String,
    /// Who caused the event.
    pub actor: &'a Actor,
    /// The object's type at the event (`None` when it was deleted).
    pub portal_type: Option<String>,
    /// Its workflow state at the event.
    pub review_state: Option<String>,
    /// The workflow transition that made the event, for "Workflow state changed".
    pub transition: Option<String>,
}

impl Run<'_> {
    /// The site's URL as the actor saw it; the site's path when no request told it (a rule
    /// an import or a command-line write triggered).
    pub fn site_url(&self) -> String {
        self.actor.site_url.clone().unwrap_or_else(|| format!("/{}", self.site_id()))
    }

    /// The site's id.
    pub fn site_id(&self) -> &str {
        self.path.trim_start_matches('/').split('/').next().unwrap_or_default()
    }

    /// The object's public URL.
    pub fn object_url(&self) -> String {
        format!("{}{}", self.site_url(), self.path_in_site())
    }

    /// The object's path below the site root (`""` for the root itself).
    pub fn path_in_site(&self) -> &str {
        let site_path_len = self.site_id().len() + 1;
        self.path.get(site_path_len..).unwrap_or_default()
    }

    /// The actor as a principal, for permission checks of the actions that write.
    pub fn principal(&self) -> Principal {
        match &self.actor.user_id {
            None => Principal::Anonymous,
            Some(id) => Principal::User(User {
                id: id.clone(),
                fullname: id.clone(),
                roles: self
                    .actor
                    .roles
                    .iter()
                    .filter(|r| **r != Role::ANONYMOUS && **r != Role::AUTHENTICATED)
                    .cloned()
                    .collect(),
                groups: self.actor.groups.clone(),
                token_generation: String::new(),
            }),
        }
    }
}
