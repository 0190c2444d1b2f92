//! plone.app.discussion's permissions with its default roles. The `Owner` of a comment is its
//! author ([`crate::access::CommentAccess`] gives them the role on their own comments), so
//! "Edit comments" and "Delete own comments" reach authors without reaching everyone.

use wcs_core::security::{Permission, Role};

/// See comments at all.
pub const VIEW_COMMENTS: Permission = Permission::new("View comments");
/// Add a comment or a reply.
pub const REPLY_TO_ITEM: Permission = Permission::new("Reply to item");
/// Change a comment's text (while editing is enabled).
pub const EDIT_COMMENTS: Permission = Permission::new("Edit comments");
/// Delete any comment with its replies.
pub const DELETE_COMMENTS: Permission = Permission::new("Delete comments");
/// Delete one's own comment while nobody has replied to it (while that is enabled).
pub const DELETE_OWN_COMMENTS: Permission = Permission::new("Delete own comments");

/// Every permission with its default roles, as plone.app.discussion's role map has them.
pub const DEFAULTS: [(Permission, &[Role]); 5] = [
    (VIEW_COMMENTS, &[Role::ANONYMOUS]),
    (REPLY_TO_ITEM, &[Role::AUTHENTICATED]),
    (EDIT_COMMENTS, &[Role::MANAGER, Role::SITE_ADMINISTRATOR, Role::REVIEWER, Role::OWNER]),
    (DELETE_COMMENTS, &[Role::MANAGER, Role::SITE_ADMINISTRATOR, Role::REVIEWER]),
    (DELETE_OWN_COMMENTS, &[Role::MANAGER, Role::SITE_ADMINISTRATOR, Role::REVIEWER, Role::OWNER]),
];
