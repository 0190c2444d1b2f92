//! Switching built plugins off and on while the server runs (Site Setup's add-ons): every
//! lookup of the registry leaves out what belongs to a plugin that is off.

use super::Registry;
use crate::records::{RecordDef, RecordKind};
use serde_json::json;
use std::sync::atomic::Ordering;

/// The plugins switched off at run time, which every start applies again.
pub static SWITCHED_OFF_PLUGINS: RecordDef = RecordDef {
    name: "wcs.backend.plugins.switched_off",
    title: "Plugins switched off",
    description: "Plugins built into the server but switched off (Site Setup's add-ons); applied at every start.",
    kind: RecordKind::TextList,
    check: None,
    default: || json!([]),
};

impl Registry {
    /// Whether `plugin`'s contributions are in use (built and not switched off).
    pub fn is_on(&self, plugin: &str) -> bool {
        !self.any_switched_off.load(Ordering::Acquire)
            || !self.switched_off.read().unwrap_or_else(|poisoned| poisoned.into_inner()).contains(plugin)
    }

    /// The built plugins switched off at run time.
    pub fn switched_off(&self) -> Vec<&'static str> {
        self.switched_off.read().unwrap_or_else(|poisoned| poisoned.into_inner()).iter().copied().collect()
    }

    /// Switches a built plugin on or off at run time. Core cannot be switched off, nor a plugin
    /// others that are on depend on; switching one on needs what it depends on on.
    pub fn switch(&self, plugin: &str, on: bool, depends_on: &[&str]) -> Result<(), String> {
        let Some(id) = self.plugins.iter().copied().find(|p| *p == plugin) else {
            return Err(format!("'{plugin}' is not built into this server (or was left out at start)."));
        };
        if id == "core" && !on {
            return Err("core cannot be switched off.".into());
        }
        let mut off = self.switched_off.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        if on {
            if let Some(missing) = depends_on.iter().find(|d| off.contains(**d)) {
                return Err(format!("'{id}' needs '{missing}', which is switched off."));
            }
            off.remove(id);
        } else {
            off.insert(id);
        }
        self.any_switched_off.store(!off.is_empty(), Ordering::Release);
        Ok(())
    }
}
