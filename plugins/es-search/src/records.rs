//! The plugin's registry records.

use serde_json::json;
use wcs_core::records::{RecordDef, RecordKind};

/// Terms offered as popular searches.
pub static POPULAR_SEARCHES: RecordDef = RecordDef {
    name: "wcs.backend.search.popular_searches",
    title: "Popular searches",
    description: "Search terms offered to visitors (GET @popular-searches).",
    kind: RecordKind::TextList,
    check: None,
    default: || json!([]),
};

/// The facets of `@es-search`, in Elasticsearch's aggregation request form over the keyword
/// fields `portal_type`, `review_state` and `Subject`.
pub static AGGREGATIONS: RecordDef = RecordDef {
    name: "wcs.backend.search.aggregations",
    title: "Search facets",
    description: "Aggregations of @es-search, e.g. {\"portal_type\": {\"terms\": {\"field\": \"portal_type\"}}}.",
    kind: RecordKind::Json,
    check: Some(crate::record_checks::aggregations),
    default: || {
        json!({
            "portal_type": {"terms": {"field": "portal_type", "size": 20}},
            "Subject": {"terms": {"field": "Subject", "size": 20}},
        })
    },
};

/// Whether search results show highlighted fragments instead of descriptions (the records
/// keep plone's search-integration names, so migrated sites keep their values).
pub static HIGHLIGHT: RecordDef = RecordDef {
    name: "collective.elasticsearch.interfaces.IElasticSettings.highlight",
    title: "Highlight matches",
    description: "Search results show the text around the matches instead of the description.",
    kind: RecordKind::Bool,
    check: None,
    default: || json!(false),
};

/// Written before each highlighted match; one tag per line, the first is used.
pub static HIGHLIGHT_PRE_TAGS: RecordDef = RecordDef {
    name: "collective.elasticsearch.interfaces.IElasticSettings.highlight_pre_tags",
    title: "Highlight start tag",
    description: "Markup written before each match, e.g. <em>.",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::highlight_tags),
    default: || json!(""),
};

/// Written after each highlighted match; one tag per line, the first is used.
pub static HIGHLIGHT_POST_TAGS: RecordDef = RecordDef {
    name: "collective.elasticsearch.interfaces.IElasticSettings.highlight_post_tags",
    title: "Highlight end tag",
    description: "Markup written after each match, e.g. </em>.",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::highlight_tags),
    default: || json!(""),
};

/// The longest fragment, in characters.
pub static HIGHLIGHT_THRESHOLD: RecordDef = RecordDef {
    name: "collective.elasticsearch.interfaces.IElasticSettings.highlight_threshold",
    title: "Highlight length",
    description: "The longest highlighted fragment, in characters.",
    kind: RecordKind::Int,
    check: Some(crate::record_checks::fragment_length),
    default: || json!(600),
};

/// The query an unquoted search becomes (`%(term)s` is the text): a phrase match, a prefix
/// match boosted on the title, and all words anywhere.
pub static REGULAR: RecordDef = RecordDef {
    name: "wcs.backend.search.regular",
    title: "Search pattern",
    description: "The query (Elasticsearch DSL) an unquoted search becomes; %(term)s is the text.",
    kind: RecordKind::Json,
    check: Some(crate::record_checks::pattern),
    default: || {
        json!({"bool": {"should": [
            {"match_phrase": {"SearchableText": {"query": "%(term)s", "slop": 2, "boost": 2}}},
            {"match_phrase_prefix": {"Title": {"query": "%(term)s", "boost": 3}}},
            {"match": {"SearchableText": {"query": "%(term)s", "operator": "and"}}},
        ]}})
    },
};

/// The query a "quoted" search becomes: the exact phrase, title first.
pub static QUOTED: RecordDef = RecordDef {
    name: "wcs.backend.search.quoted",
    title: "Search pattern for quoted text",
    description: "The query (Elasticsearch DSL) a search in double quotes becomes; %(term)s is the text.",
    kind: RecordKind::Json,
    check: Some(crate::record_checks::pattern),
    default: || json!({"multi_match": {"query": "%(term)s", "type": "phrase", "fields": ["Title^3", "Description^2", "SearchableText"]}}),
};

/// Clauses every search must match.
pub static FILTER: RecordDef = RecordDef {
    name: "wcs.backend.search.filter",
    title: "Search filter",
    description: "Clauses (Elasticsearch DSL) every search must match, e.g. [{\"terms\": {\"portal_type\": [\"Document\"]}}].",
    kind: RecordKind::Json,
    check: Some(crate::record_checks::clauses),
    default: || json!([]),
};

/// Hosts whose requests get the API filter.
pub static API_DOMAINS: RecordDef = RecordDef {
    name: "wcs.backend.search.api_domains",
    title: "API domains",
    description: "Host names (without port) whose searches also match wcs.backend.search.api_filter.",
    kind: RecordKind::TextList,
    check: None,
    default: || json!([]),
};

/// Clauses added to searches that come in on an API domain.
pub static API_FILTER: RecordDef = RecordDef {
    name: "wcs.backend.search.api_filter",
    title: "API filter",
    description: "Clauses (Elasticsearch DSL) added to searches on the API domains.",
    kind: RecordKind::Json,
    check: Some(crate::record_checks::clauses),
    default: || json!([]),
};

/// The suggesters of `@es-search`: name → `{size, max_edits}` ("did you mean" over the
/// indexed words of `SearchableText`); `{}` for none.
pub static SUGGEST: RecordDef = RecordDef {
    name: "wcs.backend.search.suggest",
    title: "Search suggestions",
    description: "Suggesters of @es-search, e.g. {\"did_you_mean\": {\"size\": 5, \"max_edits\": 2}}.",
    kind: RecordKind::Json,
    check: Some(crate::record_checks::suggesters),
    default: || json!({"did_you_mean": {"size": 5, "max_edits": 2}}),
};

/// Further fields to index from the objects' fields: `{name: {"type": "text" | "keyword"}}`.
/// Patterns and filters can then name them. Changing it takes effect for objects indexed
/// afterwards; `wcs reindex` brings every object up to date.
pub static CUSTOM_FIELDS: RecordDef = RecordDef {
    name: "wcs.backend.search.custom_fields",
    title: "Search fields",
    description: "Further fields to index, e.g. {\"location\": {\"type\": \"keyword\"}, \"text\": {\"type\": \"text\"}}.",
    kind: RecordKind::Json,
    check: Some(crate::record_checks::fields),
    default: || json!({}),
};
