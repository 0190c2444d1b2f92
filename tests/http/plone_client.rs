//! What Plone's own clients (@plone/client 2.0, Volto 18) rely on beyond the documented
//! examples: the ids they derive from titles, empty PATCH bodies, references by `@id`, URLs
//! echoed with `++api++`, login names that change, and tokens that outlive a restart.

use crate::support::{ADMIN_PASSWORD, TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn ids_from_long_titles_are_cut_at_255_characters_as_plone_cuts_them() {
    let server = TestServer::start().await;
    let word = "Verwaltungsgebaeude ";
    let title = word.repeat(20); // 400 characters
    let created = server.create("", json!({"@type": "Document", "title": title})).await;
    let id = created["id"].as_str().unwrap();
    // Plone's URL normaliser crops at 255 characters, at a word boundary.
    assert_eq!(id, "verwaltungsgebaeude-".repeat(12).trim_end_matches('-'), "{} characters", id.len());
    assert_eq!(server.get_json(id).await.0, 200, "the client finds the object where it expects it");
}

#[tokio::test]
async fn a_patch_without_a_body_changes_nothing_as_a_lock_refresh_sends_it() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "page", "title": "Page"})).await;
    let (_, lock) = read(server.admin(Method::POST, "page/@lock").send().await.unwrap()).await;
    let token = lock["token"].as_str().unwrap();
    let response = server.admin(Method::PATCH, "page").header("Lock-Token", token).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, page) = server.get_json("page").await;
    assert_eq!((&page["title"], &page["lock"]["locked"]), (&json!("Page"), &json!(true)));
    // A PUT replaces the object, so it still needs one.
    let response = server.admin(Method::PUT, "page").header("Lock-Token", token).send().await.unwrap();
    assert_error(response, 400, "invalid_json").await;
}

#[tokio::test]
async fn a_related_item_with_an_empty_uid_is_found_by_its_id() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "page-1", "title": "One"})).await;
    let two = server.create("", json!({"@type": "Document", "id": "page-2", "title": "Two"})).await;
    // What Volto's object browser sends for an object it found by path.
    let body = json!({"relatedItems": [{"@id": "/page-2", "UID": "", "title": "Two"}]});
    let response = server.admin(Method::PATCH, "page-1").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, page) = server.get_json("page-1").await;
    assert_eq!(page["relatedItems"][0]["UID"], two["UID"]);
    let body = json!({"relatedItems": [{"@id": "", "UID": ""}]});
    let response = server.admin(Method::PATCH, "page-1").json(&body).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
}

#[tokio::test]
async fn urls_plone_echoes_from_the_request_keep_api() {
    let server = TestServer::start().await;
    let get = |path: &str| {
        let url = format!("{}/++api++/{path}", server.site);
        server.raw(Method::GET, &url).basic_auth("admin", Some(ADMIN_PASSWORD)).send()
    };
    let (status, registry) = read(get("@registry").await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(registry["@id"], format!("{}/++api++/@registry", server.site));
    let name = "plone.app.vocabularies.ReviewStates";
    let (status, vocabulary) = read(get(&format!("@vocabularies/{name}")).await.unwrap()).await;
    assert_eq!(status, 200, "{vocabulary}");
    assert_eq!(vocabulary["@id"], format!("{}/++api++/@vocabularies/{name}", server.site));
    let query = "%7B%22query%22%3A%5B%5D%7D";
    let (status, results) = read(get(&format!("@querystring-search?query={query}")).await.unwrap()).await;
    assert_eq!(status, 200, "{results}");
    assert_eq!(results["@id"], format!("{}/++api++/@querystring-search?query={query}", server.site));
    // Objects keep their own URLs.
    let (_, site) = read(get("").await.unwrap()).await;
    assert_eq!(site["@id"], server.site);
}

#[tokio::test]
async fn a_user_manager_changes_a_login_name_and_the_id_stays() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    server.user("bert", &["Member"], &[]).await;
    let rename = |as_user: &str, name: &str| {
        let request = server.anonymous(Method::PATCH, "@users/anna").json(&json!({"username": name}));
        let password = if as_user == "admin" { ADMIN_PASSWORD.to_owned() } else { format!("secret-{as_user}") };
        request.basic_auth(as_user, Some(password)).send()
    };
    assert_error(rename("anna", "anna.b").await.unwrap(), 403, "forbidden").await;
    assert_error(rename("admin", "bert").await.unwrap(), 400, "validation_failed").await;
    assert_eq!(rename("admin", "anna").await.unwrap().status(), 204, "the unchanged name, as Volto's form sends it");
    assert_eq!(rename("admin", "anna.b").await.unwrap().status(), 204);
    let (_, anna) = server.get_json("@users/anna").await;
    assert_eq!((&anna["id"], &anna["username"]), (&json!("anna"), &json!("anna.b")));
    let login = |name: &str| {
        server.anonymous(Method::POST, "@login").json(&json!({"login": name, "password": "secret-anna"})).send()
    };
    assert_eq!(login("anna.b").await.unwrap().status(), 200);
    assert_eq!(login("anna").await.unwrap().status(), 401, "the old login name is gone");
}

#[tokio::test]
async fn a_restart_with_the_same_admin_password_keeps_the_admins_tokens() {
    let first = TestServer::start().await;
    let (_, answer) = read(
        first
            .anonymous(Method::POST, "@login")
            .json(&json!({"login": "admin", "password": ADMIN_PASSWORD}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let token = answer["token"].as_str().unwrap().to_owned();
    let database_url = first.database_url.clone();
    let again = TestServer::start_with(|c| c.database_url = database_url.clone()).await;
    let with_token = |server: &TestServer| server.anonymous(Method::GET, "@users/admin").bearer_auth(&token).send();
    assert_eq!(with_token(&again).await.unwrap().status(), 200, "the token still works");
    let changed = TestServer::start_with(|c| {
        c.database_url = database_url.clone();
        c.admin_password = Some("another-secret".into());
    })
    .await;
    assert_eq!(with_token(&changed).await.unwrap().status(), 401, "a new password ends the tokens");
}
