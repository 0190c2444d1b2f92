//! Reading what clients send to the panel: a rule's settings, a rule and an element named in
//! the URL, and the folders of the copy and move actions.

use crate::elements::{ElementKind, checked_values};
use crate::model::{Category, Element, Rule};
use crate::store;
use crate::triggers::trigger;
use serde_json::{Map, Value};
use wcs_core::http::{ApiError, ApiResult, Ctx, ErrorCode};

/// The longest title or description a rule keeps.
const MAX_SETTING: usize = 5_000;

/// Keys of a rule's answer a client may send back unchanged (Volto sends the form it got).
const READ_ONLY: [&str; 9] =
    ["@id", "id", "group", "conditions", "actions", "addable_conditions", "addable_actions", "assignments", "@schema"];

/// Applies the settings in `body` to `rule`: only the keys given change.
pub fn apply_settings(rule: &mut Rule, body: &Map<String, Value>) -> ApiResult<()> {
    for (key, value) in body {
        match key.as_str() {
            "title" | "description" => {
                let text = value.as_str().filter(|t| t.len() <= MAX_SETTING).ok_or_else(|| {
                    ApiError::invalid_parameter(key, format!("A text of at most {MAX_SETTING} bytes is expected."))
                })?;
                if key == "title" {
                    rule.title = text.trim().to_owned();
                } else {
                    rule.description = text.to_owned();
                }
            }
            "event" => {
                let name = value.as_str().unwrap_or_default();
                let found = trigger(name).ok_or_else(|| {
                    ApiError::invalid_parameter(
                        "event",
                        format!("'{name}' is no trigger; see the vocabulary plone.contentrules.events."),
                    )
                })?;
                rule.event = found.token.to_owned();
            }
            "enabled" | "stop" | "stopExecuting" | "cascading" => {
                let flag =
                    value.as_bool().ok_or_else(|| ApiError::invalid_parameter(key, "true or false is expected."))?;
                match key.as_str() {
                    "enabled" => rule.enabled = flag,
                    "cascading" => rule.cascading = flag,
                    _ => rule.stop = flag,
                }
            }
            other if READ_ONLY.contains(&other) => {}
            other => return Err(ApiError::invalid_parameter(other, format!("A rule has no setting '{other}'."))),
        }
    }
    if rule.title.is_empty() {
        return Err(ApiError::invalid_parameter("title", "Property 'title' is required"));
    }
    Ok(())
}

/// The rule the route's `{rule_id}` names.
pub async fn named_rule(ctx: &Ctx) -> ApiResult<Rule> {
    store::rule(&ctx.app.store, ctx.param("rule_id"), &ctx.request.service_url).await
}

/// The category the route's `{category}` names; 404 for anything else.
pub fn named_category(ctx: &Ctx) -> ApiResult<Category> {
    Category::from_segment(ctx.param("category")).ok_or_else(|| ApiError::not_found(&ctx.request.service_url))
}

/// The position the route's `{idx}` names in `list`; 404 when there is none such.
pub fn named_index(ctx: &Ctx, list: &[Element]) -> ApiResult<usize> {
    ctx.param("idx")
        .parse::<usize>()
        .ok()
        .filter(|idx| *idx < list.len())
        .ok_or_else(|| ApiError::not_found(&ctx.request.service_url))
}

/// `values` for `kind`, checked, with a copy's or move's folder resolved to its path in the
/// site (`/folder`): Volto sends a UID, a path or a URL, Plone keeps the path.
pub async fn element_values(
    ctx: &Ctx,
    kind: &ElementKind,
    given: &Map<String, Value>,
    previous: Option<&Map<String, Value>>,
) -> ApiResult<Map<String, Value>> {
    // Volto's edit form sends back what it read, the element's `@id` and `@schema` included.
    let given: Map<String, Value> =
        given.iter().filter(|(k, _)| !k.starts_with('@')).map(|(k, v)| (k.clone(), v.clone())).collect();
    let given = &given;
    let mut values = checked_values(kind, given, previous)?;
    if let Some(Value::String(target)) = given.get("target_folder") {
        let path = folder_path(ctx, target).await?;
        values.insert("target_folder".to_owned(), Value::String(path));
    }
    if let Some(Value::String(url)) = given.get("url")
        && !(url.starts_with("https://") || url.starts_with("http://"))
    {
        return Err(ApiError::invalid_parameter("url", "A webhook posts to an http or https URL."));
    }
    Ok(values)
}

async fn folder_path(ctx: &Ctx, target: &str) -> ApiResult<String> {
    let site_path = format!("/{}", ctx.context.site_id());
    let site_url = ctx.site_url();
    let relative = target.strip_prefix(&site_url).unwrap_or(target);
    let object = if relative.starts_with('/') {
        let path =
            if relative == "/" { site_path.clone() } else { format!("{site_path}{}", relative.trim_end_matches('/')) };
        ctx.app.store.content_at_path(&path).await?
    } else {
        ctx.app.store.content_by_uids(&[relative.to_owned()]).await?.into_iter().next()
    };
    let unknown = || ApiError::invalid_parameter("target_folder", format!("'{target}' is no folder of this site."));
    let object = object.ok_or_else(unknown)?;
    let folderish = ctx.app.types.get(&object.portal_type).is_some_and(|t| t.folderish);
    if !folderish {
        return Err(unknown());
    }
    let inside = object.path.strip_prefix(&site_path).unwrap_or_default();
    Ok(if inside.is_empty() { "/".to_owned() } else { inside.to_owned() })
}

/// A 400 for an element kind that is not of the list it is added to.
pub fn unknown_kind(category: Category, name: &str) -> ApiError {
    ApiError::new(
        ErrorCode::BadRequest,
        format!("'{name}' is no kind of {}; see the rule's addable_{}s.", category.segment(), category.segment()),
    )
}
