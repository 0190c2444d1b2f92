//! Turns a [`SearchQuery`] into one parameterised SQL condition and ordering. Every value is
//! a bound parameter; only column names from fixed lists are spliced in.

use super::more_criteria::SqlCriteria;
use super::path::PathCriterion;
use super::query::{Criterion, DateRange, SearchQuery, SortIndex};
use super::{DateIndex, FieldIndex};
use crate::content::values::format_time;
use crate::site::Site;
use crate::store::{Backend, Bind, SearchSql, Visibility, json_field, time_to_db};
use chrono::{DateTime, Utc};

/// What besides the query restricts a search. `@search`, `@querystring-search`,
/// `@vocabularies`, listing blocks and a plugin's search engine all answer within one, made
/// by [`Scope::new`], so what a caller may find is decided in one place.
#[derive(Clone, Debug)]
pub struct Scope {
    /// The context's physical path; results never leave its subtree.
    pub context_path: String,
    /// What the caller may see, the publication window included.
    pub visibility: Visibility,
    /// The engine, for the few statements that differ.
    pub backend: Backend,
    /// Block types: never results themselves, but their text finds the page they belong to.
    pub block_types: Vec<String>,
    /// Folderish types, for `is_folderish`.
    pub folderish_types: Vec<String>,
    /// The field indexes plugins register: one name may read several fields (an event's
    /// `start` and a news entry's), each object the one it has.
    pub field_indexes: Vec<&'static FieldIndex>,
}

impl Scope {
    /// A search of `site` below `context_path` by a caller who sees `visibility` (their
    /// listing visibility, publication window included).
    pub fn new(site: &Site, context_path: &str, visibility: Visibility) -> Scope {
        Scope {
            context_path: context_path.to_owned(),
            visibility,
            backend: site.store.backend(),
            block_types: site.types.block_types(),
            folderish_types: site.types.all().filter(|t| t.folderish).map(|t| t.id.clone()).collect(),
            field_indexes: site.catalog_indexes().to_vec(),
        }
    }

    /// The SQL value of a field index: the first of the fields registered under its name
    /// that the object has.
    fn field_value(&self, index: &FieldIndex) -> String {
        let fields: Vec<String> = self
            .field_indexes
            .iter()
            .filter(|other| other.name == index.name)
            .map(|other| json_field(self.backend, "content", other.field))
            .collect();
        match fields.as_slice() {
            [] => json_field(self.backend, "content", index.field),
            [one] => one.clone(),
            many => format!("COALESCE({})", many.join(", ")),
        }
    }
}

