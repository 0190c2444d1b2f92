//! The change feed: core's in-transaction subscriber writes one row per event, numbered in
//! commit order, in the same transaction as the change, so a rolled-back write leaves no
//! entry and an acknowledged one always has its entry. A consumer ([`FeedConsumer`]) reads
//! after its remembered position and moves the position on once it has handled a batch, so
//! a consumer stopped anywhere resumes without missing or repeating an entry.
//!
//! Trimming: in the background, soon after start and then every [`TRIM_EVERY`], entries older
//! than [`RETENTION`] that every consumer seen in the last [`CONSUMER_EXPIRY`] has read are
//! deleted (with no such consumer, every entry older than that). It is not on the start path:
//! on a busy site a week of entries is long to scan, and an instance running for weeks trims
//! too. A consumer that comes
//! back after longer, or a new one, rebuilds from storage (the feed is derived, storage is the
//! truth) and starts at [`crate::store::Store::feed_end`].

use super::{Change, Phase, Store, Subscriber};
use crate::error::ApiResult;
use chrono::Duration;

/// How long entries every consumer has read are kept.
pub const RETENTION: Duration = Duration::days(7);

/// A consumer not seen for this long no longer holds trimming back; when it returns it finds
/// entries missing and rebuilds from storage.
pub const CONSUMER_EXPIRY: Duration = Duration::days(30);

/// How often a running instance trims the feed.
pub const TRIM_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Core's subscriber that writes the feed.
pub static CHANGE_FEED: Subscriber = Subscriber {
    name: "change-feed",
    phase: Phase::InTransaction(|tx, events| {
        tx.append_changes(events);
        Box::pin(std::future::ready(Ok(())))
    }),
};

impl Store {
    /// Trims the feed now and every [`TRIM_EVERY`] while the store is held. A failure (the
    /// database away) is logged and tried again next time: an untrimmed feed only grows.
    pub fn trim_feed_in_background(&self) {
        self.run_in_background(
            |tasks| &tasks.trimmer,
            |store| async move {
                loop {
                    let now = chrono::Utc::now();
                    if let Err(err) = store.trim_feed(now - RETENTION, now - CONSUMER_EXPIRY).await {
                        tracing::warn!(%err, "trimming the change feed failed; it is tried again later");
                    }
                    tokio::time::sleep(TRIM_EVERY).await;
                }
            },
        );
    }
}

/// A reader of the feed that remembers its position in storage under its name.
pub struct FeedConsumer {
    name: String,
}

impl FeedConsumer {
    /// The consumer called `name` (e.g. `es-search`).
    pub fn new(name: impl Into<String>) -> FeedConsumer {
        FeedConsumer { name: name.into() }
    }

    /// The next entries after what was acknowledged, at most `limit`.
    pub async fn next(&self, store: &Store, limit: i64) -> ApiResult<Vec<Change>> {
        let position = store.feed_position(&self.name).await?;
        Ok(store.changes_after(position, limit).await?)
    }

    /// Records that everything up to `seq` is handled; what follows comes next time, also
    /// after a restart.
    pub async fn acknowledge(&self, store: &Store, seq: i64) -> ApiResult<()> {
        let mut tx = store.begin().await?;
        tx.set_feed_position(&self.name, seq).await?;
        tx.commit().await
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::error::{ApiError, ErrorCode};
    use crate::events::Event;
    use crate::store::Subscribers;
    use crate::store::test_support::{object, store};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static REFUSE: Subscriber = Subscriber {
        name: "refuse-vetoed",
        phase: Phase::InTransaction(|_, events| {
            Box::pin(async move {
                let vetoed = events.iter().any(|e| matches!(e, Event::Added { path, .. } if path == "/vetoed"));
                if vetoed { Err(ApiError::new(ErrorCode::Conflict, "vetoed")) } else { Ok(()) }
            })
        }),
    };

    static SEEN_AFTER_COMMIT: AtomicUsize = AtomicUsize::new(0);
    static COUNT: Subscriber = Subscriber {
        name: "count",
        phase: Phase::AfterCommit(|_, events| {
            Box::pin(async move {
                SEEN_AFTER_COMMIT.fetch_add(events.len(), Ordering::SeqCst);
            })
        }),
    };

    /// A store that keeps the change feed, with `n` objects (`/o0`…) written one commit each.
    async fn feed_store(dir: &tempfile::TempDir, n: usize) -> Store {
        let store = store(dir).await;
        store.set_subscribers(Subscribers::new(vec![("core", &CHANGE_FEED)]));
        for i in 0..n {
            let mut tx = store.begin().await.unwrap();
            tx.insert_content(&object(&format!("o{i}"))).await.unwrap();
            tx.commit().await.unwrap();
        }
        store
    }

    #[tokio::test]
    async fn a_rolled_back_write_leaves_no_entry_and_a_committed_one_has_its_entries() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir).await;
        store.set_subscribers(Subscribers::new(vec![("core", &CHANGE_FEED), ("test", &REFUSE), ("test", &COUNT)]));

        let mut tx = store.begin().await.unwrap();
        tx.insert_content(&object("vetoed")).await.unwrap();
        let refused = tx.commit().await.err().map(|e| e.code);
        assert_eq!(refused, Some(ErrorCode::Conflict), "an in-transaction subscriber's error fails the commit");
        assert!(store.content_at_path("/vetoed").await.unwrap().is_none(), "the write was rolled back");
        assert_eq!(store.changes_after(0, 100).await.unwrap(), vec![], "and left no entry");

