//! Traversal: URL path → deepest content object + the `@name` (or view) segment and its
//! parameters. A child object always wins over a service of the same name, as in Plone; a
//! path that matches nothing is looked up in the redirect table.

use crate::app::App;
use crate::content::ContentObject;
use crate::http::{ApiError, ApiResult};
use percent_encoding::percent_decode_str;
use poem::http::Method;
use std::sync::Arc;

/// The deepest path a request may name; deeper ones are 404s without a database query.
const MAX_SEGMENTS: usize = 64;
const API_SEGMENT: &str = "++api++";

/// A request path, decoded and split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedPath {
    /// Decoded segments without `++api++`.
    pub segments: Vec<String>,
    /// Whether `++api++` followed the site id.
    pub api_segment: bool,
}

/// Where a path leads.
#[derive(Debug)]
pub enum Target {
    /// An object, and what to call on it.
    Object {
        /// The site root down to the deepest object on the path.
        chain: Vec<Arc<ContentObject>>,
        /// The service or view name; `""` for the object itself.
        name: String,
        /// Segments after the name.
        subpath: Vec<String>,
    },
    /// The path moved: send the client to `location`.
    Redirect {
        /// The new URL (path and query).
        location: String,
    },
}

/// Splits and decodes a raw path. `%2F` inside a segment also splits, as OpenAPI clients
/// encode a multi-segment `{path}` parameter that way.
pub fn parse_path(raw: &str) -> Result<ParsedPath, ApiError> {
    let mut segments = Vec::new();
    for raw_segment in raw.split('/').filter(|s| !s.is_empty()) {
        let decoded = percent_decode_str(raw_segment).decode_utf8().map_err(|_| ApiError::not_found(raw))?;
        segments.extend(decoded.split('/').filter(|s| !s.is_empty()).map(str::to_owned));
    }
    let mut api_segment = false;
    while segments.get(1).is_some_and(|s| s == API_SEGMENT) {
        api_segment = true;
        segments.remove(1);
    }
    if segments.iter().any(|s| s == API_SEGMENT || s == "." || s == "..") || segments.len() > MAX_SEGMENTS {
        return Err(ApiError::not_found(raw));
    }
    Ok(ParsedPath { segments, api_segment })
}

/// Resolves a parsed path. `url` is the requested URL, for 404 messages.
pub async fn resolve(app: &App, method: &Method, path: &ParsedPath, query: &str, url: &str) -> ApiResult<Target> {
    let segments = &path.segments;
    if segments.is_empty() {
        return Err(ApiError::not_found(url));
    }
    let content_len = segments.iter().position(|s| s.starts_with('@')).unwrap_or(segments.len());
    let candidates: Vec<String> = (1..=content_len).map(|n| join(&segments[..n])).collect();
    let mut found = app.store.content_at_paths_with_trash(&candidates).await?;
    found.sort_by_key(|o| o.path.len());
    let mut chain: Vec<Arc<ContentObject>> = Vec::new();
    for object in found {
        let expected = candidates.get(chain.len());
        if expected == Some(&object.path) {
            chain.push(object);
        }
    }
    let in_trash = chain.iter().any(|o| o.is_trashed());
    // The deepest object that is there, for the 404's `context` (a physical path; the server
    // makes it a URL).
    let nearest = chain.iter().take_while(|o| !o.is_trashed()).last().map(|o| o.path.clone());
    let not_found = || match &nearest {
        Some(path) => ApiError::not_found(url).with_context(path.clone()),
        None => ApiError::not_found(url),
    };
    if let Some(target) = split_at_service(app, method, segments, chain) {
        return Ok(target);
    }
    if in_trash {
        return Err(not_found());
    }
    redirect(app, path, query).await?.ok_or_else(not_found)
}

/// Services that work on an object in the trash: restoring it and deleting it for good.
fn reaches_trash(method: &Method, name: &str) -> bool {
    name == "@untrash" || (*method == Method::DELETE && name.is_empty())
}

fn split_at_service(app: &App, method: &Method, segments: &[String], chain: Vec<Arc<ContentObject>>) -> Option<Target> {
    let depth = chain.len();
    let object = chain.last()?;
    let rest = &segments[depth..];
    let (name, subpath) = match rest.split_first() {
        None => (String::new(), Vec::new()),
        Some((name, subpath)) => {
            let profile = app.types.get(&object.portal_type)?;
            let known = |name: &str| {
                app.registry.service(method, name, &profile).is_some()
                    || !app.registry.methods_for(name, &profile).is_empty()
            };
            // A plugin may own a part of another service's namespace (`@controlpanels/
            // content-rules` beside core's `@controlpanels`): the longer name wins.
            match subpath.split_first() {
                Some((part, rest)) if app.registry.has_claimed_parts(name) && known(&format!("{name}/{part}")) => {
                    (format!("{name}/{part}"), rest.to_vec())
                }
                _ if known(name) => (name.clone(), subpath.to_vec()),
                _ => return None,
            }
        }
    };
    if chain.iter().any(|o| o.is_trashed()) && !reaches_trash(method, &name) {
        return None;
    }
    Some(Target::Object { chain, name, subpath })
}

/// Finds the longest moved prefix of the path and rebuilds the URL on its new location.
async fn redirect(app: &App, path: &ParsedPath, query: &str) -> ApiResult<Option<Target>> {
    let segments = &path.segments;
    let candidates: Vec<String> = (2..=segments.len()).map(|n| join(&segments[..n])).collect();
    let Some(hit) = app.store.find_redirect(&candidates).await? else {
        return Ok(None);
    };
    let requested = join(segments);
    if hit.target_trashed || hit.target_path == requested || hit.target_path.starts_with(&format!("{requested}/")) {
        return Ok(None);
    }
    let remainder = &requested[hit.old_path.len()..];
    let mut target = hit.target_path.clone();
    if path.api_segment {
        let site_len = target[1..].find('/').map_or(target.len(), |p| p + 1);
        target.insert_str(site_len, &format!("/{API_SEGMENT}"));
    }
    let mut location = encode_path(&format!("{target}{remainder}"));
    if !query.is_empty() {
        location.push('?');
        location.push_str(query);
    }
    Ok(Some(Target::Redirect { location }))
}

fn join(segments: &[String]) -> String {
    let mut path = String::new();
    for segment in segments {
        path.push('/');
        path.push_str(segment);
    }
    path
}

fn encode_path(path: &str) -> String {
    path.split('/')
        .map(|s| percent_encoding::utf8_percent_encode(s, crate::http::PATH_SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_the_api_segment() {
        let parsed = parse_path("/Plone/++api++/a/@move")
            .unwrap_or_else(|_| ParsedPath { segments: vec![], api_segment: false });
        assert!(parsed.api_segment);
        assert_eq!(parsed.segments, vec!["Plone", "a", "@move"]);
    }

    #[test]
    fn encoded_slashes_split() {
        let parsed = parse_path("/Plone/a%2Fb/@x").map(|p| p.segments).unwrap_or_default();
        assert_eq!(parsed, vec!["Plone", "a", "b", "@x"]);
    }

    #[test]
    fn misplaced_api_segment_is_not_found() {
        assert!(parse_path("/Plone/a/++api++").is_err());
        assert!(parse_path("/Plone/../etc").is_err());
    }
}
