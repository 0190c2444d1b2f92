//! Parsing `@search` parameters (plone.restapi's query string form) into a [`SearchQuery`].
//!
//! `index=value` (repeatable), dotted dictionaries (`index.query`, `.not`, `.operator`,
//! `.range`, `.depth`) and ZPublisher type hints (`:list`, `:int`, `:boolean`, `:date`) are
//! understood. A dictionary with neither `query` nor `not` is a query-parsing error (400);
//! unknown indexes are ignored, as upstream does.

use super::more_criteria::SqlCriteria;
use super::path::PathCriterion;
use super::{DateIndex, FieldIndex};
use crate::api::Batch;
use crate::content::values::parse_datetime;
use crate::error::{ApiError, ApiResult};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

/// The most parameters one search takes (every value of every index counts).
pub const MAX_PARAMETERS: usize = 200;
/// The most bytes of parameter names and values one search takes.
pub const MAX_QUERY_BYTES: usize = 16 * 1024;
/// The most words of `SearchableText`.
pub const MAX_TERMS: usize = 32;
/// The most values one index takes (`path`, `UID`, `portal_type`…).
pub const MAX_VALUES: usize = 100;

/// Bounds what one search may ask for, so every query stays cheap to plan and run (and below
/// the database's own limits on expression size), with a 400 naming the limit.
fn check_bounds(pairs: &[(String, String)]) -> ApiResult<()> {
    if pairs.len() > MAX_PARAMETERS {
        return Err(ApiError::new(
            crate::error::ErrorCode::InvalidParameter,
            format!("A search takes at most {MAX_PARAMETERS} parameters; this one has {}.", pairs.len()),
        ));
    }
    let bytes: usize = pairs.iter().map(|(k, v)| k.len() + v.len()).sum();
    if bytes > MAX_QUERY_BYTES {
        return Err(ApiError::new(
            crate::error::ErrorCode::InvalidParameter,
            format!("A search takes at most {MAX_QUERY_BYTES} bytes of parameters; this one has {bytes}."),
        ));
    }
    Ok(())
}

/// A keyword-like criterion: values to match (`or`, or `and` for keywords), values to exclude.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Criterion {
    /// Any (or all, with `and`) of these.
    pub any_of: Vec<String>,
    /// None of these.
    pub none_of: Vec<String>,
    /// `operator=and`: every value must match (keyword indexes).
    pub all: bool,
}

/// A date range criterion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DateRange {
    /// Inclusive lower bound.
    pub min: Option<DateTime<Utc>>,
    /// Inclusive upper bound.
    pub max: Option<DateTime<Utc>>,
}

/// What results are sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortIndex {
    /// Title, case-insensitive.
    Title,
    /// Creation time.
    Created,
    /// Last change.
    Modified,
    /// Publication date.
    Effective,
    /// Expiry date.
    Expires,
    /// The id.
    Id,
    /// The content type.
    PortalType,
    /// The workflow state.
    ReviewState,
    /// The creator's user id.
    Creator,
    /// Position in the container.
    Position,
    /// The physical path.
    Path,
    /// A plugin's date index.
    Field(&'static FieldIndex),
}

