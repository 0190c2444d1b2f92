//! Folder listings: items, batching, metadata_fields, fullobjects, include_items, ordering,
//! and a constant number of SQL queries per listing.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

async fn folder_with(server: &TestServer, id: &str, children: usize) {
    server.create("", json!({"@type": "Folder", "title": id, "id": id})).await;
    for n in 0..children {
        server.create(id, json!({"@type": "Document", "title": format!("Doc {n:03}")})).await;
    }
}

fn ids(items: &Value) -> Vec<String> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["@id"].as_str().unwrap().rsplit('/').next().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn small_folders_list_all_items_without_batching() {
    let server = TestServer::start().await;
    folder_with(&server, "f", 3).await;
    let (_, folder) = server.get_json("f").await;
    assert_eq!(folder["items_total"], 3);
    assert_eq!(ids(&folder["items"]), vec!["doc-000", "doc-001", "doc-002"]);
    assert!(folder.get("batching").is_none(), "{folder}");
    let item = &folder["items"][0];
    for key in ["@id", "@type", "title", "description", "review_state", "type_title"] {
        assert!(item.get(key).is_some(), "summary lacks {key}: {item}");
    }
}

#[tokio::test]
async fn batching_links_always_carry_b_size() {
    let server = TestServer::start().await;
    folder_with(&server, "f", 7).await;
    let (_, page) = server.get_json("f?b_size=3&b_start=3&sort_on=x").await;
    assert_eq!(page["items_total"], 7);
    assert_eq!(ids(&page["items"]), vec!["doc-003", "doc-004", "doc-005"]);
    let url = server.url("f");
    let batching = &page["batching"];
    assert_eq!(batching["@id"], format!("{url}?b_size=3&b_start=3&sort_on=x"), "the URL as requested, as in Plone");
    assert_eq!(batching["first"], format!("{url}?b_start=0&b_size=3&sort_on=x"));
    assert_eq!(batching["prev"], format!("{url}?b_start=0&b_size=3&sort_on=x"));
    assert_eq!(batching["next"], format!("{url}?b_start=6&b_size=3&sort_on=x"));
    assert_eq!(batching["last"], format!("{url}?b_start=6&b_size=3&sort_on=x"));
    let (_, last) = server.get_json("f?b_size=3&b_start=6").await;
    assert_eq!(ids(&last["items"]), vec!["doc-006"]);
    assert!(last["batching"].get("next").is_none());
}

#[tokio::test]
async fn default_batch_is_25_and_links_still_carry_b_size() {
    let server = TestServer::start().await;
    folder_with(&server, "f", 27).await;
    let (_, page) = server.get_json("f").await;
    assert_eq!(page["items"].as_array().unwrap().len(), 25);
    assert_eq!(page["batching"]["next"], format!("{}?b_start=25&b_size=25", server.url("f")));
    for link in ["first", "last", "next"] {
        assert!(page["batching"][link].as_str().unwrap().contains("b_size=25"), "{link}");
    }
    assert_eq!(page["batching"]["@id"], server.url("f"), "the URL as requested, as in Plone");
}

#[tokio::test]
async fn include_items_false_omits_items() {
    let server = TestServer::start().await;
    folder_with(&server, "f", 2).await;
    let (_, folder) = server.get_json("f?include_items=false").await;
    assert!(folder.get("items").is_none() && folder.get("items_total").is_none());
    let response = server.admin(Method::GET, "f?include_items=perhaps").send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;
}

#[tokio::test]
async fn metadata_fields_add_columns_to_summaries() {
    let server = TestServer::start().await;
    folder_with(&server, "f", 1).await;
    let (_, folder) = server.get_json("f?metadata_fields=UID&metadata_fields=Creator&metadata_fields=nav_title").await;
    let item = &folder["items"][0];
    assert_eq!(item["Creator"], "admin");
    assert_eq!(item["UID"].as_str().unwrap().len(), 32);
    assert_eq!(item["nav_title"], Value::Null);
    let (_, all) = server.get_json("f?metadata_fields=_all").await;
    for key in ["UID", "created", "modified", "getPath", "getURL", "is_folderish", "portal_type", "Subject"] {
        assert!(all["items"][0].get(key).is_some(), "_all lacks {key}");
    }
}

