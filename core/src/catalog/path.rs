//! `path`: where results are, and how deep below.

use super::query::Raw;
use crate::api::parse_bool;
use crate::error::{ApiError, ApiResult};

/// A path criterion: physical paths and how deep below them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathCriterion {
    /// Physical paths (`/Plone/…`); empty means the context.
    pub paths: Vec<String>,
    /// `None`: the path and everything below; `Some(0)`: only the path; `Some(1)`: its
    /// children; `Some(n)`: the path and up to n levels below it, as Plone's ExtendedPathIndex
    /// answers.
    pub depth: Option<i64>,
}

/// The path criterion of `path=…`, `path.query=…`, `path.depth=…`: paths anchored at the site,
/// `depth` -1 for no limit.
pub(super) fn parse(raw: Raw, site_path: &str) -> ApiResult<PathCriterion> {
    let depth = match raw.options.get("depth").and_then(|d| d.first()) {
        None => None,
        Some(d) => Some(
            d.trim()
                .parse::<i64>()
                .ok()
                .filter(|n| *n >= -1)
                .ok_or_else(|| ApiError::invalid_parameter("path.depth", "path.depth must be a whole number."))?,
        )
        .filter(|n| *n >= 0),
    };
    if let Some(navtree) = raw.options.get("navtree").and_then(|v| v.first()) {
        parse_bool("path.navtree", navtree)?;
    }
    let paths =
        raw.plain.iter().chain(raw.options.get("query").into_iter().flatten()).map(|p| anchor(p, site_path)).collect();
    Ok(PathCriterion { paths, depth })
}

/// A physical path for `value`: kept when it starts at the site, else taken as site-relative.
fn anchor(value: &str, site_path: &str) -> String {
    let trimmed = value.trim().trim_end_matches('/');
    if trimmed == site_path || trimmed.starts_with(&format!("{site_path}/")) {
        trimmed.to_owned()
    } else {
        format!("{site_path}/{}", trimmed.trim_start_matches('/')).trim_end_matches('/').to_owned()
    }
}
