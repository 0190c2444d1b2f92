//! A content rule as stored: its settings, and its conditions and actions in order.

use serde_json::{Map, Value};

/// A content rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// `rule-<n>`, as Plone names them.
    pub id: String,
    /// The heading in Site Setup.
    pub title: String,
    /// What it is for.
    pub description: String,
    /// The trigger's token (an event interface's dotted name).
    pub event: String,
    /// Whether it runs at all.
    pub enabled: bool,
    /// Whether rules after it stop for the same event once it ran.
    pub stop: bool,
    /// Whether the events its own actions cause may trigger other rules (one level deep).
    pub cascading: bool,
    /// The conditions, all of which must hold.
    pub conditions: Vec<Element>,
    /// The actions, run in order.
    pub actions: Vec<Element>,
    /// How often it was changed; a change based on an older revision is refused.
    pub revision: i64,
}

/// A condition or an action: its kind (the add view's name, `plone.conditions.PortalType`)
/// and its form's values.
#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    /// The add view's name.
    pub kind: String,
    /// The values, by field name.
    pub values: Map<String, Value>,
}

impl Element {
    /// The element as stored: its values with its kind under `type`.
    pub fn to_json(&self) -> Value {
        let mut stored = self.values.clone();
        stored.insert("type".to_owned(), Value::String(self.kind.clone()));
        Value::Object(stored)
    }

    /// An element as stored; `None` for anything else.
    pub fn from_json(value: &Value) -> Option<Element> {
        let mut values = value.as_object()?.clone();
        let kind = values.remove("type")?.as_str()?.to_owned();
        Some(Element { kind, values })
    }

    /// A text value, empty when unset.
    pub fn text(&self, name: &str) -> &str {
        self.values.get(name).and_then(Value::as_str).unwrap_or_default()
    }

    /// A list of texts, empty when unset.
    pub fn texts(&self, name: &str) -> Vec<&str> {
        self.values
            .get(name)
            .and_then(Value::as_array)
            .map(|v| v.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }
}

/// Where a rule is assigned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The object it is assigned to.
    pub content_uid: String,
    /// The rule.
    pub rule_id: String,
    /// Whether it applies there at all.
    pub enabled: bool,
    /// Whether it applies to everything below too.
    pub bubbles: bool,
}

/// Which list of a rule a sub-resource names (`condition` or `action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Its conditions.
    Condition,
    /// Its actions.
    Action,
}

impl Category {
    /// The category a URL segment names.
    pub fn from_segment(segment: &str) -> Option<Category> {
        match segment {
            "condition" => Some(Category::Condition),
            "action" => Some(Category::Action),
            _ => None,
        }
    }

    /// The URL segment.
    pub fn segment(self) -> &'static str {
        match self {
            Category::Condition => "condition",
            Category::Action => "action",
        }
    }

    /// The rule's list of this category.
    pub fn of(self, rule: &Rule) -> &Vec<Element> {
        match self {
            Category::Condition => &rule.conditions,
            Category::Action => &rule.actions,
        }
    }

    /// The rule's list of this category, to change.
    pub fn of_mut(self, rule: &mut Rule) -> &mut Vec<Element> {
        match self {
            Category::Condition => &mut rule.conditions,
            Category::Action => &mut rule.actions,
        }
    }
}
