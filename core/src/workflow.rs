//! Workflows as data: states with permission maps, and transitions guarded by permissions.
//! A state's map replaces the acquired roles for the permissions it lists (as Plone's
//! non-acquiring state permissions do); other permissions are acquired from the container.

use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// One state of a workflow.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// The state id, stored as `review_state`.
    pub id: String,
    /// The label.
    pub title: String,
    /// Transitions that may leave this state.
    #[serde(default)]
    pub transitions: Vec<String>,
    /// Permission name → roles that hold it in this state.
    #[serde(default)]
    pub permissions: HashMap<String, Vec<String>>,
}

/// A move between states.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transition {
    /// The transition id, e.g. `publish`.
    pub id: String,
    /// The label shown to editors.
    pub title: String,
    /// Where it leads.
    pub new_state: String,
    /// The permission the caller needs on the object.
    pub guard_permission: String,
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
    /// All transitions.
    #[serde(default)]
    pub transitions: Vec<Transition>,
}

impl Workflow {
    /// A state by id.
    pub fn state(&self, id: &str) -> Option<&State> {
        self.states.iter().find(|s| s.id == id)
    }

    /// A transition by id.
    pub fn transition(&self, id: &str) -> Option<&Transition> {
        self.transitions.iter().find(|t| t.id == id)
    }

    /// The transitions leaving `state`, in the state's order.
    pub fn transitions_from<'a>(&'a self, state: &'a str) -> impl Iterator<Item = &'a Transition> + 'a {
        self.state(state).into_iter().flat_map(|s| s.transitions.iter()).filter_map(|id| self.transition(id))
    }

    fn check(&self) -> Result<(), String> {
        let fail = |message: String| Err(format!("workflow {}: {message}", self.id));
        if self.state(&self.initial_state).is_none() {
            return fail(format!("initial state '{}' is not a state", self.initial_state));
        }
        for transition in &self.transitions {
            if self.state(&transition.new_state).is_none() {
                return fail(format!(
                    "transition '{}' leads to unknown state '{}'",
                    transition.id, transition.new_state
                ));
            }
        }
        for state in &self.states {
            for id in &state.transitions {
                if self.transition(id).is_none() {
                    return fail(format!("state '{}' lists unknown transition '{id}'", state.id));
                }
            }
        }
        Ok(())
    }
}

/// All workflows, by id.
#[derive(Clone, Debug, Default)]
pub struct WorkflowRegistry {
    workflows: BTreeMap<String, Workflow>,
}

impl WorkflowRegistry {
    /// Parses, checks and adds a workflow definition.
    pub fn add_toml(&mut self, source_name: &str, text: &str) -> Result<(), String> {
        let workflow: Workflow = toml::from_str(text).map_err(|e| format!("workflow {source_name}: {e}"))?;
        workflow.check()?;
        if self.workflows.contains_key(&workflow.id) {
            return Err(format!("workflow {} is defined twice ({source_name})", workflow.id));
        }
        self.workflows.insert(workflow.id.clone(), workflow);
        Ok(())
    }

    /// A workflow by id.
    pub fn get(&self, id: &str) -> Option<&Workflow> {
        self.workflows.get(id)
    }

    /// Every workflow, sorted by id.
    pub fn all(&self) -> impl Iterator<Item = &Workflow> {
        self.workflows.values()
    }
}
