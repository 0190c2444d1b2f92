//! Internal links in text: stored as `resolveuid/<uid>` so moves and renames never break them,
//! and turned back into absolute URLs when read.
//!
//! These functions are pure; the caller looks the uids and paths up (once per object, in one
//! query) and passes the answers in.

use std::collections::HashMap;

/// The marker of an internal link, as Plone's editors write it.
const RESOLVEUID: &str = "resolveuid/";
/// The variable some stored links use for the site root.
const PORTAL_URL: &str = "${portal_url}";
const UID_LEN: usize = 32;

/// Characters that end a URL inside HTML or plain text.
fn ends_url(c: char) -> bool {
    c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '(' | ')' | '=' | '`')
}

/// Whether `text` has the form of a uid (32 hex digits, either case).
pub fn is_uid(text: &str) -> bool {
    text.len() == UID_LEN && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// One `…resolveuid/<uid>` occurrence: the byte range of the URL part to replace and the uid.
struct UidLink {
    start: usize,
    end: usize,
    uid: String,
}

fn uid_links(text: &str) -> Vec<UidLink> {
    let mut links = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find(RESOLVEUID) {
        let marker = from + found;
        let uid_start = marker + RESOLVEUID.len();
        from = uid_start;
        let Some(uid) = text.get(uid_start..uid_start + UID_LEN).filter(|u| is_uid(u)) else {
            continue;
        };
        if text[uid_start + UID_LEN..].chars().next().is_some_and(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let start =
            text[..marker].rfind(ends_url).map_or(0, |i| i + text[i..].chars().next().map_or(1, char::len_utf8));
        links.push(UidLink { start, end: uid_start + UID_LEN, uid: uid.to_ascii_lowercase() });
        from = uid_start + UID_LEN;
    }
    links
}

/// The uids `text` links to through `resolveuid/<uid>`.
pub fn linked_uids(text: &str) -> Vec<String> {
    uid_links(text).into_iter().map(|link| link.uid).collect()
}

/// Turns `resolveuid/<uid>` links into absolute URLs and replaces `${portal_url}`.
///
/// `url_of` answers the URL of a uid the reader may see; any other uid (deleted, trashed or
/// hidden) becomes `<site_url>/resolveuid/<uid>`, which answers 404 when followed, so a
/// broken link never fails the request and never reveals where hidden content lives.
pub fn resolve_links(text: &str, site_url: &str, url_of: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut copied = 0;
    for link in uid_links(text) {
        out.push_str(&text[copied..link.start]);
        match url_of(&link.uid) {
            Some(url) => out.push_str(&url),
            None => {
                out.push_str(site_url);
                out.push('/');
                out.push_str(RESOLVEUID);
                out.push_str(&link.uid);
            }
        }
        copied = link.end;
    }
    out.push_str(&text[copied..]);
    if out.contains(PORTAL_URL) { out.replace(PORTAL_URL, site_url) } else { out }
}

/// An absolute or root-relative link into the site: where it is in the text and the path it names.
#[derive(Clone, Debug, PartialEq, Eq)]
struct InternalLink {
    start: usize,
    end: usize,
    /// `/<site>/a/b`, percent-decoded, without `++api++`.
    path: String,
}

/// Where links into the site start: `<base_url>/<site>` and `/<site>`.
pub struct SitePrefixes {
    absolute: String,
    relative: String,
}

impl SitePrefixes {
    /// The prefixes of the site `site_id` as reached through `base_url` (`scheme://host`).
    pub fn new(base_url: &str, site_id: &str) -> SitePrefixes {
        SitePrefixes { absolute: format!("{base_url}/{site_id}"), relative: format!("/{site_id}") }
    }

    /// Links written as paths below the site root (`/a/b`), as plone.exportimport writes a
    /// site's links; a match's path is the one written (`/a/b`).
    pub fn below_site() -> SitePrefixes {
        // No URL starts with an absolute prefix of `/`: that branch is for `scheme://host`.
        SitePrefixes { absolute: "/".to_owned(), relative: String::new() }
    }

    /// The site path of `url` when it points into the site: `/<site>/a/b`.
    fn site_path<'u>(&self, url: &'u str) -> Option<&'u str> {
        let rest = if !self.absolute.starts_with('/') && url.starts_with(&self.absolute) {
            &url[self.absolute.len() - self.relative.len()..]
        } else if url.starts_with(&self.relative) {
            url
        } else {
            return None;
        };
        let after = &rest[self.relative.len()..];
        (after.is_empty() || after.starts_with(['/', '?', '#'])).then_some(rest)
    }
}

impl SitePrefixes {
    /// The physical path a reference names: a URL or path into the site, or a path relative
    /// to the site root (`/a/b` and `a/b` both mean `/<site>/a/b`).
    pub fn physical_path(&self, reference: &str) -> String {
        let inside = self.site_path(reference);
        let path_part = inside.unwrap_or(reference);
        let path_part = &path_part[..path_part.find(['?', '#']).unwrap_or(path_part.len())];
        let decoded = percent_encoding::percent_decode_str(path_part).decode_utf8_lossy();
        let segments: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty() && *s != "++api++").collect();
        let site = &self.relative[1..];
        if inside.is_some() {
            format!("/{}", segments.join("/"))
        } else {
            format!("/{site}/{}", segments.join("/")).trim_end_matches('/').to_owned()
        }
    }
}

fn internal_links(text: &str, prefixes: &SitePrefixes, whole_value: bool) -> Vec<InternalLink> {
    let candidates: Vec<(usize, usize)> = if whole_value { vec![(0, text.len())] } else { attribute_values(text) };
    candidates
        .into_iter()
        .filter_map(|(start, end)| {
            let url = &text[start..end];
            let path_part = prefixes.site_path(url)?;
            let path_len = path_part.find(['?', '#']).unwrap_or(path_part.len());
            let decoded = percent_encoding::percent_decode_str(&path_part[..path_len]).decode_utf8().ok()?;
            let path: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty() && *s != "++api++").collect();
            Some(InternalLink { start, end, path: format!("/{}", path.join("/")) })
        })
        .collect()
}

