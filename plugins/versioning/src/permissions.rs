//! The two permissions that gate versioning, with their default roles.

use wcs_core::security::Permission;

/// List, view and compare versions.
pub const ACCESS_VERSIONS: Permission = Permission("wcs.backend Versioning: Access versions");

/// Create, restore and delete versions.
pub const CREATE_VERSIONS: Permission = Permission("wcs.backend Versioning: Create versions");

/// Who may look at versions by default: everyone who edits or reviews content, and Readers.
pub const ACCESS_ROLES: &[&str] = &["Manager", "Site Administrator", "Owner", "Editor", "Reviewer", "Reader"];

/// Who may make, restore and drop versions by default: the editing roles.
pub const CREATE_ROLES: &[&str] = &["Manager", "Site Administrator", "Owner", "Editor"];
