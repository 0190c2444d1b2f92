//! The HTML login form at `<site>/login` for browser views: shown by GET, checked by POST,
//! which sets the `auth_token` cookie that `@logout` clears.

pub mod get;
pub mod post;

use crate::http::{ApiError, ApiResult, Ctx};
use crate::security::{AUTH_COOKIE, TOKEN_LIFETIME_SECS};
use serde_json::json;

/// The session cookie carrying `token`, set by the HTML login form: no script needs it.
pub fn session_cookie(ctx: &Ctx, token: &str) -> String {
    format!("{AUTH_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={TOKEN_LIFETIME_SECS}{}", secure(ctx))
}

/// The session cookie `@login` and `@login-renew` set, as plone.restapi does. Not HttpOnly:
/// Volto reads and rewrites the same `auth_token` cookie from its scripts, and an HttpOnly
/// one would hide the token from it and keep it from renewing it (every Volto login failed
/// with one). @plone/client only needs the browser to send it.
pub fn api_session_cookie(ctx: &Ctx, token: &str) -> String {
    format!("{AUTH_COOKIE}={token}; Path=/; SameSite=Lax; Max-Age={TOKEN_LIFETIME_SECS}{}", secure(ctx))
}

/// The cookie that replaces the session cookie: same attributes, so the browser drops it.
pub fn clear_cookie(ctx: &Ctx) -> String {
    format!("{AUTH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{}", secure(ctx))
}

/// `; Secure` when the site is reached over https (a configured https public URL, or a trusted
/// proxy forwarding https), so the browser never sends the session over plain http.
fn secure(ctx: &Ctx) -> &'static str {
    if ctx.request.base_url.starts_with("https://") { "; Secure" } else { "" }
}

/// Only paths on this server are followed after login, never another site. Browsers drop tabs
/// and line breaks from a URL and read a backslash as a slash, so `/\t/evil.example` or
/// `/\\evil.example` would lead off-site: a path with any control character, white space or
/// backslash is refused, as is one starting with two slashes. Other characters beyond ASCII are
/// percent-encoded, so `Location` is always a valid header.
fn safe_return(came_from: &str, fallback: &str) -> String {
    let local = came_from.starts_with('/')
        && !came_from[1..].starts_with('/')
        && !came_from.chars().any(|c| c.is_control() || c.is_whitespace() || c == '\\');
    if !local {
        return fallback.to_owned();
    }
    percent_encoding::utf8_percent_encode(came_from, NOT_ASCII).to_string()
}

/// Characters beyond ASCII, encoded in a return path (everything else has been checked).
const NOT_ASCII: &percent_encoding::AsciiSet = percent_encoding::CONTROLS;

/// The form's HTML, filled in with `login`, `came_from` and an `error` to show.
fn render_form(ctx: &Ctx, login: &str, came_from: &str, error: &str) -> ApiResult<String> {
    let context = json!({
        "lang": "en",
        "site_title": ctx.context.title,
        "action": format!("/{}/login", ctx.context.id),
        "came_from": came_from,
        "login": login,
        "error": error,
    });
    ctx.app.templates.render("login.html", &context).map_err(ApiError::internal)
}

#[cfg(test)]
mod tests {
    use super::safe_return;

    #[test]
    fn only_local_paths_are_followed() {
        assert_eq!(safe_return("/Plone/doc", "/Plone"), "/Plone/doc");
        assert_eq!(safe_return("//evil.example/x", "/Plone"), "/Plone");
        assert_eq!(safe_return("https://evil.example", "/Plone"), "/Plone");
        assert_eq!(safe_return("/\\evil", "/Plone"), "/Plone");
        for sneaky in ["/\t/evil.example", "/\u{b}/evil.example", "/\n/evil", " //evil", "/ok\u{85}", "/a b"] {
            assert_eq!(safe_return(sneaky, "/Plone"), "/Plone", "{sneaky:?}");
        }
        assert_eq!(safe_return("/Plone/über?x=1", "/Plone"), "/Plone/%C3%BCber?x=1");
    }
}
