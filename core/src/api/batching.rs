//! Batching of listings: `b_size`/`b_start` parsing and the `batching` links object.
//!
//! Unlike upstream, every link carries `b_size` even when the client did not send it, so a
//! client following links never falls back to a different page size.

use super::QUERY_COMPONENT;
use crate::error::{ApiError, ApiResult};
use serde_json::{Value, json};

/// The default page size.
pub const DEFAULT_BATCH_SIZE: i64 = 25;
/// The largest page a client may ask for.
pub const MAX_BATCH_SIZE: i64 = 1000;

/// A requested page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Index of the first item.
    pub start: i64,
    /// Items per page.
    pub size: i64,
}

impl Default for Batch {
    fn default() -> Self {
        Batch { start: 0, size: DEFAULT_BATCH_SIZE }
    }
}

impl Batch {
    /// Reads `b_start` and `b_size` from query pairs.
    pub fn from_query(query: &[(String, String)]) -> ApiResult<Batch> {
        let mut batch = Batch::default();
        for (key, value) in query {
            match key.as_str() {
                "b_size" => batch.size = parse_int("b_size", value, 1, MAX_BATCH_SIZE)?,
                "b_start" => batch.start = parse_int("b_start", value, 0, i64::MAX)?,
                _ => {}
            }
        }
        Ok(batch)
    }
}

fn parse_int(name: &str, value: &str, min: i64, max: i64) -> ApiResult<i64> {
    let number: i64 = value
        .trim()
        .parse()
        .map_err(|_| ApiError::invalid_parameter(name, format!("Invalid {name}: Not an integer.")))?;
    if number < min || number > max {
        return Err(ApiError::invalid_parameter(name, format!("Invalid {name}: must be between {min} and {max}.")));
    }
    Ok(number)
}

/// The `batching` object for a listing at `url` (no query string) requested with `query`;
/// `None` when everything fits on one page.
pub fn batching_links(url: &str, query: &[(String, String)], batch: Batch, total: i64) -> Option<Value> {
    if total <= batch.size && batch.start == 0 {
        return None;
    }
    let others: String = query
        .iter()
        .filter(|(k, _)| k != "b_start" && k != "b_size")
        .map(|(k, v)| format!("&{}={}", encode(k), encode(v)))
        .collect();
    let link = |start: i64| format!("{url}?b_start={start}&b_size={}{others}", batch.size);
    let last = if total == 0 { 0 } else { (total - 1) / batch.size * batch.size };
    // plone.restapi's `@id` is the URL as requested, the query in the order it was sent.
    let current = if query.is_empty() { url.to_owned() } else { format!("{url}?{}", query_string(query)) };
    let mut links = json!({
        "@id": current,
        "first": link(0),
        "last": link(last),
    });
    if batch.start > 0 {
        links["prev"] = json!(link((batch.start - batch.size).max(0)));
    }
    // `b_start` may be as large as i64 takes; past it there is no next page.
    let next = batch.start.saturating_add(batch.size);
    if next < total {
        links["next"] = json!(link(next));
    }
    Some(links)
}

/// `a=1&b=2` from query pairs, encoded as batching links encode them.
pub fn query_string(pairs: &[(String, String)]) -> String {
    pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&")
}

fn encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, QUERY_COMPONENT).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_always_carry_b_size() {
        let query = vec![("sort_on".to_owned(), "path".to_owned())];
        let links = batching_links("http://h/Plone/f", &query, Batch { start: 25, size: 25 }, 60);
        let links = links.unwrap_or_default();
        assert_eq!(links["first"], "http://h/Plone/f?b_start=0&b_size=25&sort_on=path");
        assert_eq!(links["prev"], "http://h/Plone/f?b_start=0&b_size=25&sort_on=path");
        assert_eq!(links["next"], "http://h/Plone/f?b_start=50&b_size=25&sort_on=path");
        assert_eq!(links["last"], "http://h/Plone/f?b_start=50&b_size=25&sort_on=path");
    }

    #[test]
    fn a_start_near_the_largest_number_has_no_next_page() {
        let batch = Batch { start: i64::MAX - 5, size: 25 };
        let links = batching_links("u", &[], batch, i64::MAX).unwrap_or_default();
        assert!(links.get("next").is_none(), "{links}");
        assert_eq!(links["prev"], format!("u?b_start={}&b_size=25", i64::MAX - 30));
    }

    #[test]
    fn no_links_when_everything_fits() {
        assert!(batching_links("u", &[], Batch { start: 0, size: 25 }, 25).is_none());
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Batch::from_query(&[("b_size".into(), "x".into())]).is_err());
        assert!(Batch::from_query(&[("b_size".into(), "0".into())]).is_err());
        assert!(Batch::from_query(&[("b_start".into(), "-1".into())]).is_err());
    }
}
