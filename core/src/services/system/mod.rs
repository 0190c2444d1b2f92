//! Site Setup's system pages, answered honestly for this server: `@system` (versions, storage,
//! search engine, plugins), `@database` (the storage backend and its size), `@addons` (the
//! plugins, switched on and off while running), `@upgrade` (migrations run at start, so nothing is ever pending),
//! and `@transactions` (recent changes from the change feed; undo is not built). All need
//! Manage portal. Content rules are the `contentrules` plugin's.

mod addons;
mod database;
mod system_info;
mod transactions;
mod upgrade;

pub use addons::{ADDONS, ADDONS_POST};
pub use database::DATABASE;
pub use system_info::SYSTEM;
pub use transactions::{TRANSACTIONS, TRANSACTIONS_UNDO};
pub use upgrade::{UPGRADE, UPGRADE_RUN};

use crate::app::App;
use crate::store::Backend;

/// This server's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The storage backend's name.
fn backend_name(app: &App) -> &'static str {
    match app.store.backend() {
        Backend::Sqlite => "SQLite",
        Backend::Postgres => "PostgreSQL",
    }
}

/// The search engine answering full-text queries.
fn search_engine(app: &App) -> String {
    match app.registry.text_search() {
        None => "SQL (no search plugin)".to_owned(),
        Some(search) => (search.engine)(app),
    }
}
