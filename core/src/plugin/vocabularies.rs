//! The plugins' named vocabularies, as `@vocabularies` finds them.

use super::Registry;
use crate::service::Vocabulary;

impl Registry {
    /// The vocabularies of the plugins that are on.
    pub fn vocabularies(&self) -> impl Iterator<Item = &'static Vocabulary> + '_ {
        self.vocabularies.iter().filter(|(plugin, _)| self.is_on(plugin)).map(|(_, v)| *v)
    }

    /// A plugin's vocabulary by name, when its plugin is on.
    pub fn vocabulary(&self, name: &str) -> Option<&'static Vocabulary> {
        self.vocabularies().find(|v| v.name == name)
    }
}
