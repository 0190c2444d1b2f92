//! The query parameters that shape a content serialization.

use crate::api::{Batch, parse_bool, query_values};
use crate::error::ApiResult;

/// What the client asked the serializers for.
#[derive(Clone, Debug)]
pub struct SerializeOptions {
    /// Whether folder items are listed (`include_items`, default true).
    pub include_items: bool,
    /// The page of items.
    pub batch: Batch,
    /// Extra summary columns (`metadata_fields`, `_all` for every one).
    pub metadata_fields: Vec<String>,
    /// Whether items are full serializations (`fullobjects`).
    pub fullobjects: bool,
    /// Components to inline (`expand`).
    pub expand: Vec<String>,
    /// The URL batch links are built on.
    pub listing_url: String,
}

impl SerializeOptions {
    /// Reads the options from a request's `query` pairs; batch links go to `listing_url`;
    /// malformed values are 400s.
    pub fn from_query(query: &[(String, String)], listing_url: &str) -> ApiResult<SerializeOptions> {
        let flag = |name: &str| query.iter().find(|(k, _)| k == name).map(|(_, v)| parse_bool(name, v)).transpose();
        Ok(SerializeOptions {
            include_items: flag("include_items")?.unwrap_or(true),
            batch: Batch::from_query(query)?,
            metadata_fields: query_values(query, "metadata_fields"),
            fullobjects: flag("fullobjects")?.unwrap_or(false),
            expand: query_values(query, "expand"),
            listing_url: listing_url.to_owned(),
        })
    }

    /// The options for an item inside a `fullobjects` listing: no nested items, no expansion.
    pub fn for_nested_item(&self) -> SerializeOptions {
        SerializeOptions {
            include_items: false,
            batch: self.batch,
            metadata_fields: Vec::new(),
            fullobjects: false,
            expand: Vec::new(),
            listing_url: self.listing_url.clone(),
        }
    }
}