/// A `LIKE` pattern that finds `word` anywhere, its wildcards taken literally (`ESCAPE '\'`).
fn contains_pattern(word: &str) -> String {
    format!("%{}%", word.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"))
}

struct Builder {
    clauses: Vec<String>,
    binds: Vec<Bind>,
}

impl Builder {
    fn bind(&mut self, value: Bind) -> String {
        self.binds.push(value);
        format!("${}", self.binds.len())
    }

    fn text(&mut self, value: &str) -> String {
        self.bind(Bind::Text(value.to_owned()))
    }

    fn list(&mut self, values: &[String]) -> String {
        values.iter().map(|v| self.text(v)).collect::<Vec<_>>().join(", ")
    }

    fn subtree(&mut self, path: &str) -> String {
        let (exact, start, end) = (self.text(path), self.text(&format!("{path}/")), self.text(&format!("{path}0")));
        format!("(path = {exact} OR (path >= {start} AND path < {end}))")
    }

    fn column(&mut self, column: &str, criterion: &Criterion) {
        if !criterion.any_of.is_empty() {
            let list = self.list(&criterion.any_of);
            self.clauses.push(format!("{column} IN ({list})"));
        }
        if !criterion.none_of.is_empty() {
            let list = self.list(&criterion.none_of);
            self.clauses.push(format!("({column} IS NULL OR {column} NOT IN ({list}))"));
        }
    }

    fn subjects(&mut self, criterion: &Criterion, backend: Backend) {
        let contains = |b: &mut Builder, values: &[String]| {
            let list = b.list(values);
            match backend {
                Backend::Sqlite => format!(
                    "EXISTS (SELECT 1 FROM json_each(content.fields, '$.subjects') s WHERE s.value IN ({list}))"
                ),
                Backend::Postgres => format!(
                    "EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(CAST(content.fields AS jsonb) -> 'subjects') = 'array' \
                     THEN CAST(content.fields AS jsonb) -> 'subjects' ELSE '[]'::jsonb END) s(v) WHERE s.v IN ({list}))"
                ),
            }
        };
        if criterion.all {
            for value in &criterion.any_of {
                let clause = contains(self, std::slice::from_ref(value));
                self.clauses.push(clause);
            }
        } else if !criterion.any_of.is_empty() {
            let clause = contains(self, &criterion.any_of);
            self.clauses.push(clause);
        }
        if !criterion.none_of.is_empty() {
            let clause = contains(self, &criterion.none_of);
            self.clauses.push(format!("NOT {clause}"));
        }
    }

    fn path(&mut self, criterion: &PathCriterion, context_path: &str) {
        let paths: Vec<String> =
            if criterion.paths.is_empty() { vec![context_path.to_owned()] } else { criterion.paths.clone() };
        let mut alternatives = Vec::new();
        for path in &paths {
            let alternative = match criterion.depth {
                None => self.subtree(path),
                Some(0) => format!("path = {}", self.text(path)),
                Some(depth) => {
                    let (start, end) = (self.text(&format!("{path}/")), self.text(&format!("{path}0")));
                    let base = path.matches('/').count() as i64;
                    let max = self.bind(Bind::Int(base + depth));
                    let below = format!(
                        "(path >= {start} AND path < {end} AND (length(path) - length(replace(path, '/', ''))) <= CAST({max} AS INTEGER))"
                    );
                    // Plone's ExtendedPathIndex answers depth 1 from its table of children,
                    // and deeper queries level by level from the path's own: those include
                    // the object at the path.
                    if depth >= 2 { format!("(path = {} OR {below})", self.text(path)) } else { below }
                }
            };
            alternatives.push(alternative);
        }
        self.clauses.push(format!("({})", alternatives.join(" OR ")));
    }

    /// Plone's indexes that only SQL answers (see [`SqlCriteria`]).
    fn sql_criteria(&mut self, more: &SqlCriteria, scope: &Scope) {
        self.column("creator", &more.creator);
        self.column("LOWER(title)", &more.title);
        let language =
            format!("COALESCE({}, '')", json_field(scope.backend, "content", crate::content::LANGUAGE_FIELD));
        self.column(&language, &more.language);
        for (column, words) in [("title", &more.title_words), ("description", &more.description_words)] {
            for word in words {
                let pattern = self.text(&contains_pattern(word));
                self.clauses.push(format!("LOWER({column}) LIKE {pattern} ESCAPE '\\'"));
            }
        }
        if let Some(min) = more.position.min {
            let min = self.bind(Bind::Int(min));
            self.clauses.push(format!("position >= {min}"));
        }
        if let Some(max) = more.position.max {
            let max = self.bind(Bind::Int(max));
            self.clauses.push(format!("position <= {max}"));
        }
        if !more.related_to.is_empty() {
            let list = self.list(&more.related_to);
            // Each value is a UID or a path; neither can be mistaken for the other.
            self.clauses.push(format!(
                "content.uid IN (SELECT r.source_uid FROM relation r WHERE r.field = 'relatedItems' \
                 AND (r.target_uid IN ({list}) OR r.target_uid IN (SELECT t.uid FROM content t WHERE t.path IN ({list}))))"
            ));
        }
        if let Some(wanted) = more.default_page {
            let default_page = json_field(scope.backend, "p", crate::content::values::DEFAULT_PAGE);
            let exists = format!(
                "EXISTS (SELECT 1 FROM content p WHERE p.uid = content.parent_uid AND {default_page} = content.id)"
            );
            self.clauses.push(if wanted { exists } else { format!("NOT {exists}") });
        }
        if let Some(wanted) = more.folderish {
            let folderish = Criterion { any_of: scope.folderish_types.clone(), ..Criterion::default() };
            match (wanted, folderish.any_of.is_empty()) {
                (true, true) => self.clauses.push("1 = 0".to_owned()),
                (true, false) => self.column("portal_type", &folderish),
                (false, true) => {}
                (false, false) => {
                    self.column("portal_type", &Criterion { none_of: folderish.any_of, ..Criterion::default() })
                }
            }
        }
    }

    /// `format` writes the bounds the way the column stores times.
    fn date(&mut self, column: &str, range: &DateRange, format: fn(DateTime<Utc>) -> String) {
        if let Some(min) = range.min {
            let value = self.text(&format(min));
            self.clauses.push(format!("{column} >= {value}"));
        }
        if let Some(max) = range.max {
            let value = self.text(&format(max));
            self.clauses.push(format!("{column} <= {value}"));
        }
    }
}

fn sort_column(index: SortIndex, scope: &Scope) -> String {
    let fixed = match index {
        SortIndex::Title => "LOWER(title)",
        SortIndex::Created => "created",
        SortIndex::Modified => "modified",
        SortIndex::Effective => "COALESCE(effective, '')",
        SortIndex::Expires => "COALESCE(expires, '')",
        SortIndex::Id => "id",
        SortIndex::PortalType => "portal_type",
        SortIndex::ReviewState => "COALESCE(review_state, '')",
        SortIndex::Creator => "creator",
        SortIndex::Position => "position",
        SortIndex::Path => "path",
        SortIndex::Field(index) => return format!("COALESCE({}, '')", scope.field_value(index)),
    };
    fixed.to_owned()
}

impl SearchSql {
    /// The SQL of `query` within `scope`.
    pub fn build(query: &SearchQuery, scope: &Scope) -> SearchSql {
        let mut b = Builder { clauses: vec!["trashed = 0".to_owned()], binds: Vec::new() };
        let context = b.subtree(&scope.context_path);
        b.clauses.push(context);
        b.path(&query.path, &scope.context_path);
        b.column("portal_type", &query.portal_type);
        b.column("review_state", &query.review_state);
        b.column("uid", &query.uid);
        b.column("id", &query.id);
        b.subjects(&query.subject, scope.backend);
        for (index, range) in &query.dates {
            match *index {
                DateIndex::Created => b.date("created", range, time_to_db),
                DateIndex::Modified => b.date("modified", range, time_to_db),
                DateIndex::Effective => b.date("effective", range, time_to_db),
                DateIndex::Expires => b.date("expires", range, time_to_db),
                DateIndex::Field(index) => b.date(&scope.field_value(index), range, format_time),
            }
        }
        let blocks = (!scope.block_types.is_empty()).then(|| b.list(&scope.block_types));
        if let Some(blocks) = &blocks {
            b.clauses.push(format!("portal_type NOT IN ({blocks})"));
        }
        b.sql_criteria(&query.more, scope);
        for word in &query.text {
            let pattern = b.text(&contains_pattern(word));
            let own = format!("LOWER(title || ' ' || description || ' ' || fields) LIKE {pattern} ESCAPE '\\'");
            let clause = match &blocks {
                // A page is found by the text of its blocks, which are not results themselves.
                Some(blocks) => format!(
                    "({own} OR content.uid IN (SELECT blk.parent_uid FROM content blk WHERE blk.trashed = 0 \
                     AND blk.portal_type IN ({blocks}) AND LOWER(blk.title || ' ' || blk.description || ' ' || blk.fields) \
                     LIKE {pattern} ESCAPE '\\'))"
                ),
                None => own,
            };
            b.clauses.push(clause);
        }
        if let Some(at) = scope.visibility.active_at {
            let now = b.text(&time_to_db(at));
            b.clauses
                .push(format!("(effective IS NULL OR effective <= {now}) AND (expires IS NULL OR expires > {now})"));
        }
        if let Some(tokens) = &scope.visibility.tokens {
            // An uncorrelated IN: the visible uids are collected once (SQLite builds a
            // transient index, PostgreSQL a hash semi-join) instead of probing `allowed` per
            // candidate row; over 10,000 documents this cut a security-filtered page from
            // about 50 ms to 9 ms on SQLite (bench/search.rs). Small folder listings keep the
            // correlated EXISTS of `store::visibility_filter`, which wins there.
            let list = b.list(tokens);
            b.clauses.push(format!("content.uid IN (SELECT a.content_uid FROM allowed a WHERE a.token IN ({list}))"));
        }
        let mut order: Vec<String> = query
            .sort
            .iter()
            .map(|(index, descending)| {
                format!("{} {}", sort_column(*index, scope), if *descending { "DESC" } else { "ASC" })
            })
            .collect();
        order.push("path ASC".to_owned());
        SearchSql { condition: b.clauses.join(" AND "), order: order.join(", "), binds: b.binds }
    }
}
