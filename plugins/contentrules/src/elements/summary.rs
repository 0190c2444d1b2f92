//! The line each condition or action shows in a rule's listing, in Plone's words.

use crate::model::Element;

/// What `element` does, as one line; `type_title` names a content type by its id (`None`
/// for an id that names none: Plone's summary leaves those out).
pub fn summary(element: &Element, type_title: &dyn Fn(&str) -> Option<String>) -> String {
    let list = |name: &str| element.texts(name).join(", ");
    let text = |name: &str| element.text(name).to_owned();
    match element.kind.as_str() {
        "plone.conditions.PortalType" => {
            let titles: Vec<String> = element.texts("check_types").into_iter().filter_map(type_title).collect();
            format!("Content types are: {}", titles.join(", "))
        }
        "plone.conditions.FileExtension" => format!("File extension is {}", text("file_extension")),
        "plone.conditions.WorkflowState" => format!("Workflow states are: {}", list("wf_states")),
        "plone.conditions.WorkflowTransition" => format!("Workflow transitions are: {}", list("wf_transitions")),
        "plone.conditions.Group" => format!("Groups are: {}", list("group_names")),
        "plone.conditions.Role" => format!("Roles are: {}", list("role_names")),
        "plone.conditions.TalesExpression" => format!("TALES expression is: {}", text("tales_expression")),
        "plone.actions.Logger" => format!("Log message {}", text("message")),
        "plone.actions.Notify" => format!("Notify with message {}", text("message")),
        "plone.actions.Copy" => format!("Copy to folder {}.", text("target_folder")),
        "plone.actions.Move" => format!("Move to folder {}", text("target_folder")),
        "plone.actions.Delete" => "Delete object".to_owned(),
        "plone.actions.Workflow" => format!("Execute transition {}", text("transition")),
        "plone.actions.Mail" => format!("Email report to {}", text("recipients")),
        "plone.actions.Versioning" => format!("Versioning with comment {}", text("comment")),
        "wcs.actions.Webhook" => format!("Post the event to {}", text("url")),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summaries_read_as_plones() {
        let element = |kind: &str, values: serde_json::Value| Element {
            kind: kind.to_owned(),
            values: values.as_object().cloned().unwrap_or_default(),
        };
        let title = |id: &str| match id {
            "Document" => Some("Page".to_owned()),
            "Collection" => Some("Collection".to_owned()),
            _ => None,
        };
        let types =
            element("plone.conditions.PortalType", json!({"check_types": ["Document", "Comment", "Collection"]}));
        assert_eq!(summary(&types, &title), "Content types are: Page, Collection");
        let copy = element("plone.actions.Copy", json!({"target_folder": "/folder"}));
        assert_eq!(summary(&copy, &title), "Copy to folder /folder.");
        assert_eq!(summary(&element("plone.actions.Delete", json!({})), &title), "Delete object");
    }
}
