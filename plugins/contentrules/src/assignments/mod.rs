//! `@content-rules` on a folder or the site root: the rules assigned there, those it gets
//! from above, and those that may be assigned; assigning, enabling, applying to sub-folders,
//! reordering and removing them, as plone.restapi's `@content-rules` does. Everything needs
//! "Content rules: Manage rules".

mod delete;
mod get;
mod patch;
mod post;

pub use delete::DELETE;
pub use get::GET;
pub use patch::PATCH;
pub use post::POST;

use serde_json::Value;
use wcs_core::http::{ApiError, ApiResult};

/// The `rule_ids` of a body: a list of rule ids.
fn rule_ids(body: &serde_json::Map<String, Value>) -> ApiResult<Vec<String>> {
    let ids = body
        .get("rule_ids")
        .and_then(Value::as_array)
        .ok_or_else(|| ApiError::invalid_parameter("rule_ids", "A list of rule ids is expected."))?;
    ids.iter()
        .map(|id| {
            id.as_str().map(str::to_owned).ok_or_else(|| ApiError::invalid_parameter("rule_ids", "Rule ids are texts."))
        })
        .collect()
}

/// How Plone's messages name a list of rules: `['rule-1', 'rule-2']`.
fn python_list(ids: &[String]) -> String {
    let quoted: Vec<String> = ids.iter().map(|id| format!("'{id}'")).collect();
    format!("[{}]", quoted.join(", "))
}
