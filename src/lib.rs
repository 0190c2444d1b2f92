//! The `wcs` server: links the shipped plugins, turns configuration into a running [`App`]
//! and serves it. The binary and the integration tests start the server the same way; a third
//! party's binary calls [`run`] after linking plugins of its own.

mod cli;
mod config;
mod demo;
mod plugins;

pub use cli::run;
pub use demo::load_demo;
pub use plugins::{SHIPPED_PLUGINS, check_linked};
/// Tunes the C library's allocator; a binary's `main` calls it before starting the runtime.
pub use wcs_malloc_tune::{Allocator, tune as tune_allocator};

use std::sync::Arc;
use wcs_core::app::{App, AppConfig, Bootstrap, StartupFailure};

/// Opens the app, checks the plugin manifest and attaches the OpenAPI document.
pub async fn open_app(config: AppConfig) -> Result<(Arc<App>, Bootstrap), StartupFailure> {
    let disabled = config.plugins.disabled.clone();
    let (mut app, bootstrap) = App::open(config).await?;
    check_linked(app.registry.plugin_ids(), &disabled)?;
    app.settings.openapi = Some(wcs_openapi::document);
    let app = Arc::new(app);
    app.start().await?;
    Ok((app, bootstrap))
}
