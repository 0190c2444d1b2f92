//! The group commit's promises: answered means durable, a failed member takes back only its
//! own changes, and a cancelled one blocks nobody; on SQLite, and on PostgreSQL when the suite
//! has a database.

use crate::store::Store;
use sqlx::Row;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::oneshot;

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn store(dir: &tempfile::TempDir) -> Result<Store, Box<dyn std::error::Error>> {
    Ok(crate::store::test_support::store_on_either(dir).await)
}

/// What a reader on the pool sees, bypassing the store's memory of records.
async fn committed(store: &Store, name: &str) -> Result<Option<String>, sqlx::Error> {
    let row = sqlx::query("SELECT value FROM record WHERE name = $1").bind(name).fetch_optional(store.pool()).await?;
    row.map(|row| row.try_get(0)).transpose()
}

async fn wait_until(what: &str, mut done: impl FnMut() -> bool) -> TestResult {
    for _ in 0..500 {
        if done() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    Err(format!("timed out waiting until {what}").into())
}

#[tokio::test]
async fn a_writer_is_answered_after_the_group_commits_and_a_failed_member_takes_only_its_own_changes() -> TestResult {
    let dir = tempfile::tempdir()?;
    let store = store(&dir).await?;
    let writer = store.writer.clone();

    let mut first = store.begin().await?;
    first.set_record("first", "kept").await?;

    // A second writer queues behind the first, writes, then fails (is dropped) on cue.
    let (joined, has_joined) = oneshot::channel();
    let (fail, fail_now) = oneshot::channel::<()>();
    let second_store = store.clone();
    let second = tokio::spawn(async move {
        let mut tx = second_store.begin().await?;
        tx.set_record("second", "rolled back").await?;
        let _ = joined.send(());
        let _ = fail_now.await;
        drop(tx);
        Ok::<_, sqlx::Error>(())
    });
    wait_until("the second writer queues", || writer.queued.load(Ordering::Acquire) == 1).await?;

    let first_commit = tokio::spawn(first.commit());
    has_joined.await?;
    // The second writer joined the first one's group: the first is not answered yet, and
    // readers see nothing of the group.
    assert!(!first_commit.is_finished(), "the first writer was answered before its group committed");
    assert_eq!(committed(&store, "first").await?, None, "a reader saw an uncommitted group");

    fail.send(()).map_err(|_| "the second writer is gone")?;
    second.await??;
    tokio::time::timeout(Duration::from_secs(5), first_commit).await???;
    assert_eq!(committed(&store, "first").await?.as_deref(), Some("kept"));
    assert_eq!(committed(&store, "second").await?, None, "the failed member's write was committed");

    // The writer is free and the next transaction starts a group of its own.
    let mut third = store.begin().await?;
    third.set_record("third", "kept").await?;
    third.commit().await?;
    assert_eq!(committed(&store, "third").await?.as_deref(), Some("kept"));
    Ok(())
}

/// Fails a transaction that adds `/refused`, after the change feed has queued its rows.
static REFUSES: crate::store::Subscriber = crate::store::Subscriber {
    name: "refuses",
    phase: crate::store::Phase::InTransaction(|_tx, events| {
        let refused =
            events.iter().any(|e| matches!(e, crate::events::Event::Added { path, .. } if path == "/refused"));
        Box::pin(std::future::ready(if refused { Err(crate::error::ApiError::internal("refused")) } else { Ok(()) }))
    }),
};

#[tokio::test]
async fn a_member_rolled_back_leaves_no_feed_entry_and_the_group_keeps_the_others() -> TestResult {
    use crate::store::change_feed::CHANGE_FEED;
    use crate::store::test_support::object;
    let dir = tempfile::tempdir()?;
    let store = store(&dir).await?;
    store.set_subscribers(crate::store::Subscribers::new(vec![("core", &CHANGE_FEED), ("test", &REFUSES)]));
    let writer = store.writer.clone();

    let mut first = store.begin().await?;
    first.insert_content(&object("kept")).await?;
    let second_store = store.clone();
    let second = tokio::spawn(async move {
        let mut tx = second_store.begin().await?;
        tx.insert_content(&object("refused")).await?;
        Ok::<_, sqlx::Error>(tx.commit().await)
    });
    wait_until("the second writer queues", || writer.queued.load(Ordering::Acquire) == 1).await?;
    let first_commit = tokio::spawn(first.commit());

    let second_outcome = tokio::time::timeout(Duration::from_secs(5), second).await???;
    assert!(second_outcome.is_err(), "the refused writer was answered as committed");
    tokio::time::timeout(Duration::from_secs(5), first_commit).await???;
    let paths: Vec<Option<String>> =
        sqlx::query_scalar("SELECT path FROM change_feed ORDER BY seq").fetch_all(store.pool()).await?;
    assert_eq!(paths, vec![Some("/kept".to_owned())], "the feed holds the committed member's entry alone");
    Ok(())
}

#[tokio::test]
async fn concurrent_writers_are_all_durable_once_answered() -> TestResult {
    let dir = tempfile::tempdir()?;
    let store = store(&dir).await?;
    let writers: Vec<_> = (0..40)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut tx = store.begin().await?;
                tx.set_record(&format!("writer-{i}"), &i.to_string()).await?;
                tx.commit().await.map_err(|e| format!("{e:?}"))?;
                // Answered means committed: a fresh reader sees it at once.
                let seen = committed(&store, &format!("writer-{i}")).await?;
                Ok::<_, Box<dyn std::error::Error + Send + Sync>>(seen == Some(i.to_string()))
            })
        })
        .collect();
    for (i, writer) in writers.into_iter().enumerate() {
        assert!(writer.await?.map_err(|e| e.to_string())?, "writer {i} was answered before its write was visible");
    }
    Ok(())
}

