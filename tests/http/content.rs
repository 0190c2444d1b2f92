//! Content CRUD: create, read, update, replace, delete, ids and allowed types.

use crate::support::{TestServer, assert_error, read, site_path};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn create_returns_201_location_and_the_full_serialization() {
    let server = TestServer::start().await;
    let response = server
        .admin(Method::POST, "")
        .json(&json!({"@type": "Document", "title": "Größere Übungen für Straßen", "description": "Kurz",
                      "text": "<p>Hallo <b>Welt</b></p>", "subjects": ["a", "b", "a"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let (_, doc) = read(response).await;
    assert_eq!(location, server.url("groessere-uebungen-fuer-strassen"));
    assert_eq!(doc["@id"], location.as_str());
    for key in [
        "@id",
        "@type",
        "@components",
        "UID",
        "id",
        "title",
        "description",
        "parent",
        "created",
        "modified",
        "review_state",
        "is_folderish",
        "layout",
        "text",
        "subjects",
        "exclude_from_nav",
        "nav_title",
        "effective",
        "expires",
    ] {
        assert!(doc.get(key).is_some(), "missing key {key} in {doc}");
    }
    assert_eq!(doc["@type"], "Document");
    assert_eq!(doc["id"], "groessere-uebungen-fuer-strassen");
    assert_eq!(doc["review_state"], "private");
    assert_eq!(doc["is_folderish"], true, "pages are folderish, as in Plone 6's Volto distribution");
    assert_eq!(doc["layout"], "document_view");
    assert_eq!(doc["subjects"], json!(["a", "b"]));
    assert_eq!(doc["text"]["data"], "<p>Hallo <b>Welt</b></p>");
    assert_eq!(doc["text"]["content-type"], "text/html");
    assert_eq!(doc["parent"]["@id"], server.site.as_str());
    assert_eq!(doc["parent"]["@type"], "Plone Site");
    let uid = doc["UID"].as_str().unwrap();
    assert!(uid.len() == 32 && uid.chars().all(|c| c.is_ascii_hexdigit()), "{uid}");
    assert!(doc["created"].as_str().unwrap().ends_with("+00:00"));
    let (status, again) = server.get_json("groessere-uebungen-fuer-strassen").await;
    assert_eq!(status, 200);
    assert_eq!(again["UID"], doc["UID"]);
}

#[tokio::test]
async fn clashing_titles_get_numbered_ids() {
    let server = TestServer::start().await;
    let ids: Vec<String> = futures_ids(&server, 3).await;
    assert_eq!(ids, vec!["report", "report-1", "report-2"]);
}

async fn futures_ids(server: &TestServer, n: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..n {
        let doc = server.create("", json!({"@type": "Document", "title": "Report"})).await;
        ids.push(doc["id"].as_str().unwrap().to_owned());
    }
    ids
}

#[tokio::test]
async fn explicit_ids_are_validated_and_must_be_free() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "A", "id": "taken"})).await;
    let response = server
        .admin(Method::POST, "")
        .json(&json!({"@type": "Document", "title": "B", "id": "taken"}))
        .send()
        .await
        .unwrap();
    assert_error(response, 409, "conflict").await;
    for bad in ["@view", "has space", "x".repeat(301).as_str(), "ümlaut"] {
        let response = server
            .admin(Method::POST, "")
            .json(&json!({"@type": "Document", "title": "B", "id": bad}))
            .send()
            .await
            .unwrap();
        let body = assert_error(response, 400, "invalid_parameter").await;
        assert_eq!(body["errors"][0]["field"], "id", "{body}");
    }
}

#[tokio::test]
async fn types_are_checked_against_the_container() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Link", "title": "Link", "remoteUrl": "https://example.org/"})).await;
    let response =
        server.admin(Method::POST, "link").json(&json!({"@type": "Document", "title": "Inner"})).send().await.unwrap();
    assert_error(response, 405, "method_not_allowed").await;
    let response = server.admin(Method::POST, "").json(&json!({"@type": "Nope", "title": "x"})).send().await.unwrap();
    let body = assert_error(response, 400, "unknown_type").await;
    assert!(body["message"].as_str().unwrap().contains("Nope"));
    let response =
        server.admin(Method::POST, "").json(&json!({"@type": "Plone Site", "title": "x"})).send().await.unwrap();
    let body = assert_error(response, 400, "disallowed_type").await;
    assert!(body["message"].as_str().unwrap().contains("Plone Site"), "{body}");
    let response = server.admin(Method::POST, "").json(&json!({"title": "no type"})).send().await.unwrap();
    assert_error(response, 400, "missing_property").await;
}

