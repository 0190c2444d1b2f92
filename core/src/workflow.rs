//! Workflows as data. This holds what content needs at creation (the initial state and state
//! titles); transitions and permission maps come with the security model.

use serde::Deserialize;
use std::collections::BTreeMap;

/// One state of a workflow.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// The state id, stored as `review_state`.
    pub id: String,
    /// The label.
    pub title: String,
}

/// A workflow definition.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workflow {
    /// The workflow id, referenced by type profiles.
    pub id: String,
    /// The label.
    pub title: String,
    /// The state new objects start in.
    pub initial_state: String,
    /// All states.
    pub states: Vec<State>,
}

/// All workflows, by id.
#[derive(Clone, Debug, Default)]
pub struct WorkflowRegistry {
    workflows: BTreeMap<String, Workflow>,
}

impl WorkflowRegistry {
    /// Parses and adds a workflow definition.
    pub fn add_toml(&mut self, source_name: &str, text: &str) -> Result<(), String> {
        let workflow: Workflow = toml::from_str(text).map_err(|e| format!("workflow {source_name}: {e}"))?;
        if !workflow.states.iter().any(|s| s.id == workflow.initial_state) {
            return Err(format!("workflow {}: initial state '{}' is not a state", workflow.id, workflow.initial_state));
        }
        if self.workflows.insert(workflow.id.clone(), workflow).is_some() {
            return Err(format!("workflow {source_name} is defined twice"));
        }
        Ok(())
    }

    /// A workflow by id.
    pub fn get(&self, id: &str) -> Option<&Workflow> {
        self.workflows.get(id)
    }
}
