//! The `filter` and `filters` aggregations of raw queries, whose filters are query DSL (tantivy's
//! own `filter` aggregation takes its query syntax instead): each bucket is a count of the
//! query ANDed with its filter, with the bucket's sub-aggregations computed over the same set.
//! They may stand at the top of `aggs`, inside one another, or inside the bucket aggregations
//! of [`crate::tantivy_bucket_aggs`]; everything else tantivy answers.

use crate::dsl::{self, Mapping, QueryError};
use crate::tantivy_engine::TantivyEngine;
use serde_json::{Map, Value, json};
use tantivy::Searcher;
use tantivy::collector::Count;
use tantivy::query::{BooleanQuery, Occur, Query};

/// The most buckets the `filters` aggregations of one query may ask for (each is a search).
pub(crate) const MAX_FILTER_BUCKETS: usize = 100;

impl TantivyEngine {
    /// Every aggregation of `aggregations` over the documents of `query`.
    pub(crate) fn aggregate_all(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        aggregations: &Value,
        mapping: &Mapping<'_>,
        budget: &mut usize,
    ) -> Result<Value, QueryError> {
        let all = aggregations.as_object().ok_or_else(|| QueryError::parsing("[aggs] must be an object"))?;
        let (ours, theirs): (Map<String, Value>, Map<String, Value>) =
            all.clone().into_iter().partition(|(_, body)| crate::tantivy_bucket_aggs::is_ours(body));
        let mut answer = if theirs.is_empty() {
            Map::new()
        } else {
            match self.aggregate(searcher, query, &Value::Object(theirs), mapping)? {
                Value::Object(results) => results,
                _ => Map::new(),
            }
        };
        for (name, body) in ours {
            let sub = body.get("aggs").or_else(|| body.get("aggregations"));
            let result = if let Some(filter) = body.get("filter") {
                self.bucket(searcher, query, filter, sub, mapping, budget)?
            } else if body.get("filters").is_none() {
                self.refined(searcher, query, &name, &body, mapping, budget)?
            } else {
                let spec = body.get("filters").and_then(|f| f.get("filters")).unwrap_or(&Value::Null);
                // Elasticsearch's FiltersAggregationBuilder refuses a `filters` without any.
                let empty = match spec {
                    Value::Object(named) => named.is_empty(),
                    Value::Array(anonymous) => anonymous.is_empty(),
                    _ => true,
                };
                if empty {
                    return Err(QueryError::illegal("[filters] cannot be empty."));
                }
                match spec {
                    Value::Object(named) => {
                        let mut buckets = Map::new();
                        for (key, filter) in named {
                            buckets.insert(key.clone(), self.bucket(searcher, query, filter, sub, mapping, budget)?);
                        }
                        json!({"buckets": buckets})
                    }
                    Value::Array(anonymous) => {
                        let buckets = anonymous
                            .iter()
                            .map(|filter| self.bucket(searcher, query, filter, sub, mapping, budget))
                            .collect::<Result<Vec<_>, _>>()?;
                        json!({"buckets": buckets})
                    }
                    _ => return Err(QueryError::parsing(format!("[filters] of [{name}] needs [filters]"))),
                }
            };
            let mut result = result;
            if let Some(meta) = body.get("meta") {
                result["meta"] = meta.clone();
            }
            answer.insert(name, result);
        }
        Ok(Value::Object(answer))
    }

    /// One bucket: `{doc_count, <sub-aggregations>}`.
    fn bucket(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        filter: &Value,
        sub: Option<&Value>,
        mapping: &Mapping<'_>,
        budget: &mut usize,
    ) -> Result<Value, QueryError> {
        *budget = budget
            .checked_sub(1)
            .ok_or_else(|| QueryError::illegal(format!("at most {MAX_FILTER_BUCKETS} filter buckets per query")))?;
        let narrowed =
            BooleanQuery::new(vec![(Occur::Must, query.box_clone()), (Occur::Must, dsl::translate(mapping, filter)?)]);
        let count = searcher.search(&narrowed, &Count).map_err(|e| QueryError::execution(e.to_string()))?;
        let mut bucket = json!({"doc_count": count});
        if let Some(sub) = sub
            && let Value::Object(results) = self.aggregate_all(searcher, &narrowed, sub, mapping, budget)?
        {
            bucket.as_object_mut().into_iter().for_each(|b| b.extend(results.clone()));
        }
        Ok(bucket)
    }
}
