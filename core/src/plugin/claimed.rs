//! Service names of which a longer name claims a part: a plugin's control panel with resources
//! of its own (`@controlpanels/content-rules`) under core's `@controlpanels`.

use super::Registry;

impl Registry {
    /// Whether a longer service name claims a part of `name`; traversal looks for one only then,
    /// so every other request with a sub-path (`@@images/…`) pays nothing for it.
    pub fn has_claimed_parts(&self, name: &str) -> bool {
        self.claimed.contains(&name)
    }
}
