//! The criteria of Plone's catalog beyond those the full-text engines take: who created an
//! object, words of its title or description, its exact title, its place in its folder, what
//! it relates to, whether it is folderish or its folder's default page, its language. Volto's listing
//! blocks offer them (`@querystring`); only the SQL search answers them, so a query that
//! uses one is never handed to an engine.

use super::query::{Criterion, Raw, check_dictionary, criterion, parsing_error, words};
use crate::api::parse_bool;
use crate::error::ApiResult;

/// An inclusive range of whole numbers; `None` for an open side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntRange {
    /// The least value.
    pub min: Option<i64>,
    /// The greatest value.
    pub max: Option<i64>,
}

/// The criteria only SQL answers; all empty when the query uses none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SqlCriteria {
    /// `Creator`: the user who created the object.
    pub creator: Criterion,
    /// `Title`: words that must all occur in the title.
    pub title_words: Vec<String>,
    /// `Description`: words that must all occur in the description.
    pub description_words: Vec<String>,
    /// `sortable_title`: the whole title, ignoring case.
    pub title: Criterion,
    /// `getObjPositionInParent`: the place in the folder, from 0.
    pub position: IntRange,
    /// `getRawRelatedItems`: UIDs or paths, one of which the object's related items must hold.
    pub related_to: Vec<String>,
    /// `is_default_page`: whether the object is (or is not) its folder's default page.
    pub default_page: Option<bool>,
    /// `is_folderish`: whether the object's type is (or is not) folderish.
    pub folderish: Option<bool>,
    /// `Language`: the object's language code (`""` for neutral content); `all`, as
    /// plone.app.multilingual has it, asks for every language.
    pub language: Criterion,
}

impl SqlCriteria {
    /// Whether the query uses none of these.
    pub fn is_empty(&self) -> bool {
        *self == SqlCriteria::default()
    }

    /// Takes the values of `index` when it is one of these indexes; others are left alone.
    pub(super) fn take(&mut self, index: &str, raw: Raw) -> ApiResult<()> {
        match index {
            "Creator" => self.creator = criterion(index, raw)?,
            "Title" => self.title_words = words(&raw),
            "Description" => self.description_words = words(&raw),
            "sortable_title" => {
                let mut title = criterion(index, raw)?;
                title.any_of.iter_mut().chain(title.none_of.iter_mut()).for_each(|t| *t = t.to_lowercase());
                self.title = title;
            }
            "getObjPositionInParent" => self.position = int_range(index, raw)?,
            "getRawRelatedItems" => {
                check_dictionary(index, &raw)?;
                self.related_to =
                    raw.plain.into_iter().chain(raw.options.get("query").cloned().unwrap_or_default()).collect();
            }
            "is_default_page" | "isDefaultPage" => self.default_page = flag(index, &raw)?,
            "is_folderish" | "isFolderish" => self.folderish = flag(index, &raw)?,
            "Language" => {
                let language = criterion(index, raw)?;
                if !language.any_of.iter().any(|code| code == "all") {
                    self.language = language;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// A boolean index's value: `true`/`false` (also `1`/`0`, `True`/`False`), plain or as `query`.
fn flag(index: &str, raw: &Raw) -> ApiResult<Option<bool>> {
    let value = raw.plain.first().or_else(|| raw.options.get("query").and_then(|q| q.first()));
    value.map(|v| parse_bool(index, v)).transpose()
}

/// A number, or a `query` with a `range` of `min`, `max` or `min:max`, as for dates.
fn int_range(index: &str, raw: Raw) -> ApiResult<IntRange> {
    check_dictionary(index, &raw)?;
    let values: Vec<i64> = raw
        .plain
        .iter()
        .chain(raw.options.get("query").into_iter().flatten())
        .map(|v| v.trim().parse().map_err(|_| parsing_error(index, &format!("'{v}' is not a whole number."))))
        .collect::<ApiResult<_>>()?;
    let first = values.first().copied();
    Ok(match raw.options.get("range").and_then(|r| r.first()).map(String::as_str) {
        Some("min") => IntRange { min: first, max: None },
        Some("max") => IntRange { min: None, max: first },
        Some("min:max" | "minmax") if values.len() == 2 => IntRange { min: first, max: values.get(1).copied() },
        Some("min:max" | "minmax") => return Err(parsing_error(index, "a min:max range needs two numbers.")),
        None => IntRange { min: first, max: first },
        Some(other) => return Err(parsing_error(index, &format!("unknown range '{other}'."))),
    })
}

#[cfg(test)]
mod tests {
    use crate::catalog::SearchQuery;

    fn parse(q: &str) -> SearchQuery {
        SearchQuery::parse(&crate::api::parse_query(q), "/Plone", &[]).unwrap_or_default()
    }

    #[test]
    fn plone_indexes_beyond_the_engines_are_parsed() {
        let q = parse("Creator=anna&Title=Rat%20Haus&sortable_title=Startseite&is_folderish=true&isDefaultPage=0");
        assert_eq!(q.more.creator.any_of, vec!["anna"]);
        assert_eq!(q.more.title_words, vec!["rat", "haus"]);
        assert_eq!(q.more.title.any_of, vec!["startseite"]);
        assert_eq!((q.more.folderish, q.more.default_page), (Some(true), Some(false)));
        let q = parse("getObjPositionInParent.query=2&getObjPositionInParent.range=max&getRawRelatedItems=abc");
        assert_eq!((q.more.position.min, q.more.position.max), (None, Some(2)));
        assert_eq!(q.more.related_to, vec!["abc"]);
        assert_eq!(parse("Language=fr&Language=").more.language.any_of, vec!["fr", ""]);
        assert!(parse("Language=all").more.is_empty());
        assert!(parse("portal_type=Document").more.is_empty());
        let refused = |q: &str| SearchQuery::parse(&crate::api::parse_query(q), "/Plone", &[]).is_err();
        assert!(refused("getObjPositionInParent=first"));
        assert!(refused("is_folderish=perhaps"));
    }
}
