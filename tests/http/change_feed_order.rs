//! The change feed under writers that commit side by side: a consumer reading while writes are
//! in flight never misses an entry and never sees one twice. On PostgreSQL, where the feed is
//! numbered by transaction rather than by commit, a transaction that began first and commits
//! last is what would slip below a consumer's position.

use crate::support::{TestServer, postgres_url};
use std::collections::BTreeSet;
use std::time::Duration;
use wcs_core::events::Event;

const WRITERS: usize = 6;
const WRITES_EACH: usize = 20;

#[tokio::test]
async fn a_consumer_reading_while_writers_commit_out_of_order_misses_nothing() {
    let server = TestServer::start().await;
    let store = server.app.store.background();
    server.settle().await;
    let start = store.feed_end().await.unwrap();
    let writers: Vec<_> = (0..WRITERS)
        .map(|writer| {
            let store = store.clone();
            tokio::spawn(async move {
                for n in 0..WRITES_EACH {
                    let mut tx = store.begin().await.unwrap();
                    if postgres_url().is_some() {
                        // The transaction takes its number now and commits only after the
                        // others that started later have.
                        sqlx::query("SELECT pg_current_xact_id()::text").execute(tx.own_tables()).await.unwrap();
                    }
                    tokio::time::sleep(Duration::from_millis(((writer * 7 + n * 3) % 5) as u64)).await;
                    tx.emit(Event::Modified { uid: format!("w{writer}-{n}"), fields: vec!["title".to_owned()] });
                    tx.commit().await.unwrap();
                }
            })
        })
        .collect();
    let mut position = start;
    let mut seen = Vec::new();
    // Once every writer is answered, the newest entry: the consumer has read everything when
    // it reaches it. (On PostgreSQL it reaches it only once no transaction older than the
    // writes runs anywhere in the cluster, other tests' included.)
    let mut newest = None;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        // Read as a consumer does, in small batches, while the writes go on.
        let batch = store.changes_after(position, 5).await.unwrap();
        for change in &batch {
            assert!(change.seq > position, "numbers grow for a consumer: {} after {position}", change.seq);
            position = change.seq;
            if change.uid.starts_with('w') {
                seen.push(change.uid.clone());
            }
        }
        if batch.is_empty() {
            if newest.is_some_and(|newest| position >= newest) {
                break;
            }
            if newest.is_none() && writers.iter().all(|w| w.is_finished()) {
                newest = Some(store.feed_newest().await.unwrap());
            }
            assert!(tokio::time::Instant::now() < deadline, "the consumer did not reach the newest entry");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    for writer in writers {
        writer.await.unwrap();
    }
    let expected: BTreeSet<String> =
        (0..WRITERS).flat_map(|w| (0..WRITES_EACH).map(move |n| format!("w{w}-{n}"))).collect();
    let unique: BTreeSet<String> = seen.iter().cloned().collect();
    assert_eq!(seen.len(), unique.len(), "no entry twice");
    assert_eq!(unique, expected, "every entry once");
    assert!(store.feed_end().await.unwrap() >= position, "the end lies at or past what was read");
}
