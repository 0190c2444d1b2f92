//! The answer cache is never wrong on the instance that changed something, keeps callers'
//! answers apart, and bounds what another instance sharing the database shows.

use crate::support::{ADMIN_PASSWORD, TestServer, read};
use reqwest::Method;
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_write_is_visible_on_the_very_next_read() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "One"})).await;
    for _ in 0..3 {
        assert_eq!(server.get_json("d").await.1["title"], "One");
    }
    let patch = server.admin(Method::PATCH, "d").json(&json!({"title": "Two"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    assert_eq!(server.get_json("d").await.1["title"], "Two");
    assert_eq!(server.get_json("d/@breadcrumbs").await.1["items"][0]["title"], "Two");

    // A listing: the folder's items, then a new child.
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    assert_eq!(server.get_json("f").await.1["items_total"], 0);
    server.create("f", json!({"@type": "Document", "id": "child", "title": "Child"})).await;
    assert_eq!(server.get_json("f").await.1["items_total"], 1);
    if cfg!(feature = "navigation") {
        let titles = |body: serde_json::Value| body["items"].to_string();
        assert!(!titles(server.get_json("@navigation").await.1).contains("\"Later\""));
        server.create("", json!({"@type": "Folder", "id": "later", "title": "Later"})).await;
        assert!(titles(server.get_json("@navigation").await.1).contains("\"Later\""));
    }
    // Deleted: gone at once.
    assert_eq!(server.admin(Method::DELETE, "f/child").send().await.unwrap().status(), 204);
    assert_eq!(server.get_json("f/child").await.0, 404);
}

#[tokio::test]
async fn kept_answers_stay_with_the_credentials_they_were_made_for() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "private", "title": "Private"})).await;
    server.user("reader", &[], &[]).await;
    assert_eq!(server.get_json("private").await.0, 200);
    assert_eq!(server.get_json("private").await.0, 200, "admin's answer, now kept");
    let anonymous = server.anonymous(Method::GET, "private").send().await.unwrap();
    assert_eq!(anonymous.status(), 401, "admin's kept answer is not anyone's");
    let refused = server.as_user("reader", Method::GET, "private").send().await.unwrap();
    assert_eq!(refused.status(), 403);
    let wrong = server.anonymous(Method::GET, "private").basic_auth("admin", Some("wrong")).send().await.unwrap();
    assert_eq!(wrong.status(), 401, "nor is it the answer to a wrong password");

    // A grant is a write: the very next read sees it, and so does the revocation.
    server.share("private", "reader", &["Reader"]).await;
    let (status, body) = read(server.as_user("reader", Method::GET, "private").send().await.unwrap()).await;
    assert_eq!((status, body["title"].as_str()), (200, Some("Private")));
    let revoke = json!({"entries": [{"id": "reader", "type": "user", "roles": {"Reader": false}}]});
    assert_eq!(server.admin(Method::POST, "private/@sharing").json(&revoke).send().await.unwrap().status(), 204);
    assert_eq!(server.as_user("reader", Method::GET, "private").send().await.unwrap().status(), 403);

    // The HTML page and the JSON of one URL are kept apart.
    let page = server.raw(Method::GET, &server.url("private")).basic_auth("admin", Some(ADMIN_PASSWORD));
    let page = page.header("Accept", "text/html").send().await.unwrap();
    assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    assert!(server.get_json("private").await.1.is_object());
}

/// Another instance on the same database learns of a change by no commit of its own: its
/// kept answers show it once they are older than the maximum age.
#[tokio::test]
async fn another_instance_shows_a_change_within_the_maximum_age() {
    let max_age = Duration::from_millis(300);
    let first = TestServer::start_with(|config| config.cache_max_age(max_age)).await;
    first.create("", json!({"@type": "Document", "id": "d", "title": "Before"})).await;
    let database_url = first.database_url.clone();
    let second = TestServer::start_with(|config| {
        config.database_url = database_url;
        config.cache_max_age(max_age);
    })
    .await;
    assert_eq!(second.get_json("d").await.1["title"], "Before");
    let patch = first.admin(Method::PATCH, "d").json(&json!({"title": "After"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    let started = Instant::now();
    loop {
        if second.get_json("d").await.1["title"] == "After" {
            break;
        }
        assert!(started.elapsed() < max_age + Duration::from_secs(5), "the other instance still shows the old title");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn with_a_zero_maximum_age_nothing_is_kept() {
    let server = TestServer::start_with(|config| config.cache_max_age(Duration::ZERO)).await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "One"})).await;
    let before = server.app.store.query_count();
    server.get_json("d").await;
    let first = server.app.store.query_count() - before;
    server.get_json("d").await;
    let second = server.app.store.query_count() - before - first;
    assert!(first > 0 && second > 0, "each read reads storage: {first} then {second}");

    // Background commits (the search index taking in the create) may drop the kept answer
    // once or twice; a read that finds it reads no storage at all.
    let cached = TestServer::start().await;
    cached.create("", json!({"@type": "Document", "id": "d", "title": "One"})).await;
    cached.settle().await;
    let mut costs = Vec::new();
    for _ in 0..5 {
        cached.get_json("d").await;
        let before = cached.app.store.query_count();
        cached.get_json("d").await;
        costs.push(cached.app.store.query_count() - before);
    }
    assert!(costs.contains(&0), "a kept answer reads no storage: {costs:?}");
}
