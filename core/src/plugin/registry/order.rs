//! The order plugins are built in: each after what it depends on.

use super::StartupError;
use crate::plugin::PluginDescriptor;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts by id, then places each plugin after its dependencies (smallest ready id first).
pub(super) fn order(
    by_id: &BTreeMap<&'static str, &'static PluginDescriptor>,
) -> Result<Vec<&'static PluginDescriptor>, StartupError> {
    for descriptor in by_id.values() {
        for dep in descriptor.depends_on {
            if !by_id.contains_key(dep) {
                return Err(StartupError::MissingDependency { plugin: descriptor.id.into(), missing: (*dep).into() });
            }
        }
    }
    let mut placed: BTreeSet<&str> = BTreeSet::new();
    let mut ordered = Vec::with_capacity(by_id.len());
    while ordered.len() < by_id.len() {
        let next =
            by_id.values().find(|d| !placed.contains(d.id) && d.depends_on.iter().all(|dep| placed.contains(dep)));
        match next {
            Some(descriptor) => {
                placed.insert(descriptor.id);
                ordered.push(*descriptor);
            }
            None => {
                let rest: Vec<&str> = by_id.keys().copied().filter(|id| !placed.contains(id)).collect();
                return Err(StartupError::DependencyCycle(rest.join(", ")));
            }
        }
    }
    Ok(ordered)
}
