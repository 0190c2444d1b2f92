//! The full-text hook of `@search`: a plugin with a search engine answers queries that have
//! `SearchableText` (relevance first, with highlighted fragments when it is set up so); the
//! SQL path answers everything else, and full-text queries when no engine is there or the
//! engine declines one it cannot answer exactly.

use crate::app::App;
use crate::catalog::{Scope, SearchQuery};
use crate::context::Ctx;
use crate::error::ApiResult;
use crate::future::BoxFuture;
use std::collections::HashMap;

/// A plugin's full-text search for `@search`.
pub struct TextSearch {
    /// A name for listings.
    pub name: &'static str,
    /// What answers the queries in this application, for the system page (the embedded
    /// index, or a cluster the plugin was pointed at).
    pub engine: fn(&App) -> String,
    /// The page of hits for a query with text, within `scope` (the one the SQL path would
    /// answer in); `None` to leave the query to SQL.
    pub run: RunTextSearch,
}

/// How a [`TextSearch`] runs.
pub type RunTextSearch = for<'a> fn(&'a Ctx, &'a Scope, &'a SearchQuery) -> BoxFuture<'a, ApiResult<Option<TextHits>>>;

/// What a full-text search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextHits {
    /// The requested page of uids, most relevant first.
    pub uids: Vec<String>,
    /// How many match in all.
    pub total: i64,
    /// Highlighted fragments by uid, which replace the description in results.
    pub fragments: HashMap<String, String>,
}