#[tokio::test]
async fn patch_updates_only_what_is_sent() {
    let server = TestServer::start().await;
    let doc = server.create("", json!({"@type": "Document", "title": "Old", "description": "keep"})).await;
    let response = server.admin(Method::PATCH, "old").json(&json!({"title": "New"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert!(response.bytes().await.unwrap().is_empty());
    let (_, after) = server.get_json("old").await;
    assert_eq!(after["title"], "New");
    assert_eq!(after["description"], "keep");
    assert_eq!(after["UID"], doc["UID"]);
    let response = server
        .admin(Method::PATCH, "old")
        .header("Prefer", "return=representation")
        .json(&json!({"description": "changed"}))
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_eq!(status, 200);
    assert_eq!(body["description"], "changed");
    assert_eq!(body["title"], "New");
}

#[tokio::test]
async fn patch_with_id_renames() {
    let server = TestServer::start().await;
    let doc = server.create("", json!({"@type": "Document", "title": "Before"})).await;
    let response =
        server.admin(Method::PATCH, "before").json(&json!({"id": "after", "title": "After"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (status, renamed) = server.get_json("after").await;
    assert_eq!(status, 200);
    assert_eq!(renamed["UID"], doc["UID"]);
    assert_eq!(renamed["title"], "After");
}

#[tokio::test]
async fn required_fields_cannot_be_nulled_and_unknown_fields_are_refused() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "T"})).await;
    let response = server.admin(Method::PATCH, "t").json(&json!({"title": null})).send().await.unwrap();
    let body = assert_error(response, 400, "validation_failed").await;
    assert_eq!(body["errors"][0]["field"], "title");
    let response = server
        .admin(Method::PATCH, "t")
        .json(&json!({"colour": "red", "exclude_from_nav": "yes"}))
        .send()
        .await
        .unwrap();
    let body = assert_error(response, 400, "validation_failed").await;
    let fields: Vec<&str> = body["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
    assert_eq!(fields, vec!["colour", "exclude_from_nav"]);
    let (_, unchanged) = server.get_json("t").await;
    assert_eq!(unchanged["title"], "T");
}

#[tokio::test]
async fn put_replaces_every_field() {
    let server = TestServer::start().await;
    server
        .create(
            "",
            json!({"@type": "Document", "title": "T", "description": "d", "subjects": ["x"], "exclude_from_nav": true}),
        )
        .await;
    let response = server.admin(Method::PUT, "t").json(&json!({"title": "Only title"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, doc) = server.get_json("t").await;
    assert_eq!(doc["title"], "Only title");
    assert_eq!(doc["description"], "");
    assert_eq!(doc["subjects"], json!([]), "an empty list, as Plone sends it");
    assert_eq!(doc["exclude_from_nav"], false);
    let response = server.admin(Method::PUT, "t").json(&json!({"description": "no title"})).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    let response = server.admin(Method::PUT, "t").json(&json!({"@type": "Folder", "title": "x"})).send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;
}

#[tokio::test]
async fn delete_removes_the_subtree() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "F"})).await;
    server.create("f", json!({"@type": "Document", "title": "Inner"})).await;
    let response = server.admin(Method::DELETE, "f").send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(server.get_json("f").await.0, 404);
    assert_eq!(server.get_json("f/inner").await.0, 404);
    let response = server.admin(Method::DELETE, "").send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
}

#[tokio::test]
async fn rich_text_is_sanitised() {
    let server = TestServer::start().await;
    let doc = server
        .create("", json!({"@type": "Document", "title": "X", "text": {"data": "<p onclick=\"evil()\">Hi<script>alert(1)</script></p>", "content-type": "text/html"}}))
        .await;
    let html = doc["text"]["data"].as_str().unwrap();
    assert!(!html.contains("script") && !html.contains("onclick"), "{html}");
    assert!(html.contains("Hi"));
}

/// Deeply nested markup is refused before it is parsed (parsing it would cost minutes), with
/// the field named; the same text nested a little is fine.
#[tokio::test]
async fn rich_text_nesting_is_bounded() {
    let server = TestServer::start().await;
    let deep = "<ul>".repeat(120_000);
    let body = json!({"@type": "Document", "title": "X", "text": {"data": deep, "content-type": "text/html"}});
    let response = server.admin(Method::POST, "").json(&body).send().await.unwrap();
    let error = assert_error(response, 400, "validation_failed").await;
    assert_eq!(error["errors"][0]["field"], "text");
    assert!(error["errors"][0]["message"].as_str().unwrap().contains("at most 100"), "{error}");
    let fine = format!("{}deep enough{}", "<div>".repeat(100), "</div>".repeat(100));
    let doc = server.create("", json!({"@type": "Document", "title": "Y", "text": {"data": fine}})).await;
    assert!(doc["text"]["data"].as_str().unwrap().contains("deep enough"));
}

#[tokio::test]
async fn links_refuse_script_urls() {
    let server = TestServer::start().await;
    let link = server.create("", json!({"@type": "Link", "title": "L", "remoteUrl": "https://example.org/x"})).await;
    assert_eq!(link["remoteUrl"], "https://example.org/x");
    let response = server
        .admin(Method::POST, "")
        .json(&json!({"@type": "Link", "title": "L", "remoteUrl": "javascript:alert(1)"}))
        .send()
        .await
        .unwrap();
    let body = assert_error(response, 400, "validation_failed").await;
    assert_eq!(body["errors"][0]["field"], "remoteUrl");
}

#[tokio::test]
async fn setting_the_uid_is_allowed_for_managers() {
    let server = TestServer::start().await;
    let uid = "0123456789abcdef0123456789abcdef";
    let doc = server.create("", json!({"@type": "Document", "title": "U", "UID": uid})).await;
    assert_eq!(doc["UID"], uid);
    assert_eq!(site_path(&doc["@id"]), "u");
}

#[tokio::test]
async fn anonymous_may_read_but_not_write_and_wrong_passwords_are_401() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "Pub"})).await;
    let (status, _) = read(server.anonymous(Method::GET, "pub").send().await.unwrap()).await;
    assert_eq!(status, 401, "private content needs a login");
    server.admin(Method::POST, "pub/@workflow/publish").send().await.unwrap();
    let (status, _) = read(server.anonymous(Method::GET, "pub").send().await.unwrap()).await;
    assert_eq!(status, 200);
    let response = server.anonymous(Method::PATCH, "pub").json(&json!({"title": "x"})).send().await.unwrap();
    assert!(response.headers().contains_key("www-authenticate"));
    assert_error(response, 401, "unauthorized").await;
    let response = server.anonymous(Method::GET, "pub").basic_auth("admin", Some("wrong")).send().await.unwrap();
    assert_error(response, 401, "unauthorized").await;
}

