//! What the store's unit tests build on: a store over a fresh SQLite file (or, for the tests
//! of what both backends share, a fresh PostgreSQL schema when the suite has one), and a bare
//! object.
#![allow(clippy::unwrap_used)]

use super::Store;
use crate::content::ContentObject;

/// A store over a new SQLite file in `dir`.
pub(crate) async fn store(dir: &tempfile::TempDir) -> Store {
    Store::open(&format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display())).await.unwrap()
}

/// A store over a new SQLite file in `dir`, or over a new schema of `WCS_TEST_DATABASE_URL`
/// when it is set (as CI sets it for the PostgreSQL run).
pub(crate) async fn store_on_either(dir: &tempfile::TempDir) -> Store {
    let Some(url) = std::env::var("WCS_TEST_DATABASE_URL").ok().filter(|url| !url.is_empty()) else {
        return store(dir).await;
    };
    let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}"))).execute(&mut conn).await.unwrap();
    let separator = if url.contains('?') { '&' } else { '?' };
    Store::open(&format!("{url}{separator}options=-c%20search_path%3D{schema}")).await.unwrap()
}

/// A folder at the root named `id`, not yet stored.
pub(crate) fn object(id: &str) -> ContentObject {
    let now = chrono::Utc::now();
    ContentObject {
        uid: uuid::Uuid::new_v4().simple().to_string(),
        parent_uid: None,
        path: format!("/{id}"),
        id: id.to_owned(),
        portal_type: "Folder".to_owned(),
        position: 0,
        title: id.to_owned(),
        description: String::new(),
        review_state: None,
        created: now,
        modified: now,
        effective: None,
        expires: None,
        creator: "admin".to_owned(),
        fields: serde_json::Map::new(),
        block_local_roles: false,
        trash_root: None,
        working_copy_of: None,
    }
}
