//! Role names. Roles are open: sites store them as text, workflows and the role map name them,
//! plugins and integrators add their own, so a role is a name rather than a closed set. Code
//! names roles only through these constants (or [`Role::custom`]), so a misspelt role does not
//! compile.

use std::fmt;

/// A role, by the name Plone gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Role(&'static str);

impl Role {
    /// Everyone, signed in or not.
    pub const ANONYMOUS: Role = Role("Anonymous");
    /// Everyone signed in.
    pub const AUTHENTICATED: Role = Role("Authenticated");
    /// A registered user (what self-registration and new accounts get).
    pub const MEMBER: Role = Role("Member");
    /// Who created an object, locally on it.
    pub const OWNER: Role = Role("Owner");
    /// May view (sharing's "Can view").
    pub const READER: Role = Role("Reader");
    /// May add content (sharing's "Can add").
    pub const CONTRIBUTOR: Role = Role("Contributor");
    /// May edit (sharing's "Can edit").
    pub const EDITOR: Role = Role("Editor");
    /// May publish (sharing's "Can review").
    pub const REVIEWER: Role = Role("Reviewer");
    /// Runs the site, but may not make Managers.
    pub const SITE_ADMINISTRATOR: Role = Role("Site Administrator");
    /// Holds every permission everywhere ([`super::Principal::bypasses_security`]).
    pub const MANAGER: Role = Role("Manager");

    /// A role a plugin or an integrator defines.
    pub const fn custom(name: &'static str) -> Role {
        Role(name)
    }

    /// The role's name, as stored and as the interface spells it.
    pub const fn name(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<str> for Role {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Role {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for Role {
    fn eq(&self, other: &String) -> bool {
        self.0 == other
    }
}

impl PartialEq<Role> for String {
    fn eq(&self, other: &Role) -> bool {
        self == other.0
    }
}

impl PartialEq<Role> for &str {
    fn eq(&self, other: &Role) -> bool {
        *self == other.0
    }
}

impl From<Role> for String {
    fn from(role: Role) -> String {
        role.0.to_owned()
    }
}
