//! What a search engine does for the plugin, whatever it is: the embedded tantivy index here,
//! an Elasticsearch cluster later. The plugin speaks only through this trait.

use std::fmt;

/// One object as the index holds it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IndexDoc {
    /// The object's uid.
    pub uid: String,
    /// Its path and its ancestors' paths.
    pub paths: Vec<String>,
    /// Content type.
    pub portal_type: String,
    /// Workflow state (empty without workflow).
    pub review_state: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Everything searchable: title, description, texts, the page's blocks.
    pub searchable_text: String,
    /// Tags.
    pub subjects: Vec<String>,
    /// Who may see it.
    pub allowed: Vec<String>,
    /// Seconds since the epoch.
    pub created: i64,
    /// Seconds since the epoch.
    pub modified: i64,
    /// Seconds since the epoch (`i64::MIN` without a date).
    pub effective: i64,
    /// Seconds since the epoch (`i64::MAX` without a date).
    pub expires: i64,
    /// Values of the custom fields of text kind: (name, text).
    pub custom_text: Vec<(String, String)>,
    /// Values of the custom fields of keyword kind: (name, value).
    pub custom_keyword: Vec<(String, String)>,
    /// Values of the custom fields of number, boolean and date kinds: (name, value).
    pub custom_typed: Vec<(String, TypedValue)>,
    /// Its language code (empty for content in none), whose analysis its text gets.
    pub language: String,
}

/// A value of a typed custom field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TypedValue {
    /// `integer`, `long`.
    Integer(i64),
    /// `float`, `double`.
    Float(f64),
    /// `boolean`.
    Boolean(bool),
    /// `date`, in seconds since the epoch.
    Date(i64),
}

/// The generation of what an index holds, kept with its position: an index committed under
/// another generation is rebuilt at start-up. Raise it when what is indexed changes (2: the
/// site root and working copies are indexed, as the SQL catalog finds them; 3: each object's
/// text is analysed in its language).
pub const INDEX_RULES: u32 = 3;

/// What a search may see and must match besides the words.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// Only these types, when not empty.
    pub portal_types: Vec<String>,
    /// Only these states, when not empty.
    pub review_states: Vec<String>,
    /// Only objects with one of these tags, when not empty.
    pub subjects: Vec<String>,
    /// Only objects at or below every one of these paths.
    pub subtrees: Vec<String>,
    /// Only objects one of these tokens may see; `None` for callers who see everything.
    pub allowed: Option<Vec<String>>,
    /// Only objects effective and not expired at this time (seconds); `None` for callers who
    /// may see inactive content.
    pub active_at: Option<i64>,
    /// Only objects in one of these languages (codes; `""` for content in none), when not
    /// empty; the words are then analysed in these languages only.
    pub languages: Vec<String>,
}

/// A full-text search.
#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    /// The text part, in the query DSL (`dsl`), as the search patterns made it from the words
    /// typed; `None` finds nothing.
    pub query: Option<serde_json::Value>,
    /// Further clauses every hit must match (the filter records), in the query DSL.
    pub clauses: Vec<serde_json::Value>,
    /// The custom fields the DSL may name.
    pub custom: crate::dsl::CustomFields,
    /// The filters.
    pub filters: Filters,
    /// Hits to skip.
    pub start: usize,
    /// Hits to return.
    pub size: usize,
    /// Highlighted fragments of the text for each hit, when asked for.
    pub highlight: Option<Highlight>,
    /// Aggregations in Elasticsearch's request form (`{name: {terms: {field, size}}}`), over
    /// every match (not only the page).
    pub aggregations: Option<serde_json::Value>,
}

/// One key of a raw query's `sort`, as the request names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortSpec {
    /// `_score`, `_doc` or a field.
    pub field: String,
    /// `desc`; `None` for the key's default (descending for `_score`, ascending otherwise).
    pub descending: Option<bool>,
    /// `missing: _first`.
    pub missing_first: bool,
}