/// A body is taken only as the media types its route declares: JSON sent as `text/plain` (what
/// a cross-site form can post with a browser's cached credentials) creates nothing.
#[tokio::test]
async fn bodies_of_other_media_types_are_refused() {
    let server = TestServer::start().await;
    let body = json!({"@type": "Document", "id": "sneaky", "title": "X"}).to_string();
    for media in [None, Some("text/plain"), Some("application/x-www-form-urlencoded")] {
        let mut request = server.admin(Method::POST, "").body(body.clone());
        if let Some(media) = media {
            request = request.header("Content-Type", media);
        }
        let error = assert_error(request.send().await.unwrap(), 415, "unsupported_media_type").await;
        assert!(error["message"].as_str().unwrap().contains("application/json"), "{error}");
    }
    assert_eq!(server.get_json("sneaky").await.0, 404);
    let request = server.admin(Method::POST, "").header("Content-Type", "application/json; charset=utf-8");
    assert_eq!(request.body(body).send().await.unwrap().status(), 201);
}

/// A key named twice decides nothing and NUL characters are not stored: both are 400.
#[tokio::test]
async fn repeated_keys_and_nul_characters_are_refused() {
    let server = TestServer::start().await;
    let twice = r#"{"@type": "Document", "id": "twice", "title": "A", "@type": "Folder"}"#;
    let request = server.admin(Method::POST, "").header("Content-Type", "application/json").body(twice);
    let error = assert_error(request.send().await.unwrap(), 400, "invalid_json").await;
    assert!(error["message"].as_str().unwrap().contains("'@type' appears twice"), "{error}");
    let nul = json!({"@type": "Document", "id": "nul", "title": "a\u{0}b"});
    let error =
        assert_error(server.admin(Method::POST, "").json(&nul).send().await.unwrap(), 400, "invalid_json").await;
    assert!(error["message"].as_str().unwrap().contains("NUL"), "{error}");
    assert_eq!(server.get_json("twice").await.0, 404);
    assert_eq!(server.get_json("nul").await.0, 404);
}

#[tokio::test]
async fn ids_that_name_a_view_or_route_are_refused() {
    let server = TestServer::start().await;
    server.user("carl", &["Contributor"], &[]).await;
    for id in ["login", "resolveuid", "view", "openapi.json", "healthz"] {
        let body = json!({"@type": "Document", "title": "Shadow", "id": id});
        let response = server.as_user("carl", Method::POST, "").json(&body).send().await.unwrap();
        let error = assert_error(response, 400, "invalid_parameter").await;
        assert!(error["message"].as_str().unwrap().contains("view or route"), "{id}: {error}");
    }
    // A plugin's views count as core's do, where they answer.
    if cfg!(feature = "versioning") {
        server.create("", json!({"@type": "Document", "title": "Page", "id": "page"})).await;
        let body = json!({"@type": "Document", "title": "Shadow", "id": "list_versions"});
        let response = server.admin(Method::POST, "page").json(&body).send().await.unwrap();
        assert_error(response, 400, "invalid_parameter").await;
    }
    // A title that makes such an id gets a free one instead, and the views still answer.
    let created = server.create("", json!({"@type": "Document", "title": "Login"})).await;
    assert_eq!(created["id"], "login-1");
    let form = server.raw(Method::GET, &server.url("login")).send().await.unwrap();
    assert_eq!(form.status(), 200);
    assert!(form.text().await.unwrap().contains("name=\"password\""));
    // Renaming into one is refused too; moving one in gets a suffix.
    let rename = server.admin(Method::PATCH, "login-1").json(&json!({"id": "resolveuid"})).send().await.unwrap();
    assert_error(rename, 400, "invalid_parameter").await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    server.create("f", json!({"@type": "Document", "title": "Login", "id": "login"})).await;
    let moved = server.admin(Method::POST, "@move").json(&json!({"source": "/Plone/f/login"})).send().await.unwrap();
    let (status, body) = read(moved).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body[0]["target"], server.url("login-2").as_str());
}
