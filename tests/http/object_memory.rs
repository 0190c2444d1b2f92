//! On SQLite the objects along requested paths are remembered between requests; every change
//! made through the server counts on the very next request, and concurrent edits leave the
//! memory holding what the database holds.

use crate::support::{TestServer, uid};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn a_change_to_an_object_on_the_path_counts_on_the_next_request() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    server.create("f", json!({"@type": "Document", "id": "d", "title": "D"})).await;
    for _ in 0..3 {
        assert_eq!(server.get_json("f/d").await.1["parent"]["title"], "F");
    }

    // An edit of the folder shows through its child.
    let patch = server.admin(Method::PATCH, "f").json(&json!({"title": "F2", "description": "new"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    let (_, folder) = server.get_json("f").await;
    assert_eq!((&folder["title"], &folder["description"]), (&json!("F2"), &json!("new")));
    assert_eq!(server.get_json("f/d").await.1["parent"]["title"], "F2");

    // A workflow change: the anonymous reader sees the published document at once.
    assert_eq!(server.anonymous(Method::GET, "f/d").send().await.unwrap().status(), 401);
    server.transition("f", "publish").await;
    server.transition("f/d", "publish").await;
    assert_eq!(server.anonymous(Method::GET, "f/d").send().await.unwrap().status(), 200);

    // Renamed: the old path no longer serves the object, the new one does.
    let rename = server.admin(Method::PATCH, "f").json(&json!({"id": "g"}));
    assert_eq!(rename.send().await.unwrap().status(), 204);
    let (status, moved) = server.get_json("g/d").await;
    assert_eq!((status, &moved["parent"]["title"]), (200, &json!("F2")));
    let old = server.admin(Method::GET, "f/d").send().await.unwrap();
    assert_eq!(old.status(), 302, "the old path redirects");
    assert!(old.headers()["location"].to_str().unwrap().ends_with("/Plone/g/d"));

    // Deleted: gone on the next request.
    assert_eq!(server.admin(Method::DELETE, "g/d").send().await.unwrap().status(), 204);
    assert_eq!(server.get_json("g/d").await.0, 404);
}

#[tokio::test]
async fn concurrent_edits_leave_the_memory_holding_what_is_stored() {
    let server = TestServer::start().await;
    let created = server.create("", json!({"@type": "Document", "id": "d", "title": "0"})).await;
    assert_eq!(server.get_json("d").await.1["title"], "0");
    let edits: Vec<_> = (1..=24)
        .map(|n| {
            let patch =
                server.admin(Method::PATCH, "d").json(&json!({"title": n.to_string(), "description": n.to_string()}));
            tokio::spawn(async move { patch.send().await.unwrap().status() })
        })
        .collect();
    for edit in edits {
        assert_eq!(edit.await.unwrap(), 204);
    }
    let stored = server.app.store.content_by_uids(&[uid(&created)]).await.unwrap().pop().unwrap();
    let (_, served) = server.get_json("d").await;
    assert_eq!(served["title"], stored.title);
    assert_eq!(served["description"], stored.title, "title and description come from one edit");
    let served_modified = chrono::DateTime::parse_from_rfc3339(served["modified"].as_str().unwrap()).unwrap();
    assert_eq!(served_modified.timestamp(), stored.modified.timestamp());
}

#[tokio::test]
async fn kept_listings_and_searches_show_every_change_on_the_next_request() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    server.create("f", json!({"@type": "Document", "id": "a", "title": "Apfel"})).await;
    let titles = |body: serde_json::Value| -> Vec<String> {
        body["items"].as_array().unwrap().iter().map(|item| item["title"].as_str().unwrap().to_owned()).collect()
    };
    let search = "@search?SearchableText=Apfel&sort_on=sortable_title";
    for _ in 0..2 {
        assert_eq!(titles(server.get_json("f").await.1), ["Apfel"]);
        assert_eq!(titles(server.get_json(search).await.1), ["Apfel"]);
    }

    server.create("f", json!({"@type": "Document", "id": "b", "title": "Apfelbaum", "description": "Apfel"})).await;
    assert_eq!(titles(server.get_json("f").await.1), ["Apfel", "Apfelbaum"], "an added child");
    assert_eq!(titles(server.get_json(search).await.1), ["Apfel", "Apfelbaum"], "an added hit");

    let patch = server.admin(Method::PATCH, "f/a").json(&json!({"title": "Apfel rot"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    assert_eq!(titles(server.get_json("f").await.1), ["Apfel rot", "Apfelbaum"], "an edited child");
    assert_eq!(titles(server.get_json(search).await.1), ["Apfel rot", "Apfelbaum"], "an edited hit");

    // What one caller was shown is not what another sees: the anonymous reader sees nothing
    // unpublished, before and after the editor's reads were kept.
    let anonymous = server.anonymous(Method::GET, search).header("Accept", "application/json");
    let body: serde_json::Value = anonymous.send().await.unwrap().json().await.unwrap();
    assert_eq!(body["items_total"], 0);

    assert_eq!(server.admin(Method::DELETE, "f/b").send().await.unwrap().status(), 204);
    assert_eq!(titles(server.get_json("f").await.1), ["Apfel rot"], "a deleted child");
    assert_eq!(titles(server.get_json(search).await.1), ["Apfel rot"], "a deleted hit");
}
