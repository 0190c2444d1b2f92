//! A Collection mapped to a type without a query of its own (`"Collection" = "Document"` in a
//! type mapping) becomes a page with a title block and a listing block built from the
//! collection's query, sort order and limits: what Volto's editors make instead of a
//! collection, and what plone.volto's own migration of collections builds.

use serde_json::{Map, Value, json};
use wcs_core::content::{FieldKind, TypeProfile};

/// The block ids: fixed, so an import run again writes the same page.
const TITLE_BLOCK: &str = "collection-title";
const LISTING_BLOCK: &str = "collection-listing";

/// Moves a collection's query in `body` into blocks when `profile` has blocks but no query
/// field, and the page has no blocks of its own; `true` when it did.
pub fn as_listing_page(body: &mut Map<String, Value>, profile: &TypeProfile) -> bool {
    let takes_blocks = profile.fields.iter().any(|f| f.name == "blocks" && f.kind == FieldKind::Blocks);
    let has_blocks = body.get("blocks").and_then(Value::as_object).is_some_and(|b| !b.is_empty());
    if profile.field("query").is_some() || !takes_blocks || has_blocks {
        return false;
    }
    let Some(query) = body.remove("query").filter(|q| q.as_array().is_some_and(|q| !q.is_empty())) else {
        return false;
    };
    let mut querystring = json!({"query": query});
    if let Some(sort_on) = body.remove("sort_on").filter(|s| s.as_str().is_some_and(|s| !s.is_empty())) {
        querystring["sort_on"] = sort_on;
        let reversed = body.get("sort_reversed").and_then(Value::as_bool).unwrap_or(false);
        querystring["sort_order"] = json!(if reversed { "descending" } else { "ascending" });
    }
    for (from, to) in [("limit", "limit"), ("item_count", "b_size")] {
        if let Some(count) = body.get(from).and_then(Value::as_u64).filter(|n| *n > 0) {
            querystring[to] = json!(count);
        }
    }
    for key in ["sort_reversed", "limit", "item_count", "customViewFields"] {
        body.remove(key);
    }
    let listing = json!({"@type": "listing", "querystring": querystring, "variation": "default"});
    body.insert("blocks".into(), json!({TITLE_BLOCK: {"@type": "title"}, LISTING_BLOCK: listing}));
    body.insert("blocks_layout".into(), json!({"items": [TITLE_BLOCK, LISTING_BLOCK]}));
    true
}
