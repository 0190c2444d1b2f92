//! `@workflow`, transitions with history, and `@workflow-set-state`.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn workflow_shows_state_transitions_and_history() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "D", "id": "d"})).await;
    let (status, wf) = server.get_json("d/@workflow").await;
    assert_eq!(status, 200);
    assert_eq!(wf["@id"], server.url("d/@workflow").as_str());
    assert_eq!(wf["state"], json!({"id": "private", "title": "Private"}));
    let transitions: Vec<&str> = wf["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["@id"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(transitions, vec!["publish", "submit"], "in Plone's order");
    assert_eq!(wf["history"][0]["action"], json!(null));
    assert_eq!(wf["history"][0]["review_state"], "private");
    let (status, entry) = read(
        server.admin(Method::POST, "d/@workflow/publish").json(&json!({"comment": "Ready"})).send().await.unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(entry["action"], "publish");
    assert_eq!(entry["actor"], "admin");
    assert_eq!(entry["comment"], "Ready");
    assert_eq!(entry["comments"], "Ready");
    assert_eq!(entry["review_state"], "published");
    assert_eq!(entry["title"], "Published");
    assert!(entry["time"].as_str().unwrap().ends_with("+00:00"));
    let (_, doc) = server.get_json("d").await;
    assert_eq!(doc["review_state"], "published");
    assert!(doc["effective"].is_string(), "publishing sets the effective date");
    let (_, wf) = server.get_json("d/@workflow").await;
    assert_eq!(wf["history"].as_array().unwrap().len(), 2);
    assert_error(server.admin(Method::POST, "d/@workflow/submit").send().await.unwrap(), 400, "workflow_error").await;
    assert_error(server.admin(Method::POST, "d/@workflow/nonsense").send().await.unwrap(), 400, "workflow_error").await;
    assert_error(server.admin(Method::POST, "d/@workflow").send().await.unwrap(), 400, "workflow_error").await;
    assert_error(server.admin(Method::POST, "d/@workflow/a/b").send().await.unwrap(), 404, "not_found").await;
    let response =
        server.admin(Method::POST, "d/@workflow/retract").json(&json!({"effective": "soon"})).send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;
}

#[tokio::test]
async fn include_children_moves_the_subtree() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    server.create("f", json!({"@type": "Document", "title": "A", "id": "a"})).await;
    server.create("f", json!({"@type": "Folder", "title": "Sub", "id": "sub"})).await;
    server.create("f/sub", json!({"@type": "Document", "title": "B", "id": "b"})).await;
    server
        .create("f", json!({"@type": "File", "title": "No workflow", "file": {"data": "aGk=", "filename": "x.txt"}}))
        .await;
    let response = server
        .admin(Method::POST, "f/@workflow/publish")
        .json(&json!({"include_children": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    for path in ["f", "f/a", "f/sub", "f/sub/b"] {
        let (status, body) = read(server.anonymous(Method::GET, path).send().await.unwrap()).await;
        assert_eq!((status, body["review_state"].as_str()), (200, Some("published")), "{path}");
    }
    let (status, file) = read(server.anonymous(Method::GET, "f/no-workflow").send().await.unwrap()).await;
    assert_eq!((status, &file["review_state"]), (200, &json!(null)), "a File acquires its folder's state");
}

#[tokio::test]
async fn set_state_bypasses_transitions_and_updates_security() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "D", "id": "d"})).await;
    assert_eq!(server.anonymous(Method::GET, "d").send().await.unwrap().status(), 401);
    let (status, entry) = read(
        server
            .admin(Method::POST, "d/@workflow-set-state/published")
            .json(&json!({"comment": "Direct"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(entry["action"], "set state");
    assert_eq!(entry["actor"], "admin");
    assert_eq!(entry["comment"], "Direct");
    assert_eq!(entry["review_state"], "published");
    assert_eq!(entry["title"], "Published");
    assert!(chrono_like(entry["time"].as_str().unwrap()), "{entry}");
    assert_eq!(server.anonymous(Method::GET, "d").send().await.unwrap().status(), 200);
    let response = server.admin(Method::POST, "d/@workflow-set-state/pending").send().await.unwrap();
    assert_eq!(response.status(), 200, "no body is fine");
    assert_eq!(server.anonymous(Method::GET, "d").send().await.unwrap().status(), 401);
    assert_error(
        server.admin(Method::POST, "d/@workflow-set-state/bogus").send().await.unwrap(),
        400,
        "workflow_error",
    )
    .await;
    server
        .create("", json!({"@type": "File", "title": "F", "id": "f", "file": {"data": "aGk=", "filename": "f.txt"}}))
        .await;
    assert_error(
        server.admin(Method::POST, "f/@workflow-set-state/published").send().await.unwrap(),
        400,
        "value_error",
    )
    .await;
    server.user("member", &["Member"], &[]).await;
    server.admin(Method::POST, "d/@workflow-set-state/published").send().await.unwrap();
    let response = server.as_user("member", Method::POST, "d/@workflow-set-state/private").send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
    server.user("rev", &["Reviewer"], &[]).await;
    let response = server.as_user("rev", Method::POST, "d/@workflow-set-state/private").send().await.unwrap();
    assert_eq!(response.status(), 200, "Review portal content suffices");
}

fn chrono_like(time: &str) -> bool {
    time.len() == 25 && time.ends_with("+00:00") && time.as_bytes()[10] == b'T'
}

#[tokio::test]
async fn several_workflows_make_set_state_a_value_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("memo.toml"),
        "id = \"Memo\"\ntitle = \"Memo\"\nworkflow = [\"simple_publication_workflow\", \"one_state_workflow\"]\n\n[[fields]]\nname = \"title\"\nkind = \"TextLine\"\n",
    )
    .unwrap();
    let types_dir = dir.path().to_owned();
    let server = TestServer::start_with(|c| c.types_dir = Some(types_dir)).await;
    server.create("", json!({"@type": "Memo", "title": "M", "id": "m"})).await;
    let response = server.admin(Method::POST, "m/@workflow-set-state/published").send().await.unwrap();
    let body = assert_error(response, 400, "value_error").await;
    assert_eq!(body["type"], "ValueError");
}
