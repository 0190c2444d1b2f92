//! Highlighting for raw queries on the embedded engine: each asked field (a name or a pattern
//! such as `*`) that is a full-text field gets the fragment of a hit around its matches, cut
//! as Elasticsearch's unified highlighter cuts (see [`crate::fragments`]). Other fields have
//! no fragments, as in Elasticsearch.

use crate::dsl::{self, Mapping, QueryError};
use crate::engine::Highlight;
use crate::engine::glob;
use serde_json::{Map, Value, json};
use tantivy::query::Query;
use tantivy::schema::{Field, Value as _};
use tantivy::snippet::SnippetGenerator;
use tantivy::{Searcher, TantivyDocument};

/// The site index's full-text fields, which highlight patterns are matched against.
const SITE_TEXT: [&str; 3] = ["Title", "Description", "SearchableText"];

/// The snippet generators of a request's highlighted fields.
pub struct Highlighter<'a> {
    fields: Vec<(String, Field, SnippetGenerator, &'a Highlight)>,
}

impl<'a> Highlighter<'a> {
    /// Generators for `asked`'s fields of `query`'s matches.
    pub fn new(
        searcher: &Searcher,
        query: &dyn Query,
        mapping: &Mapping<'_>,
        asked: &'a [(String, Highlight)],
    ) -> Result<Self, QueryError> {
        let mut fields: Vec<(String, Field, SnippetGenerator, &'a Highlight)> = Vec::new();
        for (pattern, marks) in asked {
            let candidates: Vec<String> = match mapping.declared {
                _ if !pattern.contains('*') => vec![pattern.clone()],
                Some((declared, _)) => declared.keys().filter(|name| glob(pattern, name)).cloned().collect(),
                None => SITE_TEXT.iter().filter(|name| glob(pattern, name)).map(|n| (*n).to_owned()).collect(),
            };
            for name in candidates {
                // Only full-text fields have fragments; Elasticsearch skips the others too.
                let Ok(dsl::Kind::Text(field, _)) = dsl::field(mapping, &name) else { continue };
                if fields.iter().any(|(known, ..)| *known == name) {
                    continue;
                }
                let mut generator = SnippetGenerator::create(searcher, query, field)
                    .map_err(|e| QueryError::execution(e.to_string()))?;
                // The whole value is one fragment.
                generator.set_max_num_chars(if marks.whole { usize::MAX / 2 } else { marks.max_chars });
                fields.push((name, field, generator, marks));
            }
        }
        Ok(Highlighter { fields })
    }

    /// The `highlight` of one hit, `None` when no asked field has a match in it.
    pub fn mark(&self, stored: &TantivyDocument) -> Option<Value> {
        let mut marked = Map::new();
        for (name, field, generator, marks) in &self.fields {
            let mut snippet = generator.snippet_from_doc(stored);
            snippet.set_snippet_prefix_postfix(&marks.pre, &marks.post);
            if snippet.is_empty() {
                continue;
            }
            let text = stored.get_first(*field).and_then(|v| v.as_str()).unwrap_or_default();
            let html = if marks.whole {
                crate::fragments::whole_html(&snippet, text)
            } else {
                crate::fragments::closed_html(&snippet, text)
            };
            marked.insert(name.clone(), json!([html]));
        }
        (!marked.is_empty()).then_some(Value::Object(marked))
    }
}
