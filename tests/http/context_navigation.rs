//! `@contextnavigation`: the section around an object, in Plone's navigation portlet shape.

use crate::support::{TestServer, assert_error};
use reqwest::Method;
use serde_json::{Value, json};

fn titles(items: &Value) -> Vec<&str> {
    items.as_array().expect("items").iter().map(|i| i["title"].as_str().unwrap()).collect()
}

/// `about/team/{lead, staff/doc}`, `about/history`, a private draft, and a second section.
async fn site(server: &TestServer) {
    server.create("", json!({"@type": "Folder", "id": "about", "title": "About"})).await;
    server.create("about", json!({"@type": "Folder", "id": "team", "title": "Team"})).await;
    server.create("about/team", json!({"@type": "Document", "id": "lead", "title": "Lead"})).await;
    server.create("about/team", json!({"@type": "Folder", "id": "staff", "title": "Staff"})).await;
    server.create("about/team/staff", json!({"@type": "Document", "id": "doc", "title": "Office hours"})).await;
    server.create("about", json!({"@type": "Document", "id": "history", "title": "History"})).await;
    server.create("", json!({"@type": "Folder", "id": "news", "title": "News"})).await;
    for path in ["about", "about/team", "about/team/lead", "about/team/staff", "about/team/staff/doc", "news"] {
        server.transition(path, "publish").await;
    }
    server.create("about", json!({"@type": "Document", "id": "draft", "title": "Draft"})).await;
}

#[tokio::test]
async fn the_section_tree_marks_the_current_object_and_its_path() {
    let server = TestServer::start().await;
    site(&server).await;
    let (status, nav) = server.get_json("about/team/staff/doc/@contextnavigation").await;
    assert_eq!(status, 200, "{nav}");
    assert_eq!(nav["@id"], Value::from(format!("{}/about/team/staff/doc/@contextnavigation", server.site)));
    assert_eq!(
        (&nav["available"], &nav["title"], &nav["has_custom_name"]),
        (&json!(true), &json!("Navigation"), &json!(false))
    );
    assert_eq!(titles(&nav["items"]), ["Team", "History", "Draft"], "the section's children: {nav}");
    let team = &nav["items"][0];
    assert_eq!(
        (&team["is_in_path"], &team["is_current"], &team["type"]),
        (&json!(true), &json!(false), &json!("folder"))
    );
    assert_eq!(team["normalized_id"], "team");
    assert_eq!(team["href"], Value::from(format!("{}/about/team", server.site)));
    let doc = &team["items"][1]["items"][0];
    assert_eq!(
        (&doc["title"], &doc["is_current"], &doc["type"]),
        (&json!("Office hours"), &json!(true), &json!("document"))
    );

    let (_, anonymous) =
        crate::support::read(server.anonymous(Method::GET, "about/team/@contextnavigation").send().await.unwrap())
            .await;
    assert_eq!(titles(&anonymous["items"]), ["Team"], "private and unpublished items stay hidden: {anonymous}");
}

#[tokio::test]
async fn options_narrow_rename_and_bound_the_tree() {
    let server = TestServer::start().await;
    site(&server).await;
    let query = "expand.contextnavigation.bottomLevel=1&expand.contextnavigation.name=Bereich&expand.contextnavigation.includeTop=true";
    let (_, nav) = server.get_json(&format!("about/team/@contextnavigation?{query}")).await;
    assert_eq!(titles(&nav["items"]), ["About", "Team", "History", "Draft"], "{nav}");
    assert_eq!(nav["items"][1]["items"], json!([]), "one level only");
    assert_eq!((&nav["title"], &nav["has_custom_name"]), (&json!("Bereich"), &json!(true)));

    let link = json!({"@type": "Link", "id": "web", "title": "Web", "remoteUrl": "https://example.org/"});
    server.create("about/team/staff", link).await;
    let (_, current) = server.get_json("about/team/staff/web/@contextnavigation?currentFolderOnly=true").await;
    assert_eq!(titles(&current["items"]), ["Office hours", "Web"], "the link's folder: {current}");
    let (_, own) = server.get_json("about/team/@contextnavigation?currentFolderOnly=true").await;
    assert_eq!(titles(&own["items"]), ["Lead", "Staff"], "a folder's own children: {own}");

    let (_, root) = server.get_json("@contextnavigation").await;
    assert_eq!((&root["available"], &root["items"]), (&json!(false), &json!([])), "above the top level: {root}");

    let response = server.admin(Method::GET, "about/@contextnavigation?expand.contextnavigation.topLevel=x").send();
    assert_error(response.await.unwrap(), 400, "invalid_parameter").await;

    let (_, expanded) = server.get_json("about/team?expand=contextnavigation").await;
    assert_eq!(titles(&expanded["@components"]["contextnavigation"]["items"]), ["Team", "History", "Draft"]);
}

#[tokio::test]
async fn nav_titles_name_the_top_and_its_items() {
    let server = TestServer::start().await;
    let top = json!({"@type": "Folder", "id": "about", "title": "About us", "nav_title": "About"});
    server.create("", top).await;
    server.create("about", json!({"@type": "Document", "id": "team", "title": "Our team", "nav_title": "Team"})).await;
    let (_, nav) = server.get_json("about/team/@contextnavigation?expand.contextnavigation.includeTop=true").await;
    assert_eq!(titles(&nav["items"]), ["About", "Team"], "{nav}");
}