#[tokio::test]
async fn fullobjects_serializes_items_in_full() {
    let server = TestServer::start().await;
    folder_with(&server, "f", 2).await;
    server.create("f", json!({"@type": "Folder", "title": "Sub"})).await;
    server.create("f/sub", json!({"@type": "Document", "title": "Deep"})).await;
    let (_, folder) = server.get_json("f?fullobjects=1").await;
    let items = folder["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert!(items[0].get("UID").is_some() && items[0].get("text").is_some(), "{}", items[0]);
    assert_eq!(items[0]["parent"]["@id"], server.url("f").as_str());
    let sub = items.iter().find(|i| i["id"] == "sub").unwrap();
    assert!(sub.get("items").is_none(), "nested items must not be listed: {sub}");
}

#[tokio::test]
async fn listing_cost_does_not_grow_with_the_number_of_items() {
    let server = TestServer::start_uncached().await;
    folder_with(&server, "small", 10).await;
    folder_with(&server, "large", 100).await;
    let mut costs = Vec::new();
    // Full pages, which cannot tell the listing's total: each needs its count.
    for path in
        ["small?b_size=10", "large?b_size=100", "small?b_size=10&fullobjects=1", "large?b_size=100&fullobjects=1"]
    {
        server.get_json(path).await;
        let before = server.app.store.query_count();
        let (status, body) = server.get_json(path).await;
        assert_eq!(status, 200);
        assert!(body["items"].as_array().unwrap().len() >= 10);
        costs.push(server.app.store.query_count() - before);
    }
    assert_eq!(costs[0], costs[1], "summaries: {costs:?}");
    assert_eq!(costs[2], costs[3], "fullobjects: {costs:?}");
    // Traversal and security, the working-copy and lock lookups an editor gets, one page and
    // one count.
    assert!(costs[1] <= 6, "a listing should take a handful of queries: {costs:?}");
}

#[tokio::test]
async fn ordering_moves_children() {
    let server = TestServer::start().await;
    folder_with(&server, "f", 4).await;
    let patch = |body: Value| server.admin(Method::PATCH, "f").json(&body).send();
    assert_eq!(patch(json!({"ordering": {"obj_id": "doc-003", "delta": "top"}})).await.unwrap().status(), 204);
    assert_eq!(ids(&server.get_json("f").await.1["items"]), vec!["doc-003", "doc-000", "doc-001", "doc-002"]);
    assert_eq!(patch(json!({"ordering": {"obj_id": "doc-003", "delta": 2}})).await.unwrap().status(), 204);
    assert_eq!(ids(&server.get_json("f").await.1["items"]), vec!["doc-000", "doc-001", "doc-003", "doc-002"]);
    assert_eq!(patch(json!({"ordering": {"obj_id": "doc-000", "delta": "bottom"}})).await.unwrap().status(), 204);
    assert_eq!(ids(&server.get_json("f").await.1["items"]), vec!["doc-001", "doc-003", "doc-002", "doc-000"]);
    let stale = json!({"ordering": {"obj_id": "doc-001", "delta": 1, "subset_ids": ["doc-000", "doc-001"]}});
    assert_error(patch(stale).await.unwrap(), 400, "ordering_mismatch").await;
    let subset = json!({"ordering": {"obj_id": "doc-001", "delta": 1, "subset_ids": ["doc-001", "doc-000"]}});
    assert_eq!(patch(subset).await.unwrap().status(), 204);
    assert_eq!(ids(&server.get_json("f").await.1["items"]), vec!["doc-000", "doc-003", "doc-002", "doc-001"]);
    assert_error(patch(json!({"ordering": {"obj_id": "nope", "delta": 1}})).await.unwrap(), 400, "invalid_parameter")
        .await;
    server.create("", json!({"@type": "Link", "title": "Link", "remoteUrl": "https://example.org/"})).await;
    let response = server
        .admin(Method::PATCH, "link")
        .json(&json!({"ordering": {"obj_id": "x", "delta": 1}}))
        .send()
        .await
        .unwrap();
    assert_error(response, 400, "bad_request").await;
    let (status, _) = read(patch(json!({"ordering": {"obj_id": "doc-000", "delta": "sideways"}})).await.unwrap()).await;
    assert_eq!(status, 400);
}
