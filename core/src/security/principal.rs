//! Who is making a request.

use super::Role;
use super::access::AUTHENTICATED_GROUP;

/// The caller of a request, resolved once by the security layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Principal {
    /// No credentials were sent.
    Anonymous,
    /// A user whose credentials were verified.
    User(User),
}

/// A verified user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// The stable user id.
    pub id: String,
    /// The display name; the id when none is stored.
    pub fullname: String,
    /// Global roles, the user's own and those of its groups.
    pub roles: Vec<String>,
    /// The groups the user belongs to (the virtual `AuthenticatedUsers` not included).
    pub groups: Vec<String>,
    /// What the user's tokens must name (see [`crate::store::StoredPrincipal::token_generation`]).
    pub token_generation: String,
}

impl Principal {
    /// The user id, or `None` for anonymous callers.
    pub fn user_id(&self) -> Option<&str> {
        match self {
            Principal::Anonymous => None,
            Principal::User(user) => Some(&user.id),
        }
    }

    /// The user id, or `Anonymous`, for records such as history entries.
    pub fn actor(&self) -> &str {
        self.user_id().unwrap_or("Anonymous")
    }

    /// Every role the principal holds site-wide, `Anonymous` and `Authenticated` included.
    pub fn global_roles(&self) -> Vec<String> {
        let mut roles = vec![Role::ANONYMOUS.into()];
        if let Principal::User(user) = self {
            roles.push(Role::AUTHENTICATED.into());
            roles.extend(user.roles.iter().cloned());
        }
        roles
    }

    /// Whether the principal holds a global role.
    pub fn has_role(&self, role: Role) -> bool {
        self.global_roles().iter().any(|r| *r == role)
    }

    /// Whether every permission check and every visibility filter passes for the principal:
    /// a Manager's, as in Zope. The one place that says so.
    pub fn bypasses_security(&self) -> bool {
        self.has_role(Role::MANAGER)
    }

    /// The ids local roles may be assigned to: the user, its groups and `AuthenticatedUsers`.
    pub fn ids(&self) -> Vec<String> {
        match self {
            Principal::Anonymous => Vec::new(),
            Principal::User(user) => std::iter::once(user.id.clone())
                .chain(user.groups.iter().cloned())
                .chain(std::iter::once(AUTHENTICATED_GROUP.to_owned()))
                .collect(),
        }
    }

    /// The `allowed` tokens that make an object visible to this principal.
    pub fn tokens(&self) -> Vec<String> {
        let mut tokens = self.global_roles();
        tokens.extend(self.ids().into_iter().map(|id| format!("user:{id}")));
        tokens
    }
}

impl From<&Principal> for crate::events::Actor {
    fn from(principal: &Principal) -> Self {
        crate::events::Actor {
            user_id: principal.user_id().map(str::to_owned),
            roles: principal.global_roles(),
            groups: match principal {
                Principal::Anonymous => Vec::new(),
                Principal::User(user) => user.groups.clone(),
            },
            site_url: None,
        }
    }
}
