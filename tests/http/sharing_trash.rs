//! `@sharing` (local roles, inheritance, blocking) and the trash.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn sharing_lists_own_acquired_and_global_roles_and_blocks_inheritance() {
    let server = TestServer::start().await;
    server.user("eva", &["Member"], &[]).await;
    server.user("rita", &["Reader"], &[]).await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    server.create("f", json!({"@type": "Folder", "title": "Sub", "id": "sub"})).await;
    server.create("f/sub", json!({"@type": "Document", "title": "D", "id": "d"})).await;
    server.share("f", "eva", &["Editor"]).await;
    let (status, sharing) = server.get_json("f/sub/@sharing?search=rita").await;
    assert_eq!(status, 200);
    assert_eq!(sharing["inherit"], true);
    let roles: Vec<&str> =
        sharing["available_roles"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(roles, vec!["Contributor", "Editor", "Reader", "Reviewer"]);
    let entry = |id: &str| sharing["entries"].as_array().unwrap().iter().find(|e| e["id"] == id).cloned().unwrap();
    assert_eq!(entry("eva")["roles"]["Editor"], "acquired");
    assert_eq!(entry("rita")["roles"]["Reader"], "global");
    assert_eq!(entry("AuthenticatedUsers")["type"], "group");
    // As Plone's sharing page: those holding roles here say whether they are the caller (whose
    // entry is kept from being changed) and give a login only where it is not the title;
    // a search's finds give their login and no `disabled`.
    let eva = entry("eva");
    let login_unless_title = (eva["title"] != "eva").then(|| json!("eva"));
    assert_eq!((eva["disabled"].clone(), eva.get("login").cloned()), (json!(false), login_unless_title), "{eva}");
    assert_eq!((entry("rita").get("disabled").cloned(), entry("rita")["login"].clone()), (None, json!("rita")));
    server.share("f/sub", "admin", &["Reader"]).await;
    let (_, mine) = server.get_json("f/sub/@sharing").await;
    let admin = mine["entries"].as_array().unwrap().iter().find(|e| e["id"] == "admin").cloned().unwrap();
    assert_eq!(admin["disabled"], true, "the caller's own entry: {admin}");
    server.share("f/sub", "rita", &["Reader"]).await;
    let (_, both) = server.get_json("f/sub/@sharing").await;
    let rita = both["entries"].as_array().unwrap().iter().find(|e| e["id"] == "rita").cloned().unwrap();
    assert_eq!(rita["roles"]["Reader"], "global", "a role held site-wide shows as such, given here too");
    assert_eq!(
        server.as_user("eva", Method::PATCH, "f/sub/d").json(&json!({"title": "x"})).send().await.unwrap().status(),
        204
    );
    let block = server.admin(Method::POST, "f/sub/@sharing").json(&json!({"inherit": false})).send().await.unwrap();
    assert_eq!(block.status(), 204);
    assert_error(server.as_user("eva", Method::GET, "f/sub/d").send().await.unwrap(), 403, "forbidden").await;
    let (_, folder) = read(server.as_user("eva", Method::GET, "f").send().await.unwrap()).await;
    assert_eq!(folder["items_total"], 0, "the blocked subfolder vanished from eva's listing");
    let (_, sharing) = server.get_json("f/sub/@sharing").await;
    assert_eq!(sharing["inherit"], false);
    let response = server
        .admin(Method::POST, "f/@sharing")
        .json(&json!({"entries": [{"id": "eva", "type": "user", "roles": {"Manager": true}}]}))
        .send()
        .await
        .unwrap();
    assert_error(response, 400, "validation_failed").await;
    let response = server.as_user("eva", Method::GET, "@sharing").send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
}

