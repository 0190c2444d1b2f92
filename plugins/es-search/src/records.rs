//! The plugin's registry records.

use serde_json::json;
use wcs_core::records::{RecordDef, RecordKind};

/// Terms offered as popular searches.
pub static POPULAR_SEARCHES: RecordDef = RecordDef {
    name: "wcs.backend.search.popular_searches",
    title: "Popular searches",
    description: "Search terms offered to visitors (GET @popular-searches).",
    kind: RecordKind::TextList,
    default: || json!([]),
};
