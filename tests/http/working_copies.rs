//! `@workingcopy`: check-out, the merged listing of a working copy, check-in and cancel.

use crate::support::{TestServer, assert_error, read, site_path};
use reqwest::Method;
use serde_json::json;
#[cfg(feature = "site-profile")]
use {crate::support::uid, serde_json::Value};

async fn check_out(server: &TestServer, path: &str) -> String {
    let response = server.admin(Method::POST, &format!("{path}/@workingcopy")).send().await.unwrap();
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let (status, body) = read(response).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["@id"], location.as_str(), "Location names the working copy");
    site_path(&body["@id"])
}

/// Block pages are the site profile's.
#[cfg(feature = "site-profile")]
#[tokio::test]
async fn check_in_updates_the_baseline_in_place() {
    let server = TestServer::start().await;
    let page = server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Original"})).await;
    let kept = server.create("p", json!({"@type": "TextBlock", "id": "kept", "text": "<p>alt</p>"})).await;
    let dropped = server.create("p", json!({"@type": "TextBlock", "id": "dropped", "text": "<p>weg</p>"})).await;
    server.create("p", json!({"@type": "ContentPage", "id": "sub", "title": "Unterseite"})).await;
    server.transition("p", "publish").await;

    let copy = check_out(&server, "p").await;
    assert_eq!(copy, "working_copy_of_p");
    let (_, wc) = server.get_json(&copy).await;
    assert_eq!(wc["working_copy_of"]["@id"], server.url("p").as_str());
    assert_eq!(wc["slblocks"].as_object().unwrap().len(), 2, "blocks are copied with the page");
    let titles: Vec<&str> = wc["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, vec!["Unterseite"], "sub-pages stay with the baseline and are listed");
    let (_, info) = server.get_json("p/@workingcopy").await;
    assert_eq!(info["working_copy"]["@id"], server.url(&copy).as_str());
    assert_eq!(info["working_copy"]["creator_name"], "admin");
    let (_, base) = server.get_json("p").await;
    assert_eq!(base["working_copy"]["@id"], server.url(&copy).as_str());
    assert_eq!(base["working_copy_of"], Value::Null, "the baseline is no working copy");
    // Locked as plone.app.iterate locks it, with no token to edit it anyway.
    assert_eq!(base["lock"]["locked"], true);
    assert_eq!((&base["lock"]["name"], &base["lock"]["stealable"]), (&json!("iterate.lock"), &json!(false)));
    assert!(base["lock"].get("token").is_none(), "{}", base["lock"]);
    let (_, lock) = server.get_json("p/@lock").await;
    assert_eq!(lock["name"], "iterate.lock");
    let (_, public) = read(server.anonymous(Method::GET, "p").send().await.unwrap()).await;
    assert_eq!(public["working_copy"], Value::Null, "only editors see working copies");

    // The baseline is locked; a second check-out is refused.
    let response = server.admin(Method::PATCH, "p").json(&json!({"title": "Direkt"})).send().await.unwrap();
    assert_error(response, 409, "locked").await;
    assert_error(server.admin(Method::POST, "p/@workingcopy").send().await.unwrap(), 409, "locked").await;
    assert_error(server.admin(Method::DELETE, "p").send().await.unwrap(), 409, "locked").await;

    // Edit the copy: title, one block changed, one deleted, one added, a new sub-page.
    let (_, wc) = server.get_json(&copy).await;
    let copied_kept =
        wc["slblocks"].as_object().unwrap().values().find(|b| b["id"] == "kept").map(|b| site_path(&b["@id"])).unwrap();
    let response = server.admin(Method::PATCH, &copy).json(&json!({"title": "Überarbeitet"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let text = json!({"text": "<p>neu</p>"});
    assert_eq!(server.admin(Method::PATCH, &copied_kept).json(&text).send().await.unwrap().status(), 204);
    assert_eq!(server.admin(Method::DELETE, &format!("{copy}/dropped")).send().await.unwrap().status(), 204);
    let link = format!("<p>dazu <a href=\"{}\">siehe oben</a></p>", server.url(&copied_kept));
    let added = server.create(&copy, json!({"@type": "TextBlock", "id": "added", "text": link})).await;
    server.create(&copy, json!({"@type": "ContentPage", "id": "new-sub", "title": "Neue Unterseite"})).await;
    let (_, wc) = server.get_json(&copy).await;
    let titles: Vec<&str> = wc["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, vec!["Neue Unterseite", "Unterseite"], "the copy's children first, then the baseline's");

    assert_eq!(server.admin(Method::PATCH, &format!("{copy}/@workingcopy")).send().await.unwrap().status(), 204);
    assert_error(server.admin(Method::GET, &copy).send().await.unwrap(), 404, "not_found").await;
    let (_, after) = server.get_json("p").await;
    assert_eq!(after["UID"], page["UID"]);
    assert_eq!(after["@id"], server.url("p").as_str());
    assert_eq!(after["title"], "Überarbeitet");
    assert_eq!(after["review_state"], "published", "the baseline keeps its workflow state");
    assert_eq!(after["working_copy"], Value::Null);
    let blocks = after["slblocks"].as_object().unwrap();
    assert_eq!(blocks[&uid(&kept)]["text"]["data"], "<p>neu</p>", "changed blocks keep their uids");
    assert!(!blocks.contains_key(&uid(&dropped)));
    let data = blocks[&uid(&added)]["text"]["data"].as_str().unwrap();
    assert!(data.contains(&format!("href=\"{}\"", server.url("p/kept"))), "links between blocks survive: {data}");
    let titles: Vec<&str> = after["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert!(titles.contains(&"Neue Unterseite") && titles.contains(&"Unterseite"), "{titles:?}");
    let (_, history) = server.get_json("p/@workflow").await;
    assert!(history["history"].as_array().unwrap().len() >= 2, "history survives: {history}");
    // Unlocked again.
    let response = server.admin(Method::PATCH, "p").json(&json!({"title": "Direkt"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
}

#[tokio::test]
async fn cancel_removes_the_copy_and_permissions_are_checked() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    server.create("f", json!({"@type": "Document", "id": "doc", "title": "Doc"})).await;
    server.create("f", json!({"@type": "Folder", "id": "box", "title": "Box"})).await;
    server.create("f/box", json!({"@type": "Document", "id": "inside", "title": "Inside"})).await;
    server.user("editor", &["Member"], &[]).await;
    server.share("f/doc", "editor", &["Editor"]).await;
    server.transition("f/doc", "publish").await;

    assert_error(server.anonymous(Method::POST, "f/doc/@workingcopy").send().await.unwrap(), 401, "unauthorized").await;
    let response = server.as_user("editor", Method::POST, "f/doc/@workingcopy").send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
    let response = server.admin(Method::POST, "@workingcopy").send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
    let (_, none) = server.get_json("f/doc/@workingcopy").await;
    assert_eq!(none, json!({"working_copy": null, "working_copy_of": null}));
    assert_error(server.admin(Method::PATCH, "f/doc/@workingcopy").send().await.unwrap(), 404, "not_found").await;

    let copy = check_out(&server, "f/doc").await;
    let response = server.admin(Method::POST, &format!("{copy}/@workingcopy")).send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
    let response = server.as_user("editor", Method::PATCH, "f/doc/@workingcopy").send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
    // Cancelling from the baseline removes the copy and unlocks.
    assert_eq!(server.admin(Method::DELETE, "f/doc/@workingcopy").send().await.unwrap().status(), 204);
    assert_error(server.admin(Method::GET, &copy).send().await.unwrap(), 404, "not_found").await;
    let response = server.admin(Method::PATCH, "f/doc").json(&json!({"title": "Again"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, lock) = server.get_json("f/doc/@lock").await;
    assert_eq!(lock, json!({"locked": false, "stealable": true}), "the check-out's lock went with the copy");

    // A folder's working copy lists its own children first, then the baseline's.
    let copy = check_out(&server, "f/box").await;
    server.create(&copy, json!({"@type": "Document", "id": "draft", "title": "Draft"})).await;
    let (_, wc) = server.get_json(&copy).await;
    let titles: Vec<&str> = wc["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, vec!["Draft", "Inside"]);
    assert_eq!(wc["items_total"], 2);
}
