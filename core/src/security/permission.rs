//! Typed permissions: call sites name a constant, never a string, so a typo is a compile error.

use super::{Principal, denied};
use crate::error::{ApiError, ErrorCode};

/// A permission, identified by its Plone name so role maps can be shared with Plone sites,
/// together with how a caller without it is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Permission {
    name: &'static str,
    refusal: Refusal,
}

/// How a caller who lacks a permission is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// 401 `unauthorized` for anonymous callers (logging in may help), 403 `forbidden` for
    /// authenticated ones (it will not): the rule for the API at large.
    LogInOrForbidden,
    /// 401 for everyone, as the specification fixes it for versions: `unauthorized` for
    /// anonymous callers, `not_allowed` (type `Forbidden`) for authenticated ones, so clients
    /// still tell "log in" from "not allowed", and a 403 always means a bad CSRF token.
    Unauthorized,
}

impl Permission {
    /// A permission refused by the API's rule ([`Refusal::LogInOrForbidden`]).
    pub const fn new(name: &'static str) -> Permission {
        Permission { name, refusal: Refusal::LogInOrForbidden }
    }

    /// The same permission, refused with 401 for every caller ([`Refusal::Unauthorized`]).
    pub const fn refused_as_unauthorized(self) -> Permission {
        Permission { name: self.name, refusal: Refusal::Unauthorized }
    }

    /// The permission's name as Plone spells it.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The error for `principal`, who lacks this permission.
    pub fn refuse(self, principal: &Principal) -> ApiError {
        let error = denied(principal, self.name);
        match (self.refusal, principal) {
            (Refusal::Unauthorized, Principal::User(_)) => {
                ApiError { code: ErrorCode::NotAllowed, ..error }.with_header("WWW-Authenticate", "Basic realm=\"wcs\"")
            }
            _ => error,
        }
    }

    /// Read an object and its fields.
    pub const VIEW: Permission = Permission::new("View");
    /// Change an object's fields.
    pub const MODIFY_PORTAL_CONTENT: Permission = Permission::new("Modify portal content");
    /// Create children inside a container.
    pub const ADD_PORTAL_CONTENT: Permission = Permission::new("Add portal content");
    /// Remove an object or move it away.
    pub const DELETE_OBJECTS: Permission = Permission::new("Delete objects");
    /// Site-wide administration.
    pub const MANAGE_PORTAL: Permission = Permission::new("Manage portal");
    /// Fire a transition that asks for review.
    pub const REQUEST_REVIEW: Permission = Permission::new("Request review");
    /// Publish or reject.
    pub const REVIEW_PORTAL_CONTENT: Permission = Permission::new("Review portal content");
    /// See expired or not yet effective content.
    pub const ACCESS_INACTIVE_CONTENT: Permission = Permission::new("Access inactive content");
    /// Grant local roles (sharing).
    pub const CHANGE_LOCAL_ROLES: Permission = Permission::new("Change local roles");
    /// Create, change and delete users and groups.
    pub const MANAGE_USERS: Permission = Permission::new("Manage users");
    /// Give or take the local role Contributor on the sharing page.
    pub const DELEGATE_CONTRIBUTOR_ROLE: Permission = Permission::new("Sharing page: Delegate Contributor role");
    /// Give or take the local role Editor on the sharing page.
    pub const DELEGATE_EDITOR_ROLE: Permission = Permission::new("Sharing page: Delegate Editor role");
    /// Give or take the local role Reader on the sharing page.
    pub const DELEGATE_READER_ROLE: Permission = Permission::new("Sharing page: Delegate Reader role");
    /// Give or take the local role Reviewer on the sharing page.
    pub const DELEGATE_REVIEWER_ROLE: Permission = Permission::new("Sharing page: Delegate Reviewer role");
    /// Read the audit log of changes to roles, groups, passwords and sharing (Managers only).
    pub const READ_AUDIT_LOG: Permission = Permission::new("wcs.backend: Read audit log");
    /// Read and change one's own account: the floor of `@users` reads and updates, whose
    /// handlers then allow only the account's owner or `Manage users`.
    pub const SET_OWN_PROPERTIES: Permission = Permission::new("Set own properties");
}
