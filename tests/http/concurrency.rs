//! Optimistic concurrency: `If-Match` against a content GET's `ETag`, no acknowledged update
//! lost among many writers, and concurrent structural changes never a server error.

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

/// Moves, copies and deletes of one object race; each answers 2xx, 409, or the answer for an
/// object that is gone (a copy's or move's 400 naming the source; a delete's 404, or its 307 to
/// where the object was moved, as plone.rest redirects unsafe methods), never a 5xx.
/// What was acknowledged holds: a delete that answered 204 removed the object (a delete that
/// lost the race to a move must not report success while the object lives on elsewhere).
#[tokio::test]
async fn concurrent_moves_copies_and_deletes_of_one_object_are_never_server_errors() {
    let server = Arc::new(TestServer::start().await);
    for round in 0..6 {
        let (a, b) = (format!("a{round}"), format!("b{round}"));
        for id in [&a, &b] {
            server.create("", json!({"@type": "Folder", "id": id, "title": id})).await;
        }
        let created = server.create(&a, json!({"@type": "Document", "id": "d", "title": "D"})).await;
        let uid = created["UID"].as_str().unwrap().to_owned();
        let source = server.url(&format!("{a}/d"));
        let tasks: Vec<_> = (0..12)
            .map(|n| {
                let server = server.clone();
                let (source, target, victim) = (source.clone(), format!("{b}/@move"), format!("{a}/d"));
                let copy_target = format!("{b}/@copy");
                tokio::spawn(async move {
                    let request = match n % 3 {
                        0 => server.admin(Method::POST, &target).json(&json!({"source": source})),
                        1 => server.admin(Method::POST, &copy_target).json(&json!({"source": source})),
                        _ => server.admin(Method::DELETE, &victim),
                    };
                    let response = request.send().await.unwrap();
                    (n % 3, response.status().as_u16(), response.text().await.unwrap_or_default())
                })
            })
            .collect();
        let mut deleted = false;
        for task in tasks {
            let (kind, status, body) = task.await.unwrap();
            let gone = (kind < 2 && status == 400 && body.contains("No object found"))
                || (kind == 2 && [307, 404].contains(&status));
            assert!(
                (200..300).contains(&status) || status == 409 || gone,
                "operation {kind} answered {status}: {body}"
            );
            deleted |= kind == 2 && status == 204;
        }
        let found = server.admin(Method::GET, &format!("resolveuid/{uid}")).send().await.unwrap().status();
        if deleted {
            assert_eq!(found, 404, "round {round}: a delete answered 204 but the object still exists");
        } else {
            assert_eq!(found, 302, "round {round}: no delete succeeded but the object is gone");
        }
    }
}
