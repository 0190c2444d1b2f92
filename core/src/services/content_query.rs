//! The query parameters every request that answers with a serialized object reads
//! ([`crate::serialize::SerializeOptions`]); `expand` is added by the document, which knows the
//! components.

use crate::service::{ParamKind, QueryParam};

/// `include_items`, `metadata_fields`, `fullobjects`, `b_start`, `b_size`.
pub const CONTENT_QUERY: &[QueryParam] = &[
    QueryParam::new("include_items", ParamKind::Boolean, "Whether a container lists its items (default true)"),
    QueryParam::new("metadata_fields", ParamKind::StringList, "Metadata columns for each item; `_all` for all"),
    QueryParam::new("fullobjects", ParamKind::Boolean, "Items serialized in full instead of summaries"),
    QueryParam::new("b_start", ParamKind::Integer, "The first item of the batch (0-based)"),
    QueryParam::new("b_size", ParamKind::Integer, "The batch size"),
];
