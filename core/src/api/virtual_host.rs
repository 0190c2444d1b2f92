//! A request's virtual host (Zope's virtual hosting, see `http::vhost` for the paths that name
//! one): the public base and root its answers are written in, and the rewriting of URLs between
//! the physical root and the virtual one.

/// A request's virtual host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VirtualHost {
    /// `scheme://host[:port]` (a scheme's default port left out).
    pub base: String,
    /// The physical path the virtual root stands for (`/Plone`).
    pub physical_root: String,
    /// The `_vh_` segments, as a path (`/a/b`, or empty).
    pub virtual_prefix: String,
}

impl VirtualHost {
    /// A response text with the physical root's URL replaced by the virtual one.
    pub fn outbound(&self, text: &str) -> String {
        replace_prefix(
            text,
            &format!("{}{}", self.base, self.physical_root),
            &format!("{}{}", self.base, self.virtual_prefix),
        )
    }

    /// A request body with URLs of the virtual root replaced by the physical root's.
    pub fn inbound(&self, text: &str) -> String {
        replace_prefix(
            text,
            &format!("{}{}", self.base, self.virtual_prefix),
            &format!("{}{}", self.base, self.physical_root),
        )
    }
}

/// Replaces `from` with `to` wherever it stands as a whole URL prefix: followed by `/`, `?`,
/// `#`, a quote, whitespace, `<` or the end, not by more of a name (`/Plone2`).
fn replace_prefix(text: &str, from: &str, to: &str) -> String {
    if from == to || !text.contains(from) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(found) = rest.find(from) {
        let after = &rest[found + from.len()..];
        let whole = after
            .chars()
            .next()
            .is_none_or(|c| matches!(c, '/' | '?' | '#' | '"' | '\'' | '<' | '\\') || c.is_whitespace());
        out.push_str(&rest[..found]);
        out.push_str(if whole { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}
