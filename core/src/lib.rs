//! wcs-core: the host of the wcs-backend content server.
//!
//! It owns traversal, storage, security and the registries of services, serializers and
//! content types. Features arrive as plugins that register through [`plugin::Registrar`],
//! exactly as a third-party crate would; core's own standard endpoints do the same.
//!
//! Its modules stand in floors, and each imports only from its own floor or below
//! (`tests/floors.rs` reads every `crate::` path and fails on one that runs upward):
//!
//! ```text
//! 8  services                      core's own endpoints, one file each
//! 7  http  traverse  server        the server edge: parsing, negotiation, virtual hosting,
//!                                  answer cache, CORS, timeouts, metrics (http::Edge)
//! 6  plugin  service  app          the kernel: registrar and registry, service declarations,
//!    context  extensions  render   the application, the request context (Ctx)
//! 5  serialize                     content serializer layers, field serializers, components
//! 4  ops  mail                     every write (events are emitted by the store), the outbox
//! 3  security  catalog  site       who may do what, the index-query model; the Site handle
//!    controlpanel                  (store, types, workflows, policy) below the kernel
//! 2  store                         SQLite and PostgreSQL, the transaction, commit hooks, the
//!                                  change feed, SQL primitives, the Visibility filter
//! 1  error  api  future  content   the model: the error catalogue, the interface's vocabulary
//!    workflow  events  records     (URL escaping, query strings, batches, shapes), content
//!    record_checks  i18n           and its kinds, workflows, event data, records
//! ```

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
    pub use poem::{Body, IntoResponse, Response};
}
