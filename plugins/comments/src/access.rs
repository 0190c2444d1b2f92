//! What the caller may do with an object's comments. A comment's author holds `Owner` on it,
//! as Plone gives the creator of any object; the object's own roles reach its comments as
//! Plone's acquisition does (so the object's owner may edit the comments on it).

use crate::permissions::{DELETE_COMMENTS, DELETE_OWN_COMMENTS, EDIT_COMMENTS, REPLY_TO_ITEM, VIEW_COMMENTS};
use crate::settings::Settings;
use crate::store::Comment;
use serde_json::Value;
use wcs_core::content::ContentObject;
use wcs_core::http::Ctx;
use wcs_core::security::{Access, Permission, Principal, Role};
use wcs_core::site::Site;
use wcs_core::store::LocalRole;

/// The object's `allow_discussion` field.
pub const ALLOW_DISCUSSION: &str = "allow_discussion";

/// Whether an object takes comments: discussion is enabled site-wide and on the object
/// (plone.app.discussion's `conversation_view.enabled()`; without a setting of its own an
/// object follows its type, and no type allows discussion by default).
pub fn discussion_enabled(settings: &Settings, object: &ContentObject) -> bool {
    settings.globally_enabled && object.fields.get(ALLOW_DISCUSSION).and_then(Value::as_bool) == Some(true)
}

/// The caller's rights over the comments of the request's object.
pub struct CommentAccess<'a> {
    site: &'a Site,
    principal: &'a Principal,
    access: &'a Access,
    /// The same access with `Owner` on the object, for the caller's own comments.
    as_author: Option<Access>,
    /// The discussion settings of the request.
    pub settings: Settings,
    enabled: bool,
}

impl<'a> CommentAccess<'a> {
    /// The rights of the request's caller over the comments of its object.
    pub fn new(ctx: &'a Ctx, settings: Settings) -> CommentAccess<'a> {
        let as_author = ctx.principal.user_id().map(|user| {
            let mut local = ctx.access.local_roles().to_vec();
            local.push(LocalRole {
                content_uid: ctx.context.uid.clone(),
                principal_id: user.to_owned(),
                role: Role::OWNER.name().to_owned(),
            });
            Access::from_parts(&ctx.principal, ctx.access.chain().to_vec(), &local)
        });
        let enabled = discussion_enabled(&settings, &ctx.context);
        CommentAccess { site: &ctx.app, principal: &ctx.principal, access: &ctx.access, as_author, settings, enabled }
    }

    fn allows(&self, permission: Permission) -> bool {
        self.access.allows(self.site, permission)
    }

    /// Whether `permission` holds on `comment`, its author being its `Owner`.
    fn allows_on(&self, comment: &Comment, permission: Permission) -> bool {
        if self.allows(permission) {
            return true;
        }
        let own = comment.author_username.is_some() && comment.author_username.as_deref() == self.principal.user_id();
        own && self.as_author.as_ref().is_some_and(|access| access.allows(self.site, permission))
    }

    /// Whether the object takes comments at all.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Whether the caller sees the comments.
    pub fn view_comments(&self) -> bool {
        self.allows(Permission::VIEW) && self.allows(VIEW_COMMENTS)
    }

    /// Whether the caller may add a comment or a reply: discussion is on, and they hold
    /// `Reply to item`, or anonymous comments are allowed and they are anonymous.
    pub fn can_reply(&self) -> bool {
        let anonymous = matches!(self.principal, Principal::Anonymous);
        self.enabled
            && self.view_comments()
            && (self.allows(REPLY_TO_ITEM) || (anonymous && self.settings.anonymous_comments))
    }

    /// Whether the caller may change the comment's text.
    pub fn is_editable(&self, comment: &Comment) -> bool {
        self.settings.edit_comment_enabled && self.allows_on(comment, EDIT_COMMENTS)
    }

    /// Whether the caller may delete the comment (with its replies): with `Delete comments`,
    /// or as its author while deleting one's own is enabled and nobody has replied.
    pub fn is_deletable(&self, comment: &Comment, has_replies: bool) -> bool {
        self.allows(DELETE_COMMENTS)
            || (self.settings.delete_own_comment_enabled
                && !has_replies
                && self.allows_on(comment, DELETE_OWN_COMMENTS))
    }
}