/// A raw query, checked and bounded by the service.
#[derive(Clone, Debug)]
pub struct RawRequest {
    /// The query DSL (`match_all` when none was given).
    pub query: serde_json::Value,
    /// The custom fields the DSL may name.
    pub custom: crate::dsl::CustomFields,
    /// The caller's filters, ANDed with the query.
    pub filters: Filters,
    /// Hits to skip.
    pub from: usize,
    /// Hits to return.
    pub size: usize,
    /// The order, most significant key first; relevance when empty.
    pub sort: Vec<SortSpec>,
    /// Aggregations in Elasticsearch's request form.
    pub aggregations: Option<serde_json::Value>,
    /// Fragments of these full-text fields around the matches, marked so.
    pub highlight: Option<Vec<(String, Highlight)>>,
    /// Which `_source` keys come back.
    pub source: SourceFilter,
    /// Up to how many matches the total is exact (beyond, it is reported as "at least");
    /// `None` reports no total.
    pub track_total_hits: Option<usize>,
    /// `docvalue_fields`: the fields whose values each hit gives in `fields`, each with the
    /// format to write them in.
    pub docvalue_fields: Vec<(String, Option<String>)>,
}

/// Which `_source` keys a raw query returns (`_source: false`, a pattern list, or
/// `{includes, excludes}`; `*` matches any run of characters).
#[derive(Clone, Debug, Default)]
pub enum SourceFilter {
    /// Every key.
    #[default]
    All,
    /// No `_source` at all.
    Nothing,
    /// Keys matching an include (all when there are none) and no exclude.
    Only {
        /// Patterns of keys to keep.
        includes: Vec<String>,
        /// Patterns of keys to drop.
        excludes: Vec<String>,
    },
}

impl SourceFilter {
    /// Whether `key` comes back.
    pub fn keeps(&self, key: &str) -> bool {
        match self {
            SourceFilter::All => true,
            SourceFilter::Nothing => false,
            SourceFilter::Only { includes, excludes } => {
                (includes.is_empty() || includes.iter().any(|p| glob(p, key))) && !excludes.iter().any(|p| glob(p, key))
            }
        }
    }

    /// What of `source` comes back: patterns name dotted paths into its objects
    /// (`include.field1`, `*.field2`), as Elasticsearch's source filtering reads them; an
    /// object whose values all go goes too.
    pub fn apply(
        &self,
        source: &serde_json::Map<String, serde_json::Value>,
    ) -> serde_json::Map<String, serde_json::Value> {
        match self {
            SourceFilter::All => source.clone(),
            SourceFilter::Nothing => serde_json::Map::new(),
            SourceFilter::Only { includes, excludes } => filtered(source, "", includes.is_empty(), includes, excludes),
        }
    }
}

/// The values of `object` (at `prefix`) that the patterns keep; `inside` when an include
/// named an object around it.
fn filtered(
    object: &serde_json::Map<String, serde_json::Value>,
    prefix: &str,
    inside: bool,
    includes: &[String],
    excludes: &[String],
) -> serde_json::Map<String, serde_json::Value> {
    let mut kept = serde_json::Map::new();
    for (key, value) in object {
        let path = format!("{prefix}{key}");
        if excludes.iter().any(|p| glob(p, &path)) {
            continue;
        }
        let named = inside || includes.iter().any(|p| glob(p, &path));
        match value {
            serde_json::Value::Object(inner) => {
                // An include may name a value deeper inside (`include.field1`).
                let deeper = format!("{path}.");
                if named || includes.iter().any(|p| p.starts_with(&deeper) || p.contains('*')) {
                    let inner = filtered(inner, &deeper, named, includes, excludes);
                    if !inner.is_empty() || (named && value.as_object().is_some_and(serde_json::Map::is_empty)) {
                        kept.insert(key.clone(), serde_json::Value::Object(inner));
                    }
                }
            }
            _ if named => {
                kept.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
    kept
}

/// `*` matches any run of characters (dots too: `*.field2` names `include.field2`);
/// everything else itself.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            let Some(tail) = text.strip_prefix(head) else { return false };
            (0..=tail.len()).filter(|i| tail.is_char_boundary(*i)).any(|i| glob(rest, &tail[i..]))
        }
    }
}

/// How matches are marked in fragments.
#[derive(Clone, Debug, Default)]
pub struct Highlight {
    /// Written before each match.
    pub pre: String,
    /// Written after each match.
    pub post: String,
    /// The longest fragment, in characters.
    pub max_chars: usize,
    /// `number_of_fragments: 0`: the whole value, marked, instead of a fragment.
    pub whole: bool,
}

/// One hit.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The object's uid.
    pub uid: String,
    /// Its relevance.
    pub score: f32,
    /// The text around its matches, marked, when highlighting was asked for and it has one.
    pub fragment: Option<String>,
}