        let mut tx = store.begin().await.unwrap();
        tx.insert_content(&object("dropped")).await.unwrap();
        drop(tx);
        assert_eq!(store.changes_after(0, 100).await.unwrap(), vec![], "a dropped transaction leaves none");

        let kept = object("kept");
        let mut tx = store.begin().await.unwrap();
        tx.insert_content(&kept).await.unwrap();
        let mut renamed = kept.clone();
        renamed.title = "Kept".to_owned();
        tx.update_content(&kept, &renamed).await.unwrap();
        tx.commit().await.unwrap();
        let changes = store.changes_after(0, 100).await.unwrap();
        let told: Vec<(&str, &str, Option<&str>)> =
            changes.iter().map(|c| (c.uid.as_str(), c.kind.as_str(), c.path.as_deref())).collect();
        assert_eq!(told, [(kept.uid.as_str(), "added", Some("/kept"))], "added once, the change folded in");
        assert_eq!(store.feed_end().await.unwrap(), changes[0].seq);

        for _ in 0..50 {
            if SEEN_AFTER_COMMIT.load(Ordering::SeqCst) == 1 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(SEEN_AFTER_COMMIT.load(Ordering::SeqCst), 1, "after commit, the committed write only");
    }

    #[tokio::test]
    async fn a_consumer_resumes_where_it_stopped_and_trimming_keeps_what_is_unread() {
        let dir = tempfile::tempdir().unwrap();
        let store = feed_store(&dir, 5).await;
        let consumer = FeedConsumer::new("indexer");
        let first = consumer.next(&store, 2).await.unwrap();
        assert_eq!(first.len(), 2);
        consumer.acknowledge(&store, first[1].seq).await.unwrap();
        // Stopped here; a new reader under the same name (as after a restart) goes on.
        let again = FeedConsumer::new("indexer");
        let rest = again.next(&store, 100).await.unwrap();
        let paths: Vec<Option<&str>> = first.iter().chain(&rest).map(|c| c.path.as_deref()).collect();
        assert_eq!(paths, [Some("/o0"), Some("/o1"), Some("/o2"), Some("/o3"), Some("/o4")], "none missed or repeated");

        let future = chrono::Utc::now() + chrono::Duration::days(1);
        let alive = chrono::Utc::now() - CONSUMER_EXPIRY;
        assert_eq!(store.trim_feed(future, alive).await.unwrap(), 2, "only what every consumer read goes");
        assert_eq!(again.next(&store, 100).await.unwrap(), rest);
        again.acknowledge(&store, rest[2].seq).await.unwrap();
        assert_eq!(store.trim_feed(future, alive).await.unwrap(), 3);
        assert_eq!(store.feed_end().await.unwrap(), rest[2].seq, "numbers are never reused");
        let gone = FeedConsumer::new("gone");
        gone.acknowledge(&store, 0).await.unwrap();
        let mut tx = store.begin().await.unwrap();
        tx.insert_content(&object("o5")).await.unwrap();
        tx.commit().await.unwrap();
        assert_eq!(store.trim_feed(future, alive).await.unwrap(), 0, "a live consumer holds entries back");
        let later = chrono::Utc::now() + chrono::Duration::seconds(1);
        assert_eq!(store.trim_feed(future, later).await.unwrap(), 1, "one not seen since no longer does");
    }

    #[tokio::test]
    async fn the_feed_is_trimmed_in_the_background_soon_after_start() {
        let dir = tempfile::tempdir().unwrap();
        let store = feed_store(&dir, 3).await;
        let entries = || async {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM change_feed").fetch_one(&store.pool).await.unwrap()
        };
        let alive = chrono::Utc::now() - CONSUMER_EXPIRY;
        let before_all = chrono::Utc::now() - chrono::Duration::days(1);
        assert_eq!(store.trim_feed(before_all, alive).await.unwrap(), 0, "nothing is older than the cutoff");
        assert_eq!(entries().await, 3);

        sqlx::query("UPDATE change_feed SET time = '2000-01-01T00:00:00.000000+00:00'")
            .execute(&store.pool)
            .await
            .unwrap();
        store.trim_feed_in_background();
        for _ in 0..500 {
            if entries().await == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(entries().await, 0, "entries older than the retention went, with no consumer holding them");
        assert!(!store.feed_kept_after(0).await.unwrap(), "what went is known to have gone");
    }

    #[tokio::test]
    async fn a_write_of_many_objects_numbers_its_entries_in_order_without_gaps() {
        let dir = tempfile::tempdir().unwrap();
        let store = feed_store(&dir, 0).await;
        let mut tx = store.begin().await.unwrap();
        tx.insert_content(&object("first")).await.unwrap();
        tx.commit().await.unwrap();
        // More than two statements' worth of rows in one transaction.
        let mut tx = store.begin().await.unwrap();
        for n in 0..250 {
            tx.insert_content(&object(&format!("m{n}"))).await.unwrap();
        }
        tx.commit().await.unwrap();
        let changes = store.changes_after(0, 1_000).await.unwrap();
        let seqs: Vec<i64> = changes.iter().map(|c| c.seq).collect();
        let first = seqs[0];
        assert_eq!(seqs, (first..first + 251).collect::<Vec<_>>(), "numbered one after another");
        let paths: Vec<String> = changes[1..].iter().filter_map(|c| c.path.clone()).collect();
        assert_eq!(paths, (0..250).map(|n| format!("/m{n}")).collect::<Vec<_>>(), "in the order written");
        assert_eq!(store.feed_end().await.unwrap(), first + 250);
    }
}
