//! Stopping the server: changes the search index has not taken in yet are indexed before it
//! stops, so the next start has nothing to catch up on before it serves.

use crate::support::{TestServer, postgres_url};
use serde_json::json;
use sqlx::Connection;
use std::time::{Duration, Instant};
use wcs_core::store::Store;
use wcs_plugin_es_search::Search;

#[tokio::test]
async fn a_graceful_stop_leaves_the_search_index_caught_up() {
    let dir = tempfile::tempdir().unwrap();
    let index_dir = dir.path().to_path_buf();
    let mut server = TestServer::start_with(|config| config.data_dir = Some(index_dir)).await;
    server.create("", json!({"@type": "Document", "id": "first", "title": "Erster Bericht"})).await;
    // Once the first is searchable the indexer has just committed, and it pauses before its
    // next round while writes keep coming.
    let started = Instant::now();
    loop {
        let (_, found) = server.get_json("@es-search?SearchableText=Bericht").await;
        if found["items_total"] == 1 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the first document never became searchable");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // On PostgreSQL, a transaction of someone else's that began before the write and is still
    // running keeps the write out of the feed's reach for a while.
    let held = match postgres_url() {
        Some(url) => {
            let mut other = sqlx::PgConnection::connect(&url).await.unwrap();
            sqlx::query("BEGIN").execute(&mut other).await.unwrap();
            sqlx::query("SELECT pg_current_xact_id()::text").execute(&mut other).await.unwrap();
            Some(tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                sqlx::query("COMMIT").execute(&mut other).await.unwrap();
            }))
        }
        None => None,
    };
    server.create("", json!({"@type": "Document", "id": "second", "title": "Zweiter Bericht"})).await;
    server.stop().await;
    if let Some(held) = held {
        assert!(held.is_finished(), "the stop waited for the write the other transaction held back");
        held.await.unwrap();
    }

    let store = Store::open(&server.database_url).await.unwrap();
    let search = server.app.extensions.get::<Search>().unwrap();
    let position = search.engine.position().unwrap().unwrap();
    assert_eq!(store.changes_after(position, 1).await.unwrap(), vec![], "changes were left for the next start");
}