#[tokio::test]
async fn a_writer_cancelled_midway_leaves_nothing_and_blocks_nobody() -> TestResult {
    let dir = tempfile::tempdir()?;
    let store = store(&dir).await?;
    let cancelled_store = store.clone();
    let (written, has_written) = oneshot::channel();
    let cancelled = tokio::spawn(async move {
        let mut tx = cancelled_store.begin().await?;
        tx.set_record("cancelled", "never").await?;
        let _ = written.send(());
        std::future::pending::<()>().await;
        Ok::<_, sqlx::Error>(())
    });
    has_written.await?;
    cancelled.abort();
    let mut next = tokio::time::timeout(Duration::from_secs(5), store.begin()).await??;
    next.set_record("next", "kept").await?;
    tokio::time::timeout(Duration::from_secs(5), next.commit()).await?.map_err(|e| format!("{e:?}"))?;
    assert_eq!(committed(&store, "cancelled").await?, None);
    assert_eq!(committed(&store, "next").await?.as_deref(), Some("kept"));
    Ok(())
}

#[tokio::test]
async fn writers_that_keep_failing_do_not_hold_back_a_group_s_commit() -> TestResult {
    let dir = tempfile::tempdir()?;
    let store = store(&dir).await?;
    let writer = store.writer.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Writers that join and fail without end, so one is nearly always queued, as a stream of
    // 412s on a busy object is.
    let failing: Vec<_> = (0..4)
        .map(|_| {
            let (store, stop) = (store.clone(), stop.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Acquire) {
                    let tx = store.begin().await?;
                    drop(tx);
                }
                Ok::<_, sqlx::Error>(())
            })
        })
        .collect();
    let mut first = store.begin().await?;
    first.set_record("first", "kept").await?;
    wait_until("a failing writer queues", || writer.queued.load(Ordering::Acquire) > 0).await?;
    let answered = tokio::time::timeout(Duration::from_secs(5), first.commit()).await;
    stop.store(true, Ordering::Release);
    for task in failing {
        task.await??;
    }
    answered.map_err(|_| "the group stayed open while failing writers kept coming")??;
    assert_eq!(committed(&store, "first").await?.as_deref(), Some("kept"));
    Ok(())
}

#[tokio::test]
async fn writers_sharing_a_commit_each_get_their_own_feed_numbers() -> TestResult {
    use crate::store::change_feed::CHANGE_FEED;
    use crate::store::test_support::object;
    let dir = tempfile::tempdir()?;
    let store = store(&dir).await?;
    store.set_subscribers(crate::store::Subscribers::new(vec![("core", &CHANGE_FEED)]));
    // Enough writers at once that groups form: on PostgreSQL they share a transaction number.
    let writers: Vec<_> = (0..40)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut tx = store.begin().await?;
                tx.insert_content(&object(&format!("o{i}"))).await?;
                tx.commit().await.map_err(|e| format!("{e:?}"))?;
                Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
            })
        })
        .collect();
    for writer in writers {
        writer.await?.map_err(|e| e.to_string())?;
    }
    let row = sqlx::query("SELECT COUNT(*), COUNT(DISTINCT seq) FROM change_feed WHERE kind = 'added'")
        .fetch_one(store.pool())
        .await?;
    let (entries, numbers): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
    assert_eq!((entries, numbers), (40, 40), "every write has its entry, each with a number of its own");
    Ok(())
}