/// The byte ranges of `href="…"` and `src="…"` values in sanitized HTML (always double-quoted).
fn attribute_values(html: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    for attribute in [" href=\"", " src=\""] {
        let mut from = 0;
        while let Some(found) = html[from..].find(attribute) {
            let start = from + found + attribute.len();
            let Some(len) = html[start..].find('"') else { break };
            ranges.push((start, start + len));
            from = start + len;
        }
    }
    ranges.sort_unstable();
    ranges
}

/// Every path that may name the object an internal link points at: each link's path and its
/// ancestors, so the caller can fetch them all in one query.
pub fn internal_link_candidates(text: &str, prefixes: &SitePrefixes, whole_value: bool) -> Vec<String> {
    let mut paths = Vec::new();
    for link in internal_links(text, prefixes, whole_value) {
        let mut path = link.path.as_str();
        while path.len() > 1 {
            paths.push(path.to_owned());
            path = &path[..path.rfind('/').unwrap_or(0)];
        }
    }
    paths.sort_unstable();
    paths.dedup();
    paths
}

/// Rewrites internal links as `resolveuid/<uid>` plus whatever followed the object's path
/// (a view name, `@@download/…`, a query or a fragment). `uid_at` maps existing paths to
/// uids; links to nothing known stay as they are.
pub fn internalize_links(
    text: &str,
    prefixes: &SitePrefixes,
    whole_value: bool,
    uid_at: &HashMap<String, String>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for link in internal_links(text, prefixes, whole_value) {
        let mut path = link.path.as_str();
        let uid = loop {
            if let Some(uid) = uid_at.get(path) {
                break Some(uid);
            }
            match path.rfind('/') {
                Some(cut) if cut > 0 => path = &path[..cut],
                _ => break None,
            }
        };
        let Some(uid) = uid else { continue };
        let url = &text[link.start..link.end];
        let tail_start = url.find(['?', '#']).unwrap_or(url.len());
        let remaining_segments = &link.path[path.len()..];
        out.push_str(&text[copied..link.start]);
        out.push_str(RESOLVEUID);
        out.push_str(uid);
        out.push_str(remaining_segments);
        out.push_str(&url[tail_start..]);
        copied = link.end;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const UID: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn resolves_uid_links_with_any_prefix_and_keeps_the_tail() {
        let html =
            format!(r#"<a href="../resolveuid/{UID}/@@download/file">x</a> <a href="resolveuid/{UID}#top">y</a>"#);
        let out = resolve_links(&html, "http://h/Plone", |uid| (uid == UID).then(|| "http://h/Plone/doc".into()));
        assert_eq!(out, r#"<a href="http://h/Plone/doc/@@download/file">x</a> <a href="http://h/Plone/doc#top">y</a>"#);
    }

    #[test]
    fn unknown_uids_point_at_the_resolver_and_portal_url_is_replaced() {
        let out = resolve_links(&format!("resolveuid/{UID}"), "http://h/Plone", |_| None);
        assert_eq!(out, format!("http://h/Plone/resolveuid/{UID}"));
        assert_eq!(resolve_links("${portal_url}/a", "http://h/Plone", |_| None), "http://h/Plone/a");
        assert_eq!(resolve_links("https://example.org/x", "http://h/Plone", |_| None), "https://example.org/x");
        assert_eq!(resolve_links("resolveuid/nothex", "http://h/Plone", |_| None), "resolveuid/nothex");
    }

    #[test]
    fn internal_links_become_uid_links_with_their_tail() {
        let prefixes = SitePrefixes::new("http://h", "Plone");
        let html = r#"<a href="http://h/Plone/++api++/a/b/@@download/file?x=1#f">x</a><a href="/Plone/a">y</a><a href="https://example.org/Plone/a">z</a>"#;
        let candidates = internal_link_candidates(html, &prefixes, false);
        assert!(candidates.contains(&"/Plone/a/b/@@download/file".to_owned()));
        let uids = HashMap::from([("/Plone/a/b".to_owned(), UID.to_owned()), ("/Plone/a".to_owned(), "a".repeat(32))]);
        let out = internalize_links(html, &prefixes, false, &uids);
        assert_eq!(
            out,
            format!(
                r#"<a href="resolveuid/{UID}/@@download/file?x=1#f">x</a><a href="resolveuid/{}">y</a><a href="https://example.org/Plone/a">z</a>"#,
                "a".repeat(32)
            )
        );
        assert_eq!(internalize_links("/Plonex/a", &prefixes, true, &uids), "/Plonex/a");
    }

    #[test]
    fn paths_below_the_site_become_uid_links_when_they_name_an_object() {
        let prefixes = SitePrefixes::below_site();
        let uids = HashMap::from([("/a/b".to_owned(), UID.to_owned())]);
        let html = r#"<a href="/a/b/@@download/file">x</a> <a href="https://example.org/a/b">y</a> <a href="/c">z</a>"#;
        assert_eq!(
            internalize_links(html, &prefixes, false, &uids),
            format!(
                r#"<a href="resolveuid/{UID}/@@download/file">x</a> <a href="https://example.org/a/b">y</a> <a href="/c">z</a>"#
            )
        );
        assert_eq!(internalize_links("/a/b#top", &prefixes, true, &uids), format!("resolveuid/{UID}#top"));
        assert_eq!(internalize_links("/controlpanel", &prefixes, true, &uids), "/controlpanel");
    }
}