impl SortIndex {
    fn parse(name: &str, registered: &[&'static FieldIndex]) -> Option<SortIndex> {
        Some(match name {
            "sortable_title" | "Title" | "title" => SortIndex::Title,
            "created" | "Date" => SortIndex::Created,
            "modified" => SortIndex::Modified,
            "effective" => SortIndex::Effective,
            "expires" => SortIndex::Expires,
            "id" | "getId" => SortIndex::Id,
            "portal_type" => SortIndex::PortalType,
            "review_state" => SortIndex::ReviewState,
            "Creator" => SortIndex::Creator,
            "getObjPositionInParent" => SortIndex::Position,
            "path" => SortIndex::Path,
            _ => return registered.iter().find(|index| index.name == name).map(|index| SortIndex::Field(index)),
        })
    }
}

/// A parsed `@search` request.
#[derive(Clone, Debug, Default)]
pub struct SearchQuery {
    /// Full-text words, all of which must occur.
    pub text: Vec<String>,
    /// `portal_type`.
    pub portal_type: Criterion,
    /// `review_state`.
    pub review_state: Criterion,
    /// `UID`.
    pub uid: Criterion,
    /// `Subject` (keywords in the `subjects` field).
    pub subject: Criterion,
    /// `id` / `getId`.
    pub id: Criterion,
    /// `path`.
    pub path: PathCriterion,
    /// Date ranges by index (`created`, `modified`, `effective`, `expires`, and the date
    /// indexes plugins register).
    pub dates: BTreeMap<DateIndex, DateRange>,
    /// Sort keys with descending flags.
    pub sort: Vec<(SortIndex, bool)>,
    /// At most this many results.
    pub sort_limit: Option<i64>,
    /// The page.
    pub batch: Batch,
    /// Plone's indexes that only the SQL search answers.
    pub more: SqlCriteria,
}

/// The parameters that shape the response rather than select content.
const RESPONSE_PARAMETERS: [&str; 5] =
    ["b_size", "b_start", "metadata_fields", "fullobjects", "use_site_search_settings"];

/// One index's parameters gathered from the query string.
#[derive(Default)]
pub(super) struct Raw {
    pub(super) plain: Vec<String>,
    pub(super) options: BTreeMap<String, Vec<String>>,
}

impl SearchQuery {
    /// Parses query pairs; `site_path` (e.g. `/Plone`) anchors relative paths, and
    /// `registered` are the date indexes plugins add to core's.
    pub fn parse(
        pairs: &[(String, String)],
        site_path: &str,
        registered: &[&'static FieldIndex],
    ) -> ApiResult<SearchQuery> {
        check_bounds(pairs)?;
        let mut query = SearchQuery { batch: Batch::from_query(pairs)?, ..SearchQuery::default() };
        let mut sort_orders = Vec::new();
        for (index, raw) in gather(pairs) {
            let values = raw.plain.len() + raw.options.values().map(Vec::len).sum::<usize>();
            if values > MAX_VALUES {
                return Err(ApiError::invalid_parameter(
                    &index,
                    format!("'{index}' takes at most {MAX_VALUES} values; {values} were given."),
                ));
            }
            match index.as_str() {
                "SearchableText" => {
                    query.text = words(&raw);
                    if query.text.len() > MAX_TERMS {
                        return Err(ApiError::invalid_parameter(
                            "SearchableText",
                            format!("Search for at most {MAX_TERMS} words; {} were given.", query.text.len()),
                        ));
                    }
                }
                "portal_type" => query.portal_type = criterion(&index, raw)?,
                "review_state" => query.review_state = criterion(&index, raw)?,
                "UID" => query.uid = criterion(&index, raw)?,
                "Subject" => query.subject = criterion(&index, raw)?,
                "id" | "getId" => query.id = criterion(&index, raw)?,
                "path" => query.path = super::path::parse(raw, site_path)?,
                "sort_on" => {
                    for name in &raw.plain {
                        let index = SortIndex::parse(name, registered).ok_or_else(|| {
                            ApiError::invalid_parameter("sort_on", format!("'{name}' is not a sortable index."))
                        })?;
                        query.sort.push((index, false));
                    }
                }
                "sort_order" => sort_orders = raw.plain,
                "sort_limit" => query.sort_limit = Some(sort_limit(&raw)?),
                name => match DateIndex::named(name, registered) {
                    Some(date) => {
                        query.dates.insert(date, date_range(&index, raw)?);
                    }
                    None => query.more.take(name, raw)?,
                },
            }
        }
        apply_sort_orders(&mut query.sort, &sort_orders)?;
        Ok(query)
    }
}

/// The query string's parameters grouped by index: `portal_type=…` is a plain value,
/// `path.depth=…` an option; `:list`-style suffixes are ignored, and so are the parameters
/// that shape the response rather than the search.
fn gather(pairs: &[(String, String)]) -> BTreeMap<String, Raw> {
    let mut raw: BTreeMap<String, Raw> = BTreeMap::new();
    for (key, value) in pairs {
        let key = key.split(':').next().unwrap_or_default();
        if RESPONSE_PARAMETERS.contains(&key) {
            continue;
        }
        match key.split_once('.') {
            Some((index, option)) => raw
                .entry(index.to_owned())
                .or_default()
                .options
                .entry(option.to_owned())
                .or_default()
                .push(value.clone()),
            None => raw.entry(key.to_owned()).or_default().plain.push(value.clone()),
        }
    }
    raw
}

/// The words of a full-text criterion, lowercased, without operators and wildcards.
pub(super) fn words(raw: &Raw) -> Vec<String> {
    raw.plain
        .iter()
        .chain(raw.options.get("query").into_iter().flatten())
        .flat_map(|t| t.split_whitespace())
        .map(|w| w.trim_matches(|c: char| "*()\"".contains(c)).to_lowercase())
        .filter(|w| !w.is_empty() && !matches!(w.as_str(), "and" | "or"))
        .collect()
}

fn sort_limit(raw: &Raw) -> ApiResult<i64> {
    let limit = raw.plain.first().map(String::as_str).unwrap_or_default();
    limit
        .parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| ApiError::invalid_parameter("sort_limit", "sort_limit must be a positive whole number."))
}

/// `sort_order` values apply to the `sort_on` indexes in turn; a lone one to the last.
fn apply_sort_orders(sort: &mut [(SortIndex, bool)], orders: &[String]) -> ApiResult<()> {
    for (position, order) in orders.iter().enumerate() {
        let descending = match order.as_str() {
            "ascending" | "asc" => false,
            "descending" | "desc" | "reverse" => true,
            other => {
                return Err(ApiError::invalid_parameter("sort_order", format!("Unknown sort_order '{other}'.")));
            }
        };
        if let Some(entry) = sort.get_mut(position) {
            entry.1 = descending;
        } else if let Some(last) = sort.last_mut() {
            last.1 = descending;
        }
    }
    Ok(())
}

pub(super) fn parsing_error(index: &str, message: &str) -> ApiError {
    ApiError::invalid_parameter(index, format!("QueryParsingError: {message}"))
}

/// A dictionary must say what to match (`query`) or what to exclude (`not`).
pub(super) fn check_dictionary(index: &str, raw: &Raw) -> ApiResult<()> {
    if raw.plain.is_empty()
        && !raw.options.is_empty()
        && !raw.options.contains_key("query")
        && !raw.options.contains_key("not")
    {
        return Err(parsing_error(index, &format!("the query of '{index}' has neither 'query' nor 'not'.")));
    }
    Ok(())
}

pub(super) fn criterion(index: &str, raw: Raw) -> ApiResult<Criterion> {
    check_dictionary(index, &raw)?;
    let all = match raw.options.get("operator").and_then(|o| o.first()).map(String::as_str) {
        None | Some("or") => false,
        Some("and") => true,
        Some(other) => return Err(parsing_error(index, &format!("unknown operator '{other}'."))),
    };
    let mut any_of = raw.plain;
    any_of.extend(raw.options.get("query").cloned().unwrap_or_default());
    Ok(Criterion { any_of, none_of: raw.options.get("not").cloned().unwrap_or_default(), all })
}

fn date_range(index: &str, raw: Raw) -> ApiResult<DateRange> {
    check_dictionary(index, &raw)?;
    let values: Vec<DateTime<Utc>> = raw
        .plain
        .iter()
        .chain(raw.options.get("query").into_iter().flatten())
        .map(|v| parse_datetime(v).map_err(|m| parsing_error(index, &m)))
        .collect::<ApiResult<_>>()?;
    let range = raw.options.get("range").and_then(|r| r.first()).map(String::as_str);
    let first = values.first().copied();
    Ok(match range {
        Some("min") => DateRange { min: first, max: None },
        Some("max") => DateRange { min: None, max: first },
        Some("min:max") | Some("minmax") => {
            if values.len() != 2 {
                return Err(parsing_error(index, "a min:max range needs two dates."));
            }
            DateRange { min: values.first().copied(), max: values.get(1).copied() }
        }
        None => DateRange { min: first, max: first },
        Some(other) => return Err(parsing_error(index, &format!("unknown range '{other}'."))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &str) -> Vec<(String, String)> {
        crate::api::parse_query(q)
    }

    #[test]
    fn dictionaries_need_query_or_not() {
        assert!(SearchQuery::parse(&pairs("portal_type.operator=and"), "/Plone", &[]).is_err());
        let q = SearchQuery::parse(&pairs("portal_type.not=Folder"), "/Plone", &[]).unwrap_or_default();
        assert_eq!(q.portal_type.none_of, vec!["Folder"]);
    }

    #[test]
    fn sorting_and_paths() {
        let q =
            SearchQuery::parse(&pairs("sort_on=modified&sort_order=reverse&path.query=/a&path.depth=1"), "/Plone", &[])
                .unwrap_or_default();
        assert_eq!(q.sort, vec![(SortIndex::Modified, true)]);
        assert_eq!(q.path.paths, vec!["/Plone/a"]);
        assert_eq!(q.path.depth, Some(1));
        assert!(SearchQuery::parse(&pairs("sort_on=nope"), "/Plone", &[]).is_err());
    }

    #[test]
    fn date_ranges() {
        let q =
            SearchQuery::parse(&pairs("created.query=2026-01-01&created.range=min"), "/Plone", &[]).unwrap_or_default();
        assert!(q.dates[&DateIndex::Created].min.is_some() && q.dates[&DateIndex::Created].max.is_none());
        assert!(SearchQuery::parse(&pairs("created.query=soon&created.range=min"), "/Plone", &[]).is_err());
    }

    static START: FieldIndex = FieldIndex { name: "start", field: "news_date" };

    #[test]
    fn a_registered_date_index_is_queried_and_sorted_like_core_ones() {
        let query = "start.query=2026-01-01&start.range=min&sort_on=start&sort_order=descending";
        let q = SearchQuery::parse(&pairs(query), "/Plone", &[&START]).unwrap_or_default();
        assert!(q.dates[&DateIndex::Field(&START)].min.is_some());
        assert_eq!(q.sort, vec![(SortIndex::Field(&START), true)]);
        // Without the plugin that registers it, the index does not exist.
        assert!(SearchQuery::parse(&pairs("sort_on=start"), "/Plone", &[]).is_err());
        let ignored = SearchQuery::parse(&pairs("start.query=2026-01-01&start.range=min"), "/Plone", &[]);
        assert!(ignored.is_ok_and(|q| q.dates.is_empty()), "unknown indexes are ignored, as upstream does");
    }
}
