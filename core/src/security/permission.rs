//! Typed permissions: call sites name a constant, never a string, so a typo is a compile error.

/// A permission, identified by its Plone name so role maps can be shared with Plone sites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Permission(pub &'static str);

impl Permission {
    /// Read an object and its fields.
    pub const VIEW: Permission = Permission("View");
    /// Change an object's fields.
    pub const MODIFY_PORTAL_CONTENT: Permission = Permission("Modify portal content");
    /// Create children inside a container.
    pub const ADD_PORTAL_CONTENT: Permission = Permission("Add portal content");
    /// Remove an object or move it away.
    pub const DELETE_OBJECTS: Permission = Permission("Delete objects");
    /// Site-wide administration.
    pub const MANAGE_PORTAL: Permission = Permission("Manage portal");

    /// The permission's name as Plone spells it.
    pub fn name(self) -> &'static str {
        self.0
    }
}

impl Permission {
    /// Fire a transition that asks for review.
    pub const REQUEST_REVIEW: Permission = Permission("Request review");
    /// Publish or reject.
    pub const REVIEW_PORTAL_CONTENT: Permission = Permission("Review portal content");
    /// See expired or not yet effective content.
    pub const ACCESS_INACTIVE_CONTENT: Permission = Permission("Access inactive content");
    /// Grant local roles (sharing).
    pub const CHANGE_LOCAL_ROLES: Permission = Permission("Change local roles");
    /// Create, change and delete users and groups.
    pub const MANAGE_USERS: Permission = Permission("Manage users");
}
