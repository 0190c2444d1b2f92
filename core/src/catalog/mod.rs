//! The catalog: the index-query model of `@search`, parsed from the request and evaluated in
//! SQL over the catalog columns and the `allowed` tokens, so security is part of the query.

mod field_index;
mod more_criteria;
mod path;
mod query;
mod searchable;
mod sql;

pub use crate::store::{Bind, SearchSql, json_field};
pub use field_index::{DateIndex, FieldIndex};
pub use more_criteria::{IntRange, SqlCriteria};
pub use path::PathCriterion;
pub use query::{Criterion, DateRange, SearchQuery, SortIndex};
pub use searchable::is_searchable;
pub use sql::Scope;
