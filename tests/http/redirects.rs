//! Old paths redirect after moves and renames: 302 for GET/HEAD, 307 otherwise.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::json;

fn location(response: &reqwest::Response) -> String {
    response.headers()["location"].to_str().unwrap().to_owned()
}

#[tokio::test]
async fn renamed_paths_and_descendants_redirect_with_service_suffix_and_query() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "Old"})).await;
    server.create("old", json!({"@type": "Document", "title": "Child"})).await;
    server.admin(Method::PATCH, "old").json(&json!({"id": "new"})).send().await.unwrap();
    let response = server.admin(Method::GET, "old").send().await.unwrap();
    assert_eq!(response.status(), 302);
    assert_eq!(location(&response), server.url("new"));
    let response = server.admin(Method::GET, "old/child/@types?x=1").send().await.unwrap();
    assert_eq!(response.status(), 302);
    assert_eq!(location(&response), format!("{}?x=1", server.url("new/child/@types")));
    let response = server.admin(Method::PATCH, "old/child").json(&json!({"title": "t"})).send().await.unwrap();
    assert_eq!(response.status(), 307);
    assert_eq!(location(&response), server.url("new/child"));
    let response = server.admin(Method::HEAD, "old/child").send().await.unwrap();
    assert_eq!(response.status(), 302);
    let response = server.raw(Method::GET, &format!("{}/Plone/++api++/old/child", server.base)).send().await.unwrap();
    assert_eq!(response.status(), 302);
    assert_eq!(location(&response), format!("{}/Plone/++api++/new/child", server.base));
}

#[tokio::test]
async fn chains_of_moves_resolve_to_the_current_place() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "A"})).await;
    server.create("", json!({"@type": "Folder", "title": "B"})).await;
    server.create("", json!({"@type": "Document", "title": "Doc"})).await;
    server.admin(Method::POST, "a/@move").json(&json!({"source": "/Plone/doc"})).send().await.unwrap();
    server.admin(Method::POST, "b/@move").json(&json!({"source": "/Plone/a/doc"})).send().await.unwrap();
    server.admin(Method::PATCH, "b/doc").json(&json!({"id": "final"})).send().await.unwrap();
    for old in ["doc", "a/doc", "b/doc"] {
        let response = server.admin(Method::GET, old).send().await.unwrap();
        assert_eq!(response.status(), 302, "{old}");
        assert_eq!(location(&response), server.url("b/final"), "{old}");
    }
}

#[tokio::test]
async fn a_new_object_at_an_old_path_wins_and_deleted_targets_do_not_redirect() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "Spot"})).await;
    server.admin(Method::PATCH, "spot").json(&json!({"id": "moved"})).send().await.unwrap();
    let replacement = server.create("", json!({"@type": "Document", "title": "Spot"})).await;
    let (status, body) = server.get_json("spot").await;
    assert_eq!((status, &body["UID"]), (200, &replacement["UID"]));
    server.admin(Method::DELETE, "moved").send().await.unwrap();
    server.admin(Method::DELETE, "spot").send().await.unwrap();
    let (status, body) = read(server.admin(Method::GET, "spot").send().await.unwrap()).await;
    assert_eq!(status, 404, "{body}");
}

#[tokio::test]
async fn unknown_paths_are_404_with_a_json_body() {
    let server = TestServer::start().await;
    let (status, body) = server.get_json("does/not/exist").await;
    assert_eq!(status, 404);
    assert_eq!(body["type"], "NotFound");
    assert_eq!(body["code"], "not_found");
    let (status, _) = server.get_json("@no-such-service").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn aliases_list_the_old_paths_of_an_object_and_of_the_site() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "Old"})).await;
    server.create("old", json!({"@type": "Document", "title": "Child"})).await;
    server.admin(Method::PATCH, "old").json(&json!({"id": "new"})).send().await.unwrap();
    server.admin(Method::PATCH, "new/child").json(&json!({"id": "kind"})).send().await.unwrap();

    let (status, own) = server.get_json("new/kind/@aliases").await;
    assert_eq!(status, 200, "{own}");
    assert_eq!(own["@id"], json!(server.url("new/kind/@aliases")));
    let mut paths: Vec<&str> = own["items"].as_array().unwrap().iter().map(|i| i["path"].as_str().unwrap()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["/new/child", "/old/child"], "{own}");

    let (_, site) = server.get_json("@aliases?b_size=2").await;
    assert_eq!(site["items_total"], 3, "{site}");
    assert_eq!(
        site["items"][0],
        json!({"path": "/new/child", "redirect-to": "/new/kind", "manual": false,
                                        "datetime": site["items"][0]["datetime"]})
    );
    assert!(site["batching"]["next"].is_string(), "batched: {site}");

    let (_, expanded) = server.get_json("new?expand=aliases").await;
    let entry = &expanded["@components"]["aliases"]["items"][0];
    assert_eq!(
        (&entry["path"], &entry["redirect-to"], &entry["manual"]),
        (&json!("/old"), &json!("/new"), &json!(false))
    );
    let response = server.anonymous(Method::GET, "@aliases").send().await.unwrap();
    assert_eq!(response.status(), 401, "editors' business");
}
