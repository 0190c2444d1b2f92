//! What an alias may be: a path inside the site (given relative to it, starting with `/`)
//! where no object lives, and never the path of the object it points at.

use crate::app::App;
use crate::http::ApiResult;

/// The longest alias path, in bytes.
const MAX_PATH: usize = 1_000;
/// The most aliases one request may add or remove.
pub const MAX_ALIASES: usize = 1_000;

/// The physical path of the alias `path` (site-relative, starting with `/`), or why not.
pub fn alias_path(site_path: &str, path: &str) -> Result<String, String> {
    let trimmed = path.trim().trim_end_matches('/');
    if !trimmed.starts_with('/') || trimmed.len() < 2 {
        return Err(format!("'{path}': an alias is a path inside the site, starting with '/'."));
    }
    if trimmed.len() > MAX_PATH || trimmed.chars().any(|c| c.is_control() || c == '?' || c == '#') {
        return Err(format!("'{path}' is not a usable path."));
    }
    let segments: Vec<&str> = trimmed.split('/').skip(1).collect();
    if segments.iter().any(|s| s.is_empty() || *s == "." || *s == ".." || s.starts_with('@') || s.starts_with("++")) {
        return Err(format!("'{path}' is not a usable path."));
    }
    Ok(format!("{site_path}{trimmed}"))
}

/// Fails when an object lives at `physical`: an alias would hide it.
pub async fn check_free(app: &App, physical: &str, given: &str) -> ApiResult<Result<(), String>> {
    Ok(match app.store.content_at_path(physical).await? {
        Some(_) => Err(format!("'{given}' is the address of existing content.")),
        None => Ok(()),
    })
}

#[cfg(test)]
mod tests {
    use super::alias_path;

    #[test]
    fn aliases_are_clean_paths_inside_the_site() {
        assert_eq!(alias_path("/Plone", "/alt/seite/"), Ok("/Plone/alt/seite".to_owned()));
        for bad in ["alt", "/", "/a//b", "/a/../b", "/a/@@edit", "/a?x=1", "/++api++/a"] {
            assert!(alias_path("/Plone", bad).is_err(), "{bad}");
        }
    }
}