#[tokio::test]
async fn trashed_content_is_hidden_listed_for_managers_and_restorable() {
    let server = TestServer::start().await;
    server.user("member", &["Member"], &[]).await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    server.create("f", json!({"@type": "Document", "title": "Inner", "id": "inner"})).await;
    server.create("f", json!({"@type": "Document", "title": "Early", "id": "early"})).await;
    server.admin(Method::PATCH, "f").json(&json!({"id": "folder"})).send().await.unwrap();
    assert_eq!(server.admin(Method::POST, "folder/early/@trash").send().await.unwrap().status(), 204);
    assert_eq!(server.admin(Method::POST, "folder/@trash").send().await.unwrap().status(), 204);
    assert_error(server.admin(Method::GET, "folder").send().await.unwrap(), 404, "not_found").await;
    assert_error(server.admin(Method::GET, "folder/inner").send().await.unwrap(), 404, "not_found").await;
    assert_error(server.admin(Method::GET, "f").send().await.unwrap(), 404, "not_found").await;
    let (_, site) = server.get_json("").await;
    assert_eq!(site["items_total"], 0);
    let (status, trash) = server.get_json("@trash").await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = trash["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["@id"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&"folder") && ids.contains(&"early"), "{ids:?}");
    assert!(trash["items"][0]["trashed_at"].is_string());
    assert_error(server.as_user("member", Method::GET, "@trash").send().await.unwrap(), 403, "forbidden").await;
    assert_error(server.admin(Method::POST, "folder/early/@untrash").send().await.unwrap(), 400, "bad_request").await;
    assert_eq!(server.admin(Method::POST, "folder/@untrash").send().await.unwrap().status(), 204);
    assert_eq!(server.get_json("folder/inner").await.0, 200);
    assert_eq!(server.get_json("folder/early").await.0, 404, "trashed on its own, it stays in the trash");
    let response = server.admin(Method::GET, "f").send().await.unwrap();
    assert_eq!(response.status(), 302, "redirects work again after restoring");
    assert_eq!(server.admin(Method::DELETE, "folder/early").send().await.unwrap().status(), 204, "deleting for good");
    let (_, trash) = server.get_json("@trash").await;
    assert_eq!(trash["items_total"], 0);
    assert_error(server.admin(Method::POST, "folder/@untrash").send().await.unwrap(), 400, "bad_request").await;
    assert_error(server.anonymous(Method::POST, "folder/@trash").send().await.unwrap(), 401, "unauthorized").await;
    assert_error(server.admin(Method::POST, "@trash").send().await.unwrap(), 400, "bad_request").await;
}

/// Local roles, locks and working copies are what every write checks first, and on SQLite
/// they are remembered between requests: each change must show on the very next request.
#[tokio::test]
async fn a_change_to_local_roles_a_lock_or_a_working_copy_counts_on_the_next_request() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    server.create("f", json!({"@type": "Document", "id": "doc", "title": "Doc"})).await;
    server.user("erika", &["Member"], &[]).await;
    let edit = |title: &str| server.as_user("erika", Method::PATCH, "f/doc").json(&json!({"title": title}));

    // Local roles: refused, granted on the folder, taken away again, each on the next request.
    assert_error(edit("1").send().await.unwrap(), 403, "forbidden").await;
    server.share("f", "erika", &["Editor"]).await;
    assert_eq!(edit("2").send().await.unwrap().status(), 204);
    let revoke = json!({"entries": [{"id": "erika", "type": "user", "roles": {"Editor": false}}]});
    assert_eq!(server.admin(Method::POST, "f/@sharing").json(&revoke).send().await.unwrap().status(), 204);
    assert_error(edit("3").send().await.unwrap(), 403, "forbidden").await;
    server.share("f", "erika", &["Editor"]).await;

    // A lock someone else took keeps the next edit out; released, the next one goes through.
    assert_eq!(server.admin(Method::POST, "f/doc/@lock").send().await.unwrap().status(), 200);
    let (status, refused) = read(edit("4").send().await.unwrap()).await;
    assert_eq!((status, &refused["code"]), (409, &json!("locked")), "{refused}");
    assert_eq!(server.admin(Method::DELETE, "f/doc/@lock").send().await.unwrap().status(), 200);
    assert_eq!(edit("5").send().await.unwrap().status(), 204);

    // Checked out, the baseline refuses edits; cancelled, it takes them again.
    assert_eq!(server.admin(Method::POST, "f/doc/@workingcopy").send().await.unwrap().status(), 201);
    let (status, refused) = read(edit("6").send().await.unwrap()).await;
    assert_eq!((status, &refused["code"]), (409, &json!("locked")), "{refused}");
    assert_eq!(server.admin(Method::DELETE, "f/doc/@workingcopy").send().await.unwrap().status(), 204);
    assert_eq!(edit("7").send().await.unwrap().status(), 204);

    // A deleted user's local roles go with it: a new user of the same name gets none.
    assert_eq!(server.admin(Method::DELETE, "@users/erika").send().await.unwrap().status(), 204);
    server.user("erika", &["Member"], &[]).await;
    assert_error(edit("8").send().await.unwrap(), 403, "forbidden").await;
    let (_, doc) = server.get_json("f/doc").await;
    assert_eq!(doc["title"], "7");
}

/// Listings filter on the `allowed` tokens; the site keeps them in every commit, so even a
/// write straight through the store (as a plugin's own code might make one) leaves listings
/// and search right, with no call to remember.
#[tokio::test]
async fn the_allowed_tokens_follow_any_write_that_commits() {
    let server = TestServer::start().await;
    server.user("rita", &["Member"], &[]).await;
    server.create("", json!({"@type": "Folder", "title": "Archiv", "id": "archiv"})).await;
    server.create("archiv", json!({"@type": "Document", "title": "Protokoll", "id": "protokoll"})).await;
    server.settle().await;
    let listed = |body: serde_json::Value| body["items_total"].as_i64().unwrap();
    let search = || server.as_user("rita", Method::GET, "@search?SearchableText=Protokoll");
    assert_eq!(listed(read(search().send().await.unwrap()).await.1), 0, "private: rita finds nothing");

    let folder = server.app.store.content_at_path("/Plone/archiv").await.unwrap().unwrap();
    let mut tx = server.app.store.begin().await.unwrap();
    tx.set_local_roles(&folder.uid, "rita", &["Reader".to_owned()]).await.unwrap();
    tx.commit().await.unwrap();
    server.settle().await;
    assert_eq!(listed(read(search().send().await.unwrap()).await.1), 1, "a Reader on the folder finds its page");

    let mut tx = server.app.store.begin().await.unwrap();
    tx.set_block_local_roles(&folder.uid, true).await.unwrap();
    tx.set_local_roles(&folder.uid, "rita", &[]).await.unwrap();
    tx.commit().await.unwrap();
    server.settle().await;
    assert_eq!(listed(read(search().send().await.unwrap()).await.1), 0, "the role taken, the page is hidden again");
}
