//! Comments as plone.restapi serializes them (`Discussion Item`), and the HTML of comments
//! stored as "intelligent text".

use crate::access::CommentAccess;
use crate::settings::INTELLIGENT_TEXT;
use crate::store::Comment;
use poem_openapi::Object;
use regex::Regex;
use std::sync::LazyLock;
use wcs_core::content::values::format_time;

/// One comment.
#[derive(Object)]
#[oai(rename = "Comment")]
pub struct CommentItem {
    /// `<object>/@comments/<comment_id>`.
    #[oai(rename = "@id")]
    pub id: String,
    /// Always `Discussion Item`.
    #[oai(rename = "@type")]
    pub kind: String,
    /// The URL of the comment this one answers; `null` at the top.
    #[oai(rename = "@parent")]
    pub parent: Option<String>,
    /// The id, unique within the object.
    pub comment_id: String,
    /// The id of the comment this one answers; `null` at the top.
    pub in_reply_to: Option<String>,
    /// The text and how to show it.
    pub text: CommentText,
    /// Whether the author asked to hear of replies (never: notifications are not built).
    pub user_notification: Option<bool>,
    /// The author's user id; `null` for anonymous comments.
    pub author_username: Option<String>,
    /// The author's name.
    pub author_name: Option<String>,
    /// The URL of the author's portrait; `null` when they have none.
    pub author_image: Option<String>,
    /// When it was made.
    pub creation_date: String,
    /// When its text last changed.
    pub modification_date: String,
    /// Whether the caller may change it.
    pub is_editable: bool,
    /// Whether the caller may delete it.
    pub is_deletable: bool,
    /// Whether the caller may reply to it.
    pub can_reply: bool,
}

/// A comment's text.
#[derive(Object)]
#[oai(rename = "CommentText")]
pub struct CommentText {
    /// The text, or its HTML.
    pub data: String,
    /// `text/plain`, or `text/html` for intelligent text.
    #[oai(rename = "mime-type")]
    pub mime_type: String,
}

/// The comment as the caller sees it; `author_image` is the URL of the author's portrait.
pub fn comment_item(
    comment: &Comment,
    object_url: &str,
    rights: &CommentAccess<'_>,
    has_replies: bool,
    author_image: Option<String>,
) -> CommentItem {
    let comments_url = format!("{object_url}/@comments");
    let text = if comment.mime_type == INTELLIGENT_TEXT {
        CommentText { data: intelligent_text(&comment.text), mime_type: "text/html".into() }
    } else {
        CommentText { data: comment.text.clone(), mime_type: comment.mime_type.clone() }
    };
    CommentItem {
        id: format!("{comments_url}/{}", comment.id),
        kind: "Discussion Item".into(),
        parent: comment.in_reply_to.map(|parent| format!("{comments_url}/{parent}")),
        comment_id: comment.id.to_string(),
        in_reply_to: comment.in_reply_to.map(|parent| parent.to_string()),
        text,
        user_notification: None,
        author_username: comment.author_username.clone(),
        author_name: comment.author_name.clone(),
        author_image,
        creation_date: format_time(comment.created),
        modification_date: format_time(comment.modified),
        is_editable: rights.is_editable(comment),
        is_deletable: rights.is_deletable(comment, has_replies),
        can_reply: rights.can_reply(),
    }
}

/// Plain text as HTML: escaped, line breaks kept, web and e-mail addresses made links.
pub fn intelligent_text(text: &str) -> String {
    static ADDRESS: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r#"(?P<url>(?:https?|ftp)://[^\s<>"']+[^\s<>"'.,;:!?)])|(?P<mail>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"#)
            .ok()
    });
    let mut html = String::with_capacity(text.len() + text.len() / 8);
    let mut rest = 0;
    if let Some(address) = ADDRESS.as_ref() {
        for found in address.captures_iter(text) {
            let Some(whole) = found.get(0) else { continue };
            html.push_str(&escape(&text[rest..whole.start()]));
            let shown = escape(whole.as_str());
            if found.name("mail").is_some() {
                html.push_str(&format!("<a href=\"mailto:{shown}\">{shown}</a>"));
            } else {
                html.push_str(&format!("<a href=\"{shown}\" rel=\"nofollow\">{shown}</a>"));
            }
            rest = whole.end();
        }
    }
    html.push_str(&escape(&text[rest..]));
    html.replace("\r\n", "\n").replace('\n', "<br />")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::intelligent_text;

    #[test]
    fn intelligent_text_escapes_breaks_and_links() {
        let html = intelligent_text("<b>Hi</b> & see https://plone.org/news.\nMail me@example.org");
        assert_eq!(
            html,
            "&lt;b&gt;Hi&lt;/b&gt; &amp; see <a href=\"https://plone.org/news\" rel=\"nofollow\">\
             https://plone.org/news</a>.<br />Mail <a href=\"mailto:me@example.org\">me@example.org</a>"
        );
    }

    #[test]
    fn a_quote_cannot_leave_the_link() {
        let html = intelligent_text("http://x.org/\"onmouseover=alert(1)");
        assert!(!html.contains("\"onmouseover"), "{html}");
    }
}
