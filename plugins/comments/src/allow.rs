//! `allow_discussion`: a setting of each object (Yes, No, or none to follow its type) that the
//! plugin adds to Plone's standard types, as plone.app.discussion's behaviour does, and the
//! value every object serializes: whether it takes comments now (the setting and the site's
//! `globally_enabled`), which is what Volto reads to show the comment form.

use crate::access::ALLOW_DISCUSSION;
use crate::settings::GLOBALLY_ENABLED;
use serde_json::{Value, json};
use std::sync::Arc;
use wcs_core::content::{FieldDef, FieldKindDef};
use wcs_core::http::ApiResult;
use wcs_core::serialize::{ContentSerializer, SerializeCtx};
use wcs_core::service::ContentKind;

/// The field kind: a truth value, also as Plone's form sends it (`"True"`, `"False"`).
pub static ALLOW_DISCUSSION_KIND: FieldKindDef = FieldKindDef {
    name: "AllowDiscussion",
    parse,
    json_schema: |field| {
        json!({"type": "string", "title": field.title, "description": "Allow discussion for this content object.",
               "enum": ["True", "False"], "enumNames": ["Yes", "No"],
               "choices": [["True", "Yes"], ["False", "No"]], "factory": "Choice"})
    },
};

fn parse(_: &FieldDef, value: &Value) -> Result<Value, String> {
    parse_token(value)
}

fn parse_token(value: &Value) -> Result<Value, String> {
    match value {
        Value::Bool(allowed) => Ok(json!(allowed)),
        Value::String(token) if token.eq_ignore_ascii_case("true") => Ok(json!(true)),
        Value::String(token) if token.eq_ignore_ascii_case("false") => Ok(json!(false)),
        _ => Err("Expected true or false.".into()),
    }
}

/// Replaces the stored setting in the output with whether the object takes comments. The
/// site-wide switch is read only for objects that allow discussion themselves, and once per
/// request (a listing of many such objects reads it once).
pub static ALLOW_DISCUSSION_LAYER: ContentSerializer = ContentSerializer {
    kind: ContentKind::Any,
    read_only: &[],
    serialize: |ctx, subject, out| {
        Box::pin(async move {
            let own = subject.object.fields.get(ALLOW_DISCUSSION).and_then(Value::as_bool) == Some(true);
            let allowed = own && globally_enabled(ctx).await?;
            out.insert(ALLOW_DISCUSSION.into(), json!(allowed));
            Ok(())
        })
    },
};

/// The request memo's key for the site-wide switch.
const GLOBALLY_ENABLED_MEMO: &str = "comments.globally_enabled";

async fn globally_enabled(ctx: &SerializeCtx<'_>) -> ApiResult<bool> {
    if let Some(known) = ctx.memo.get::<bool>(GLOBALLY_ENABLED_MEMO) {
        return Ok(*known);
    }
    let enabled = ctx.site.record_value(&GLOBALLY_ENABLED).await?.as_bool().unwrap_or(false);
    ctx.memo.put(GLOBALLY_ENABLED_MEMO.to_owned(), Arc::new(enabled));
    Ok(enabled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plone_form_tokens_and_truth_values_are_accepted() {
        assert_eq!(parse_token(&json!("True")), Ok(json!(true)));
        assert_eq!(parse_token(&json!(false)), Ok(json!(false)));
        assert!(parse_token(&json!("maybe")).is_err());
        assert!(parse_token(&json!(1)).is_err());
    }
}
