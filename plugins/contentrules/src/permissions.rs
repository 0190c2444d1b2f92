//! plone.app.contentrules' permission, with its default roles.

use wcs_core::security::{Permission, Role};

/// Assign rules to folders, enable them there, apply them to sub-folders (`@content-rules`).
pub const MANAGE_RULES: Permission = Permission::new("Content rules: Manage rules");

/// The default roles, as Plone's role map has them.
pub const DEFAULT_ROLES: &[Role] = &[Role::MANAGER, Role::SITE_ADMINISTRATOR];
