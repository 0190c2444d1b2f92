//! The two permissions that gate versioning, with their default roles.

use wcs_core::security::{Permission, Role};

/// List, view and compare versions. Refused with 401 for every caller, as the specification
/// fixes it (its 403 is reserved for a bad CSRF token).
pub const ACCESS_VERSIONS: Permission =
    Permission::new("wcs.backend Versioning: Access versions").refused_as_unauthorized();

/// Create, restore and delete versions; refused like [`ACCESS_VERSIONS`].
pub const CREATE_VERSIONS: Permission =
    Permission::new("wcs.backend Versioning: Create versions").refused_as_unauthorized();

/// Who may look at versions by default: everyone who edits or reviews content, and Readers.
pub const ACCESS_ROLES: &[Role] =
    &[Role::MANAGER, Role::SITE_ADMINISTRATOR, Role::OWNER, Role::EDITOR, Role::REVIEWER, Role::READER];

/// Who may make, restore and drop versions by default: the editing roles.
pub const CREATE_ROLES: &[Role] = &[Role::MANAGER, Role::SITE_ADMINISTRATOR, Role::OWNER, Role::EDITOR];
