//! Why the plugins could not be built into a registry: each failure names the plugins
//! involved, so a misconfigured binary says what to fix before it serves anything.

/// A start-up failure that names the plugins involved.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StartupError {
    /// Two linked crates claim the same plugin id.
    #[error("plugin id '{0}' is registered twice")]
    DuplicatePlugin(String),
    /// A plugin needs one that is not linked or is disabled.
    #[error("plugin '{plugin}' depends on '{missing}', which is not linked or is disabled")]
    MissingDependency {
        /// The plugin with the dependency.
        plugin: String,
        /// The plugin it needs.
        missing: String,
    },
    /// Plugins depend on each other in a circle.
    #[error("plugins depend on each other in a cycle: {0}")]
    DependencyCycle(String),
    /// Configuration disables a plugin that is not linked, or one that cannot be disabled.
    #[error("cannot disable plugin '{0}': {1}")]
    BadSelection(String, &'static str),
    /// Two plugins registered the same key.
    #[error("{what} is registered by both '{first}' and '{second}'")]
    DuplicateKey {
        /// The key, e.g. `service GET @move for any content`.
        what: String,
        /// The plugin that registered it first.
        first: &'static str,
        /// The plugin that registered it again.
        second: &'static str,
    },
    /// A manifest plugin was not found among the linked ones.
    #[error("plugin '{0}' is listed in the manifest but was not linked into this binary")]
    NotLinked(String),
    /// A content type profile is invalid.
    #[error("{0}")]
    Types(String),
}
