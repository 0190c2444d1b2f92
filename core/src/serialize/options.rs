//! The query parameters that shape a content serialization.

use crate::http::RequestInfo;

use crate::api::Batch;

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
    /// Reads the options from a request; malformed values are 400s.
    pub fn from_request(request: &RequestInfo) -> ApiResult<SerializeOptions> {
        Ok(SerializeOptions {
            include_items: request.query_bool("include_items")?.unwrap_or(true),
            batch: Batch::from_query(&request.query)?,
            metadata_fields: request.query_values("metadata_fields"),
            fullobjects: request.query_bool("fullobjects")?.unwrap_or(false),
            expand: request.query_values("expand"),
            listing_url: request.service_url.clone(),
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
