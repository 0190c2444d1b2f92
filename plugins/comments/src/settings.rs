//! plone.app.discussion's settings (`IDiscussionSettings`), as registry records under Plone's
//! names, so `@registry` writes from Plone tools and the discussion control panel both work.
//! Only the settings this plugin carries out are declared: moderation, captchas and mail
//! notifications are not built, and a record that changed nothing would mislead a site owner.

use serde_json::{Value, json};
use wcs_core::http::ApiResult;
use wcs_core::records::{RecordDef, RecordKind};
use wcs_core::site::Site;

/// Comments are possible at all (objects still need `allow_discussion`).
pub static GLOBALLY_ENABLED: RecordDef = RecordDef {
    name: "plone.app.discussion.interfaces.IDiscussionSettings.globally_enabled",
    title: "Globally enable comments",
    description: "If selected, users are able to post comments on the site. Comments still need to be \
                  enabled for each content object (its 'Allow discussion' setting).",
    kind: RecordKind::Bool,
    default: || json!(true),
    check: None,
};

/// Visitors who are not logged in may comment.
pub static ANONYMOUS_COMMENTS: RecordDef = RecordDef {
    name: "plone.app.discussion.interfaces.IDiscussionSettings.anonymous_comments",
    title: "Enable anonymous comments",
    description: "If selected, anonymous users are able to post comments without logging in.",
    kind: RecordKind::Bool,
    default: || json!(false),
    check: None,
};

/// Anonymous commenters must give an e-mail address.
pub static ANONYMOUS_EMAIL_ENABLED: RecordDef = RecordDef {
    name: "plone.app.discussion.interfaces.IDiscussionSettings.anonymous_email_enabled",
    title: "Enable anonymous email field",
    description: "If selected, anonymous users will have to give their email.",
    kind: RecordKind::Bool,
    default: || json!(false),
    check: None,
};

/// Holders of `Edit comments` may change comments.
pub static EDIT_COMMENT_ENABLED: RecordDef = RecordDef {
    name: "plone.app.discussion.interfaces.IDiscussionSettings.edit_comment_enabled",
    title: "Enable editing of comments",
    description: "If selected, supports editing of comments for users with the \"Edit comments\" permission.",
    kind: RecordKind::Bool,
    default: || json!(false),
    check: None,
};

/// Authors may delete their own comments while nobody has replied to them.
pub static DELETE_OWN_COMMENT_ENABLED: RecordDef = RecordDef {
    name: "plone.app.discussion.interfaces.IDiscussionSettings.delete_own_comment_enabled",
    title: "Enable deleting own comments",
    description: "If selected, supports deleting of own comments for users with the \"Delete own comments\" \
                  permission.",
    kind: RecordKind::Bool,
    default: || json!(false),
    check: None,
};

/// How new comments' text is shown.
pub static TEXT_TRANSFORM: RecordDef = RecordDef {
    name: "plone.app.discussion.interfaces.IDiscussionSettings.text_transform",
    title: "Comment text transform",
    description: "\"text/plain\" shows comments as they were typed; \"text/x-web-intelligent\" turns line breaks \
                  into breaks and web and e-mail addresses into links.",
    kind: RecordKind::Text,
    default: || json!(PLAIN_TEXT),
    check: Some(check_transform),
};

/// Every record, in the control panel's order.
pub static RECORDS: [&RecordDef; 6] = [
    &GLOBALLY_ENABLED,
    &ANONYMOUS_COMMENTS,
    &ANONYMOUS_EMAIL_ENABLED,
    &EDIT_COMMENT_ENABLED,
    &DELETE_OWN_COMMENT_ENABLED,
    &TEXT_TRANSFORM,
];

/// Comments shown as typed.
pub const PLAIN_TEXT: &str = "text/plain";
/// Plone's "intelligent text": breaks kept, addresses linked.
pub const INTELLIGENT_TEXT: &str = "text/x-web-intelligent";

fn check_transform(value: &Value) -> Result<(), String> {
    match value.as_str() {
        Some(PLAIN_TEXT | INTELLIGENT_TEXT) => Ok(()),
        _ => Err(format!("Expected \"{PLAIN_TEXT}\" or \"{INTELLIGENT_TEXT}\".")),
    }
}

/// The settings at the time of a request, read in one statement.
#[derive(Clone, Debug)]
pub struct Settings {
    /// [`GLOBALLY_ENABLED`].
    pub globally_enabled: bool,
    /// [`ANONYMOUS_COMMENTS`].
    pub anonymous_comments: bool,
    /// [`ANONYMOUS_EMAIL_ENABLED`].
    pub anonymous_email_enabled: bool,
    /// [`EDIT_COMMENT_ENABLED`].
    pub edit_comment_enabled: bool,
    /// [`DELETE_OWN_COMMENT_ENABLED`].
    pub delete_own_comment_enabled: bool,
    /// [`TEXT_TRANSFORM`]: the media type new comments are stored with.
    pub text_transform: String,
}

impl Settings {
    /// The current settings.
    pub async fn load(site: &Site) -> ApiResult<Settings> {
        let values = site.record_values(&RECORDS).await?;
        let flag = |i: usize| values.get(i).and_then(Value::as_bool).unwrap_or(false);
        Ok(Settings {
            globally_enabled: flag(0),
            anonymous_comments: flag(1),
            anonymous_email_enabled: flag(2),
            edit_comment_enabled: flag(3),
            delete_own_comment_enabled: flag(4),
            text_transform: values.get(5).and_then(Value::as_str).unwrap_or(PLAIN_TEXT).to_owned(),
        })
    }
}
