//! Instances sharing a PostgreSQL database keep what they read in memory (objects, settings,
//! the facts writes check, verified credentials, kept answers) and forget it when another
//! instance commits: a write shows on the next read of the instance that made it and, within
//! [`BOUND`], on every other, however long their memories' maximum ages. (On SQLite another
//! process's change shows within the maximum age; see `answer_cache.rs`.)

use crate::support::{TestServer, postgres_url};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// How late another instance's commit may show: a notification's way through PostgreSQL,
/// milliseconds on one machine, with room for a busy test machine.
const BOUND: Duration = Duration::from_secs(2);

/// Long enough that nothing in these tests is forgotten for its age.
const LONG: Duration = Duration::from_secs(600);

async fn instance(database_url: Option<String>) -> TestServer {
    let server = TestServer::start_with(|config| {
        if let Some(url) = database_url {
            config.database_url = url;
        }
        config.cache_max_age(LONG);
    })
    .await;
    following(&server).await;
    server
}

/// Waits until `server` listens for the other instances' commits.
async fn following(server: &TestServer) {
    let started = Instant::now();
    while !server.app.store.follows_other_instances() {
        assert!(started.elapsed() < Duration::from_secs(10), "the instance never started listening");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Polls `read` on `server` until it gives `expected`, for at most [`BOUND`].
async fn shows(server: &TestServer, what: &str, read: impl AsyncFn(&TestServer) -> Value, expected: Value) {
    let started = Instant::now();
    loop {
        let seen = read(server).await;
        if seen == expected {
            return;
        }
        assert!(started.elapsed() < BOUND, "{what}: still {seen} after {BOUND:?}, expected {expected}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn title(server: &TestServer) -> Value {
    server.get_json("d").await.1["title"].clone()
}

#[tokio::test]
async fn a_write_shows_on_the_next_read_here_and_within_the_bound_there() {
    if postgres_url().is_none() {
        return;
    }
    let first = instance(None).await;
    let second = instance(Some(first.database_url.clone())).await;
    first.create("", json!({"@type": "Document", "id": "d", "title": "Before"})).await;
    shows(&second, "a new object", title, json!("Before")).await;
    // Read again: from memory, not from storage. (The search index taking in the new object
    // moves the generation on once, so a read may have to be repeated.)
    second.settle().await;
    let mut costs = Vec::new();
    for _ in 0..5 {
        assert_eq!(title(&second).await, "Before");
        let before = second.app.store.query_count();
        assert_eq!(title(&second).await, "Before");
        costs.push(second.app.store.query_count() - before);
    }
    assert!(costs.contains(&0), "a repeated read is answered from memory: {costs:?}");

    let patch = first.admin(Method::PATCH, "d").json(&json!({"title": "After"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    assert_eq!(title(&first).await, "After", "the writing instance shows its write on the next read");
    shows(&second, "an edit", title, json!("After")).await;

    // A changed password: the other instance stops accepting the old one it had verified.
    let user = json!({"username": "ed", "email": "ed@example.org", "password": "first-secret-1", "roles": ["Editor"]});
    assert_eq!(first.admin(Method::POST, "@users").json(&user).send().await.unwrap().status(), 201);
    let as_ed = async |server: &TestServer| -> Value {
        let request = server.raw(Method::GET, &server.url("d")).basic_auth("ed", Some("first-secret-1"));
        json!(request.header("Accept", "application/json").send().await.unwrap().status().as_u16())
    };
    shows(&second, "a new user", as_ed, json!(200)).await;
    let change = first.admin(Method::PATCH, "@users/ed").json(&json!({"password": "second-secret-2"}));
    assert_eq!(change.send().await.unwrap().status(), 204);
    shows(&second, "a changed password", as_ed, json!(401)).await;

    // A setting.
    let robots = async |server: &TestServer| -> Value { server.get_json("@registry/plone.robots_txt").await.1 };
    shows(&second, "a setting", robots, robots(&first).await).await;
    let set = first.admin(Method::PATCH, "@registry").json(&json!({"plone.robots_txt": "Disallow: /"}));
    assert_eq!(set.send().await.unwrap().status(), 204);
    shows(&second, "a changed setting", robots, json!("Disallow: /")).await;
}

#[tokio::test]
async fn a_lost_listening_connection_is_opened_again() {
    let Some(url) = postgres_url() else { return };
    let first = instance(None).await;
    let second = instance(Some(first.database_url.clone())).await;
    first.create("", json!({"@type": "Document", "id": "d", "title": "Before"})).await;
    shows(&second, "a new object", title, json!("Before")).await;

    use sqlx::Connection;
    let mut admin = sqlx::PgConnection::connect(&url).await.expect("connect to WCS_TEST_DATABASE_URL");
    let killed: Vec<bool> =
        sqlx::query_scalar("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1")
            .bind(format!("wcs listener {}", second.app.store.instance()))
            .fetch_all(&mut admin)
            .await
            .expect("terminate the listening connection");
    assert_eq!(killed, vec![true], "the second instance had one listening connection");

    // While it listens again, it reads storage: a write in between is not missed.
    let patch = first.admin(Method::PATCH, "d").json(&json!({"title": "Meanwhile"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    shows(&second, "an edit while reconnecting", title, json!("Meanwhile")).await;
    following(&second).await;
    let patch = first.admin(Method::PATCH, "d").json(&json!({"title": "After"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    shows(&second, "an edit after reconnecting", title, json!("After")).await;
}
