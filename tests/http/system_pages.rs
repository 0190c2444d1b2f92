//! Site Setup's system pages: `@system`, `@database`, `@addons`, `@upgrade` and
//! `@transactions`, answered for this server and for Managers only.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn system_and_database_describe_this_server() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let (status, system) = server.get_json("@system").await;
    assert_eq!(status, 200, "{system}");
    assert_eq!(system["wcs_backend_version"], env!("CARGO_PKG_VERSION"));
    let restapi: f64 = system["plone_restapi_version"].as_str().unwrap()[..4].parse().unwrap();
    assert!(restapi >= 8.24, "Volto's group-membership panel needs 8.24 or later: {system}");
    let storage = if crate::support::postgres_url().is_some() { "PostgreSQL" } else { "SQLite" };
    assert_eq!((&system["storage"], &system["upgrade"]), (&json!(storage), &json!(false)));
    assert!(system["plugins"].as_array().unwrap().contains(&json!("core")), "{system}");
    let (_, database) = server.get_json("@database").await;
    assert_eq!(database["db_name"], storage);
    assert!(
        database["db_size"].as_i64().unwrap() > 0 && database["database_size"].as_i64().unwrap() >= 2,
        "{database}"
    );
    for path in ["@system", "@database", "@addons", "@upgrade", "@transactions"] {
        let response = server.anonymous(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), 401, "{path} is for Managers");
    }
}

#[tokio::test]
async fn addons_are_the_plugins_and_switch_off_and_on_while_running() {
    let server = TestServer::start().await;
    let (_, addons) = server.get_json("@addons").await;
    let core = addons["items"].as_array().unwrap().iter().find(|a| a["id"] == "core").cloned().unwrap_or_default();
    assert_eq!((&core["is_installed"], &core["@id"]), (&json!(true), &json!(server.url("@addons/core"))));
    let response = server.admin(Method::POST, "@addons/core/uninstall").send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
    let response = server.admin(Method::POST, "@addons/nothing/install").send().await.unwrap();
    assert_error(response, 404, "not_found").await;
    if !cfg!(feature = "navigation") {
        return;
    }
    assert_eq!(server.admin(Method::POST, "@addons/navigation/uninstall").send().await.unwrap().status(), 204);
    assert_eq!(server.admin(Method::GET, "@navigation").send().await.unwrap().status(), 404);
    let (_, site) = server.get_json("").await;
    assert!(site["@components"].get("navigation").is_none(), "{site}");
    let (_, panels) = server.get_json("@controlpanels").await;
    assert!(!panels.to_string().contains("@controlpanels/navigation"), "its panel goes too");
    let (_, addons) = server.get_json("@addons").await;
    let navigation = addons["items"].as_array().unwrap().iter().find(|a| a["id"] == "navigation").cloned();
    assert_eq!(navigation.map(|n| n["is_installed"].clone()), Some(json!(false)));

    // A server started on the same storage keeps it switched off.
    let database_url = server.database_url.clone();
    let again = TestServer::start_with(|config| config.database_url = database_url).await;
    assert_eq!(again.admin(Method::GET, "@navigation").send().await.unwrap().status(), 404);
    drop(again);

    assert_eq!(server.admin(Method::POST, "@addons/navigation/install").send().await.unwrap().status(), 204);
    assert_eq!(server.admin(Method::GET, "@navigation").send().await.unwrap().status(), 200);
}

/// A switched-off plugin's types take no new objects; its existing ones stay.
#[cfg(feature = "easyform")]
#[tokio::test]
async fn a_switched_off_plugins_types_take_no_new_objects() {
    let server = TestServer::start().await;
    let form = json!({"@type": "EasyForm", "id": "formular", "title": "Formular"});
    server.create("", form.clone()).await;
    assert_eq!(server.admin(Method::POST, "@addons/easyform/uninstall").send().await.unwrap().status(), 204);
    let response = server.admin(Method::POST, "").json(&json!({"@type": "EasyForm", "title": "Noch eins"})).send();
    assert_error(response.await.unwrap(), 400, "disallowed_type").await;
    let (status, kept) = server.get_json("formular").await;
    assert_eq!((status, &kept["title"]), (200, &json!("Formular")), "nothing is lost");
    assert!(kept.get("form_fields").is_none(), "its serializer layer is off: {kept}");
}

#[tokio::test]
async fn upgrade_transactions_and_rules_answer_honestly() {
    let server = TestServer::start().await;
    let (_, upgrade) = server.get_json("@upgrade").await;
    assert_eq!(upgrade["upgrade_steps"], json!({}));
    let (status, ran) =
        read(server.admin(Method::POST, "@upgrade").json(&json!({"dry_run": true})).send().await.unwrap()).await;
    assert_eq!((status, &ran["upgraded"]), (200, &json!(false)));

    server.create("", json!({"@type": "Document", "id": "neu", "title": "Neu"})).await;
    let (_, transactions) = server.get_json("@transactions").await;
    let newest = &transactions[0];
    assert_eq!(newest["description"], "added /Plone/neu", "{transactions}");
    assert!(newest["id"].is_string() && newest["time"].is_string());
    let undo = server.admin(Method::PATCH, "@transactions").json(&json!({"transaction_ids": [newest["id"]]})).send();
    let error = assert_error(undo.await.unwrap(), 400, "bad_request").await;
    assert!(error["message"].as_str().unwrap().contains("Undo is not available"));
}
