//! The kinds of conditions and actions, as Plone's add views name them, with their forms'
//! schemas (`catalogue.json`, in plone.restapi's shape: Plone's own texts, its vocabulary
//! links relative to the site) and what each says of itself in a rule's listing.

mod summary;
mod values;

pub use summary::summary;
pub use values::{checked_values, is_write_only};

use crate::model::Category;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::LazyLock;

/// A kind of condition or action.
#[derive(Debug, Deserialize)]
pub struct ElementKind {
    /// Whether it is a condition or an action.
    category: String,
    /// Plone's add view name, what a rule stores as the element's `type`.
    pub addview: String,
    /// The heading.
    pub title: String,
    /// What it does.
    pub description: String,
    /// The form, with vocabulary links relative to the site.
    schema: Value,
    /// The one trigger (by token) rules may use it with, if it is limited to one: Plone offers
    /// the workflow transition condition on rules of "Workflow state changed" only.
    #[serde(default)]
    event: Option<String>,
}

impl ElementKind {
    /// Whether it is of `category`.
    pub fn is(&self, category: Category) -> bool {
        self.category == category.segment()
    }

    /// Its form's fields, in order.
    pub fn fields(&self) -> Vec<&str> {
        self.schema["fieldsets"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|set| set["fields"].as_array().into_iter().flatten())
            .filter_map(Value::as_str)
            .collect()
    }

    /// A field's schema.
    pub fn property(&self, name: &str) -> Option<&Value> {
        self.schema["properties"].get(name)
    }

    /// Whether its form requires the field.
    pub fn requires(&self, name: &str) -> bool {
        self.schema["required"].as_array().is_some_and(|r| r.iter().any(|f| f == name))
    }

    /// Whether it has a form at all (Delete has none, and so no edit view).
    pub fn has_form(&self) -> bool {
        !self.fields().is_empty()
    }

    /// The form's schema with links on the site `site_url`.
    pub fn schema(&self, site_url: &str) -> Value {
        let mut schema = self.schema.clone();
        absolute_links(&mut schema, site_url);
        schema
    }

    /// As a rule's `addable_conditions` or `addable_actions` list it.
    pub fn addable(&self, site_url: &str) -> Value {
        json!({
            "@schema": self.schema(site_url),
            "addview": self.addview,
            "description": self.description,
            "title": self.title,
        })
    }
}

fn absolute_links(value: &mut Value, site_url: &str) {
    match value {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                match item {
                    Value::String(link) if key == "@id" => *link = format!("{site_url}/{link}"),
                    other => absolute_links(other, site_url),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| absolute_links(item, site_url)),
        _ => {}
    }
}

static CATALOGUE: LazyLock<Vec<ElementKind>> = LazyLock::new(|| {
    // Embedded at build time and read by the unit tests below, so it cannot fail here.
    serde_json::from_str(include_str!("catalogue.json")).unwrap_or_default()
});

/// The versioning action needs the versioning plugin, switched on.
const VERSIONING_ACTION: &str = "plone.actions.Versioning";

/// The kinds of `category` a rule of trigger `event` (a token) may use: all but those limited
/// to other triggers, and the versioning action only while the versioning plugin is on
/// (`versioning_on`).
pub fn kinds(category: Category, versioning_on: bool, event: &str) -> impl Iterator<Item = &'static ElementKind> {
    CATALOGUE
        .iter()
        .filter(move |k| k.is(category) && k.event.as_deref().is_none_or(|only| only == event))
        .filter(move |k| versioning_on || k.addview != VERSIONING_ACTION)
}

/// A kind by its add view name.
pub fn kind(addview: &str) -> Option<&'static ElementKind> {
    CATALOGUE.iter().find(|k| k.addview == addview)
}

/// Whether the versioning action can run here.
pub fn versioning_on(app: &wcs_core::app::App) -> bool {
    cfg!(feature = "versioning")
        && app.registry.plugin_ids().contains(&"versioning")
        && app.registry.is_on("versioning")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_has_plones_conditions_and_actions_and_the_webhook() {
        let modified = "zope.lifecycleevent.interfaces.IObjectModifiedEvent";
        let conditions: Vec<&str> = kinds(Category::Condition, true, modified).map(|k| k.addview.as_str()).collect();
        assert_eq!(conditions.len(), 6, "{conditions:?}");
        let state_changed = "Products.CMFCore.interfaces.IActionSucceededEvent";
        let on_transitions =
            kinds(Category::Condition, true, state_changed).map(|k| k.addview.as_str()).collect::<Vec<_>>();
        assert!(on_transitions.contains(&"plone.conditions.WorkflowTransition"), "{on_transitions:?}");
        let actions: Vec<&str> = kinds(Category::Action, true, modified).map(|k| k.addview.as_str()).collect();
        assert_eq!(actions.first(), Some(&"plone.actions.Logger"));
        assert!(actions.contains(&"wcs.actions.Webhook"));
        assert!(!kinds(Category::Action, false, modified).any(|k| k.addview == VERSIONING_ACTION));
        let delete = kind("plone.actions.Delete").map(ElementKind::has_form);
        assert_eq!(delete, Some(false));
        let groups = kind("plone.conditions.Group").map(|k| k.schema("http://x/plone"));
        let link = groups.as_ref().map(|s| s["properties"]["group_names"]["items"]["vocabulary"]["@id"].clone());
        assert_eq!(link, Some(json!("http://x/plone/@vocabularies/plone.app.vocabularies.Groups")));
    }
}
