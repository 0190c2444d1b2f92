//! Whether a rule's conditions hold for a run: type and workflow state as they were at the
//! event, the file and the user's roles as they are now. TALES expressions are Python in Plone; they
//! are kept (an imported site keeps its rules) but never evaluated here, so a rule with one
//! does not run, and says so in the log.

use crate::model::Element;
use crate::run::Run;
use serde_json::Value;
use wcs_core::http::ApiResult;
use wcs_core::security::Access;

/// Whether `condition` holds.
pub async fn holds(run: &Run<'_>, condition: &Element) -> ApiResult<bool> {
    let names = condition.texts(match condition.kind.as_str() {
        "plone.conditions.PortalType" => "check_types",
        "plone.conditions.WorkflowState" => "wf_states",
        "plone.conditions.WorkflowTransition" => "wf_transitions",
        "plone.conditions.Group" => "group_names",
        "plone.conditions.Role" => "role_names",
        _ => "",
    });
    let object = run.object.as_ref();
    Ok(match condition.kind.as_str() {
        "plone.conditions.PortalType" => run.portal_type.as_deref().is_some_and(|t| names.contains(&t)),
        "plone.conditions.WorkflowState" => run.review_state.as_deref().is_some_and(|s| names.contains(&s)),
        "plone.conditions.WorkflowTransition" => run.transition.as_deref().is_some_and(|t| names.contains(&t)),
        "plone.conditions.FileExtension" => {
            let wanted = condition.text("file_extension").trim_start_matches('.').to_lowercase();
            object.and_then(file_name).is_some_and(|name| {
                name.rsplit_once('.').is_some_and(|(_, extension)| extension.to_lowercase() == wanted)
            })
        }
        "plone.conditions.Group" => run.actor.groups.iter().any(|g| names.contains(&g.as_str())),
        "plone.conditions.Role" => match object {
            Some(object) => {
                let access = Access::for_object(run.app, &run.principal(), object).await?;
                access.roles().iter().any(|r| names.contains(&r.as_str()))
            }
            None => run.actor.roles.iter().any(|r| names.contains(&r.as_str())),
        },
        other => {
            tracing::warn!(
                condition = other,
                "a content rule's condition cannot be evaluated here; the rule does not run"
            );
            false
        }
    })
}

/// The file name of an object's first file or image.
fn file_name(object: &wcs_core::content::ContentObject) -> Option<&str> {
    object.fields.values().find_map(|value| match value {
        Value::Object(file) if file.contains_key("sha256") => file.get("filename").and_then(Value::as_str),
        _ => None,
    })
}
