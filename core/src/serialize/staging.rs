//! The working-copy keys of content serializations and of `GET @workingcopy`.

use super::SerializeCtx;
use crate::http::ApiResult;
use crate::ops::working_copy::WorkingCopyPair;
use serde_json::{Value, json};

/// `{working_copy, working_copy_of}` as plone.restapi shapes them; both null when nothing is
/// checked out. Content serializations carry the same two keys.
pub async fn working_copy_info(ctx: &SerializeCtx<'_>, pair: Option<&WorkingCopyPair>) -> ApiResult<Value> {
    let Some(WorkingCopyPair { baseline, working_copy }) = pair else {
        return Ok(json!({"working_copy": null, "working_copy_of": null}));
    };
    let creator = ctx.app.store.principal(&working_copy.creator).await?;
    let creator_name = creator.map(|p| p.fullname).filter(|n| !n.is_empty()).unwrap_or(working_copy.creator.clone());
    let site_url = ctx.site_url(working_copy);
    Ok(json!({
        "working_copy": {
            "@id": working_copy.url(ctx.base_url),
            "title": working_copy.title,
            "created": crate::content::values::format_time(working_copy.created),
            "creator_name": creator_name,
            "creator_url": format!("{site_url}/author/{}", working_copy.creator),
        },
        "working_copy_of": {"@id": baseline.url(ctx.base_url), "title": baseline.title},
    }))
}
