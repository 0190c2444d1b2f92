//! What the store's unit tests build on: a store over a fresh SQLite file, and a bare object.
#![allow(clippy::unwrap_used)]

use super::Store;
use crate::content::ContentObject;

/// A store over a new SQLite file in `dir`.
pub(crate) async fn store(dir: &tempfile::TempDir) -> Store {
    Store::open(&format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display())).await.unwrap()
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
