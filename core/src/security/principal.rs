//! Who is making a request.

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
    /// Global roles, e.g. `Manager`.
    pub roles: Vec<String>,
}

impl Principal {
    /// The user id, or `None` for anonymous callers.
    pub fn user_id(&self) -> Option<&str> {
        match self {
            Principal::Anonymous => None,
            Principal::User(user) => Some(&user.id),
        }
    }

    /// Whether the principal holds a global role.
    pub fn has_role(&self, role: &str) -> bool {
        match self {
            Principal::Anonymous => role == "Anonymous",
            Principal::User(user) => role == "Authenticated" || user.roles.iter().any(|r| r == role),
        }
    }
}
