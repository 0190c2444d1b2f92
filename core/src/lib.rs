//! wcs-core: the host of the wcs-backend content server.
//!
//! It owns traversal, storage, security and the registries of services, serializers and
//! content types. Features arrive as plugins that register through [`plugin::Registrar`],
//! exactly as a third-party crate would; core's own standard endpoints do the same.

pub mod api;
pub mod app;
pub mod catalog;
pub mod content;
pub mod context;
pub mod controlpanel;
pub mod error;
pub mod events;
pub mod extensions;
pub mod future;
pub mod http;
pub mod i18n;
pub mod mail;
pub mod ops;
pub mod plugin;
pub mod record_checks;
pub mod records;
pub mod render;
pub mod security;
pub mod serialize;
pub mod server;
pub mod service;
pub mod services;
pub mod site;
pub mod store;
pub mod traverse;
pub mod workflow;

pub use inventory;

/// The HTTP types plugins need in service declarations, so a plugin does not have to pin
/// its own poem version.
pub mod poem_reexports {
    pub use poem::http::{Method, StatusCode};
    pub use poem::{IntoResponse, Response};
}
