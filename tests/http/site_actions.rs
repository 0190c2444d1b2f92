//! `@site` (the settings Volto reads on every page) and `@actions` (its toolbar and menus):
//! plone.restapi's shapes, with every action depending on what the caller may do.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};

fn ids(actions: &Value, category: &str) -> Vec<String> {
    actions[category].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn site_settings_come_from_the_site_root_and_the_registry() {
    let server = TestServer::start().await;
    let (status, site) = read(server.anonymous(Method::GET, "@site").send().await.unwrap()).await;
    assert_eq!(status, 200, "{site}");
    assert_eq!(site["@id"], Value::from(format!("{}/@site", server.site)));
    let (_, root) = server.get_json("").await;
    assert_eq!(site["plone.site_title"], root["title"]);
    assert_eq!(site["plone.default_language"], "en");
    assert_eq!(site["plone.portal_timezone"], "UTC");
    assert_eq!(site["plone.site_logo"], Value::Null);
    assert_eq!(site["features"], json!({"filter_aliases_by_date": true, "multilingual": false}));
    assert!(site["plone.allowed_sizes"].as_array().unwrap().contains(&json!("preview 400:65536")));

    let logo = json!({"plone.site_logo": "/Plone/logo.png", "plone.portal_timezone": "Europe/Berlin"});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&logo).send().await.unwrap().status(), 204);
    let (_, site) = read(server.anonymous(Method::GET, "@site").send().await.unwrap()).await;
    assert_eq!(
        (&site["plone.site_logo"], &site["plone.portal_timezone"]),
        (&json!("/Plone/logo.png"), &json!("Europe/Berlin"))
    );
}

#[tokio::test]
async fn actions_offer_only_what_the_caller_may_do() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "ordner", "title": "Ordner"})).await;
    let publish = server.admin(Method::POST, "ordner/@workflow/publish").send().await.unwrap();
    assert!(publish.status().is_success());

    let (status, anonymous) = read(server.anonymous(Method::GET, "ordner/@actions").send().await.unwrap()).await;
    assert_eq!(status, 200, "{anonymous}");
    assert_eq!(ids(&anonymous, "object"), ["view"]);
    assert_eq!(ids(&anonymous, "object_buttons"), ["copy"]);
    assert_eq!(ids(&anonymous, "user"), ["login"]);
    assert_eq!(anonymous["user"][0]["url"], Value::from(format!("{}/login", server.site)));
    assert_eq!(anonymous["portal_tabs"][0]["url"], Value::from(server.site.clone()));
    assert_eq!(ids(&anonymous, "site_actions"), ["sitemap", "contact"]);
    assert_eq!(anonymous["document_actions"], json!([]));

    let (_, admin) = server.get_json("ordner/@actions").await;
    assert_eq!(ids(&admin, "object"), ["view", "edit", "folderContents", "history", "local_roles"]);
    assert_eq!(ids(&admin, "object_buttons"), ["cut", "copy", "delete", "rename", "redirection"]);
    assert_eq!(ids(&admin, "user"), ["preferences", "dashboard", "plone_setup", "logout"]);
    assert_eq!(admin["object"][1]["url"], Value::from(format!("{}/ordner/edit", server.site)));
    // The site root cannot be cut, deleted or renamed.
    let (_, root) = server.get_json("@actions").await;
    assert_eq!(ids(&root, "object_buttons"), ["copy"]);

    let (_, expanded) = server.get_json("ordner?expand=actions").await;
    assert_eq!(expanded["@components"]["actions"], admin, "the component is the endpoint's body");
}
