//! The plugin host: plugins announce themselves with [`PluginDescriptor`] through `inventory`,
//! core orders and builds them, and the result is frozen into a [`Registry`].
//!
//! Core's own standard services are registered as the plugin `core` through the same API a
//! third-party crate uses.

mod claimed;
mod freeze;
mod registrar;
mod registry;
mod switches;
mod vocabularies;
pub use switches::SWITCHED_OFF_PLUGINS;

pub use registrar::Registrar;
pub use registry::{Contributions, PluginSelection, Registry, StartupError};

/// How a plugin announces itself. One per plugin crate, submitted with [`crate::plugin!`].
pub struct PluginDescriptor {
    /// A unique id, e.g. `navigation`.
    pub id: &'static str,
    /// Plugins whose contributions this one needs; they are built first.
    pub depends_on: &'static [&'static str],
    /// Lists everything the plugin adds; doubles as its table of contents.
    pub build: fn(&mut Registrar),
}

inventory::collect!(PluginDescriptor);

/// Registers a plugin descriptor: `wcs_core::plugin!(id: "x", depends_on: [], build: build);`.
#[macro_export]
macro_rules! plugin {
    (id: $id:expr, depends_on: [$($dep:expr),* $(,)?], build: $build:expr $(,)?) => {
        $crate::inventory::submit! {
            $crate::plugin::PluginDescriptor { id: $id, depends_on: &[$($dep),*], build: $build }
        }
    };
}
