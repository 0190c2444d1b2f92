//! Optimistic concurrency: `If-Match` against a content GET's `ETag`, and no acknowledged update
//! lost among many writers.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;
use std::sync::Arc;

async fn tag(server: &TestServer, path: &str) -> String {
    let response = server.admin(Method::GET, path).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.headers()["etag"].to_str().unwrap().to_owned()
}

#[tokio::test]
async fn if_match_makes_writes_conditional_on_the_state_read() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "One"})).await;
    let first = tag(&server, "d").await;
    assert_eq!(tag(&server, "d?expand=breadcrumbs").await.split('.').next(), first.split('.').next());
    let patch = |title: &str, tag: &str| {
        server.admin(Method::PATCH, "d").header("If-Match", tag).json(&json!({"title": title}))
    };
    assert_eq!(patch("Two", &first).send().await.unwrap().status(), 204);
    assert_error(patch("Lost", &first).send().await.unwrap(), 412, "precondition_failed").await;
    assert_eq!(server.get_json("d").await.1["title"], "Two", "the stale write changed nothing");
    let put = server.admin(Method::PUT, "d").header("If-Match", &first);
    assert_error(put.json(&json!({"title": "Put"})).send().await.unwrap(), 412, "precondition_failed").await;

    let stale_delete = server.admin(Method::DELETE, "d").header("If-Match", &first).send().await.unwrap();
    assert_error(stale_delete, 412, "precondition_failed").await;
    let current = tag(&server, "d").await;
    assert_ne!(current, first);
    let delete = server.admin(Method::DELETE, "d").header("If-Match", &current).send().await.unwrap();
    assert_eq!(delete.status(), 204);
    server.create("", json!({"@type": "Document", "id": "e", "title": "E"})).await;
    assert_eq!(server.admin(Method::DELETE, "e").header("If-Match", "*").send().await.unwrap().status(), 204);
}

/// Fifty editors each add one to a counter by reading it and writing it back with If-Match,
/// trying again on 412: every acknowledged write counts.
#[tokio::test]
async fn fifty_writers_lose_no_acknowledged_update() {
    let server = Arc::new(TestServer::start().await);
    server.create("", json!({"@type": "Document", "id": "counter", "title": "C", "description": "0"})).await;
    let writers: Vec<_> = (0..50)
        .map(|_| {
            let server = server.clone();
            tokio::spawn(async move {
                loop {
                    let response = server.admin(Method::GET, "counter").send().await.unwrap();
                    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
                    let (_, body) = read(response).await;
                    let n: u64 = body["description"].as_str().unwrap().parse().unwrap();
                    let patch = server.admin(Method::PATCH, "counter").header("If-Match", etag);
                    let status =
                        patch.json(&json!({"description": (n + 1).to_string()})).send().await.unwrap().status();
                    match status.as_u16() {
                        204 => return,
                        412 => continue,
                        other => panic!("a write answered {other}"),
                    }
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    assert_eq!(server.get_json("counter").await.1["description"], "50");
}

/// Writers that change different fields of one object at once, without If-Match: none
/// undoes another's change.
#[tokio::test]
async fn concurrent_patches_of_different_fields_keep_every_change() {
    let server = Arc::new(TestServer::start().await);
    server.create("", json!({"@type": "Document", "id": "d", "title": "T"})).await;
    let fields: [&'static str; 3] = ["title", "description", "rights"];
    let writers: Vec<_> = fields
        .into_iter()
        .map(|field| {
            let server = server.clone();
            tokio::spawn(async move {
                for round in 0..10 {
                    let patch = server.admin(Method::PATCH, "d").json(&json!({field: format!("{field} {round}")}));
                    assert_eq!(patch.send().await.unwrap().status(), 204);
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    let (_, body) = server.get_json("d").await;
    for field in fields {
        assert_eq!(body[field], format!("{field} 9"), "{body}");
    }
}
