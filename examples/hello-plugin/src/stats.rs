//! The plugin's own table and the event subscriber that keeps it: every object added to the
//! site counts, in the same transaction as the write, so a write that fails counts nothing.

use sqlx::Row;
use wcs_core::events::Event;
use wcs_core::http::ApiResult;
use wcs_core::store::{Migration, Store};
use wcs_core::store::{Phase, Subscriber};

/// The table's migrations, per backend.
pub static MIGRATIONS: [Migration; 1] = [Migration {
    version: 1,
    description: "counters",
    sqlite: include_str!("../migrations/sqlite/0001_stats.sql"),
    postgres: include_str!("../migrations/postgres/0001_stats.sql"),
}];

/// Counts added objects inside the write's transaction.
pub static COUNT_ADDED: Subscriber = Subscriber {
    name: "example-hello-count-added",
    phase: Phase::InTransaction(|tx, events| {
        Box::pin(async move {
            let added = events.iter().filter(|e| matches!(e, Event::Added { .. })).count();
            if added > 0 {
                sqlx::query("UPDATE hello_stats SET value = value + $1 WHERE name = 'objects_added'")
                    .bind(i64::try_from(added).unwrap_or(i64::MAX))
                    .execute(tx.connection())
                    .await?;
            }
            Ok(())
        })
    }),
};

/// How many objects were added since the plugin was installed.
pub async fn objects_added(store: &Store) -> ApiResult<i64> {
    let row = sqlx::query("SELECT value FROM hello_stats WHERE name = 'objects_added'").fetch_one(store.pool()).await?;
    Ok(row.try_get(0)?)
}