/// A search's answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchResponse {
    /// How many objects match.
    pub total: usize,
    /// The requested page of hits, most relevant first.
    pub hits: Vec<Hit>,
    /// The aggregations, in Elasticsearch's answer form (`{name: {buckets: [{key,
    /// doc_count}]}}`); `null` when none were asked for.
    pub aggregations: serde_json::Value,
}

/// The suggestions for one word.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    /// The word as typed.
    pub text: String,
    /// Indexed words to try instead.
    pub options: Vec<SuggestOption>,
}

/// One word to try.
#[derive(Clone, Debug, PartialEq)]
pub struct SuggestOption {
    /// The word (as the index holds it).
    pub text: String,
    /// How close it is to what was typed: 1 for equal, less with each edit.
    pub score: f32,
}

/// Why the engine failed: a request gets a 500 with the cause logged, or a 503 when the engine
/// cannot be reached (a cluster that is down), which clients may retry.
#[derive(Debug)]
pub struct EngineError {
    /// What went wrong.
    pub message: String,
    /// The engine could not be reached.
    pub unavailable: bool,
}

impl EngineError {
    /// A failure of the engine.
    pub fn new(message: impl Into<String>) -> EngineError {
        EngineError { message: message.into(), unavailable: false }
    }

    /// The engine could not be reached.
    pub fn unavailable(message: impl Into<String>) -> EngineError {
        EngineError { message: message.into(), unavailable: true }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EngineError {}

impl From<EngineError> for wcs_core::http::ApiError {
    fn from(err: EngineError) -> Self {
        if err.unavailable {
            tracing::warn!(%err, "search engine unavailable");
            wcs_core::http::ApiError::new(
                wcs_core::http::ErrorCode::ServiceUnavailable,
                "The search engine cannot be reached; try again shortly.",
            )
        } else {
            wcs_core::http::ApiError::internal(err)
        }
    }
}

impl From<tantivy::TantivyError> for EngineError {
    fn from(err: tantivy::TantivyError) -> Self {
        EngineError::new(err.to_string())
    }
}

/// A search engine. Writes are staged until [`SearchEngine::commit`], which also records how
/// far in the change feed the index is, atomically with the documents.
pub trait SearchEngine: Send + Sync {
    /// The engine's name, as `@es-admin` reports it.
    fn name(&self) -> &'static str;
    /// Adds or replaces documents.
    fn index(&self, docs: &[IndexDoc]) -> Result<(), EngineError>;
    /// Removes documents by uid.
    fn delete(&self, uids: &[String]) -> Result<(), EngineError>;
    /// Removes the documents at and below `path`.
    fn delete_under(&self, path: &str) -> Result<(), EngineError>;
    /// Where the document of `uid` says its object is (as last indexed).
    fn path_of(&self, uid: &str) -> Result<Option<String>, EngineError>;
    /// Removes every document.
    fn clear(&self) -> Result<(), EngineError>;
    /// Makes staged writes visible; `position` is the last change-feed entry they cover.
    fn commit(&self, position: i64) -> Result<(), EngineError>;
    /// How many documents the index holds (as last committed).
    fn documents(&self) -> u64;
    /// The change-feed position of the last commit; `None` for an index never committed, or
    /// committed under other [`INDEX_RULES`], which the indexer then rebuilds.
    fn position(&self) -> Result<Option<i64>, EngineError>;
    /// Searches.
    fn search(&self, request: &SearchRequest) -> Result<SearchResponse, EngineError>;
    /// A raw query, answered in Elasticsearch's `_search` shape; refusals in its error terms.
    fn raw(&self, request: &RawRequest) -> Result<serde_json::Value, crate::dsl::QueryError>;
    /// "Did you mean": for each word of `text` that finds nothing the filters let through,
    /// indexed words at most `max_edits` edits away that do, best first (at most `size`).
    fn suggest(
        &self,
        text: &str,
        filters: &Filters,
        max_edits: usize,
        size: usize,
    ) -> Result<Vec<Suggestion>, EngineError>;
    /// [`SearchEngine::suggest`] on the words of one field of a raw request (the term
    /// suggester's `field`); an engine without fields of its own looks in the site's text.
    fn suggest_field(
        &self,
        field: &str,
        text: &str,
        request: &RawRequest,
        max_edits: usize,
        size: usize,
    ) -> Result<Vec<Suggestion>, crate::dsl::QueryError> {
        let _ = field;
        self.suggest(text, &request.filters, max_edits, size)
            .map_err(|e| crate::dsl::QueryError::execution(e.to_string()))
    }
}
