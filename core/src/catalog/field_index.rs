//! Indexes a plugin adds to the catalog: a date kept in a top-level field of content (the
//! municipal profile's `start`, over `news_date`, as ftw.news indexes it). Core's own date
//! indexes are columns; these are read from the stored fields, in SQL, like them.

/// A date index over a top-level content field, registered with
/// [`Registrar::catalog_index`](crate::plugin::Registrar::catalog_index). Queries use it as
/// they use `created`: `start.query=…&start.range=min`, `sort_on=start`.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldIndex {
    /// The index's name in queries.
    pub name: &'static str,
    /// The field that holds the date (ISO 8601); ASCII letters, digits and `_` only, since it
    /// is written into SQL as an identifier.
    pub field: &'static str,
}

impl FieldIndex {
    /// Whether `field` may be written into SQL as it is.
    pub fn field_is_identifier(&self) -> bool {
        let mut chars = self.field.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    }
}

/// A date index of a query: one of core's columns, or a registered field index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DateIndex {
    /// Creation time.
    Created,
    /// Last change.
    Modified,
    /// Publication date.
    Effective,
    /// Expiry date.
    Expires,
    /// A plugin's date field.
    Field(&'static FieldIndex),
}

impl DateIndex {
    /// Core's date indexes, by name.
    pub const CORE: [(&'static str, DateIndex); 4] = [
        ("created", DateIndex::Created),
        ("modified", DateIndex::Modified),
        ("effective", DateIndex::Effective),
        ("expires", DateIndex::Expires),
    ];

    /// The date index called `name`, among core's and `registered`.
    pub fn named(name: &str, registered: &[&'static FieldIndex]) -> Option<DateIndex> {
        DateIndex::CORE
            .iter()
            .find(|(core, _)| *core == name)
            .map(|(_, index)| *index)
            .or_else(|| registered.iter().find(|index| index.name == name).map(|index| DateIndex::Field(index)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static START: FieldIndex = FieldIndex { name: "start", field: "news_date" };

    #[test]
    fn names_find_core_columns_then_registered_fields() {
        assert_eq!(DateIndex::named("created", &[&START]), Some(DateIndex::Created));
        assert_eq!(DateIndex::named("start", &[&START]), Some(DateIndex::Field(&START)));
        assert_eq!(DateIndex::named("start", &[]), None);
    }

    #[test]
    fn only_plain_identifiers_are_fields() {
        assert!(START.field_is_identifier());
        for bad in ["", "1st", "news-date", "a') OR 1=1 --", "naïve"] {
            assert!(!FieldIndex { name: "x", field: bad }.field_is_identifier(), "{bad}");
        }
    }
}
