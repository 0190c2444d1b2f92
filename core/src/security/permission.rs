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
