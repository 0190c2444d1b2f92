//! `POST`/`DELETE @aliases`: URL management by editors, on an object and on the site root
//! (JSON and Plone's CSV upload); aliases redirect, never hide content, never lead into the trash.

use crate::support::{TestServer, assert_error};
use reqwest::Method;
use serde_json::{Value, json};

fn location(response: &reqwest::Response) -> String {
    response.headers()["location"].to_str().unwrap().to_owned()
}

fn paths(listing: &Value) -> Vec<&str> {
    listing["items"].as_array().unwrap().iter().map(|i| i["path"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn an_object_gets_aliases_that_redirect_and_loses_them() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let body = json!({"items": [{"path": "/kurz"}, {"path": "/alt/seite"}]});
    let response = server.admin(Method::POST, "seite/@aliases").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, own) = server.get_json("seite/@aliases").await;
    assert_eq!(paths(&own), ["/alt/seite", "/kurz"]);
    let response = server.admin(Method::GET, "kurz").send().await.unwrap();
    assert_eq!((response.status().as_u16(), location(&response)), (302, server.url("seite")));
    let (_, site) = server.get_json("@aliases").await;
    assert_eq!(
        site["items"][1],
        json!({"path": "/kurz", "redirect-to": "/seite", "manual": true, "datetime": site["items"][1]["datetime"]})
    );

    let response = server.admin(Method::DELETE, "seite/@aliases").json(&json!({"items": [{"path": "/kurz"}]})).send();
    assert_eq!(response.await.unwrap().status(), 204);
    assert_eq!(server.admin(Method::GET, "kurz").send().await.unwrap().status(), 404);
    let response = server.admin(Method::DELETE, "seite/@aliases").json(&json!({"items": [{"path": "/kurz"}]})).send();
    assert_error(response.await.unwrap(), 400, "validation_failed").await;
}

#[tokio::test]
async fn aliases_never_hide_content_and_bad_ones_change_nothing() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    server.create("", json!({"@type": "Document", "id": "andere", "title": "Andere"})).await;
    for items in [
        json!([{"path": "/neu"}, {"path": "/andere"}]),
        json!([{"path": "relativ"}]),
        json!([{"path": "/a/../b"}]),
        json!([{"path": "/seite"}]),
    ] {
        let response =
            server.admin(Method::POST, "seite/@aliases").json(&json!({"items": items})).send().await.unwrap();
        assert_error(response, 400, "validation_failed").await;
    }
    let (_, own) = server.get_json("seite/@aliases").await;
    assert_eq!(own["items_total"], 0, "all or nothing: {own}");
    server.user("leser", &["Member"], &[]).await;
    let response = server.as_user("leser", Method::POST, "seite/@aliases").json(&json!({"items": ["/x"]})).send();
    assert_eq!(response.await.unwrap().status(), 403, "only editors of the object");
}

#[tokio::test]
async fn the_site_root_takes_targets_and_csv_files_but_not_the_trash() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "ordner", "title": "Ordner"})).await;
    server.create("ordner", json!({"@type": "Document", "id": "ziel", "title": "Ziel"})).await;
    server.create("", json!({"@type": "Document", "id": "weg", "title": "Weg"})).await;
    let body = json!({"items": [{"path": "/z", "redirect-to": "/ordner/ziel", "datetime": "2026-01-02T03:04:05Z"}]});
    let response = server.admin(Method::POST, "@aliases").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, site) = server.get_json("@aliases").await;
    assert_eq!(site["items"][0]["datetime"], "2026-01-02T03:04:05Z");

    let csv = "/c1,/ordner/ziel\n/c2;/ordner\n";
    // Volto's URL management uploads the file as a multipart form.
    let form = format!(
        "--B0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"aliases.csv\"\r\n\
         Content-Type: text/csv\r\n\r\n{csv}\r\n--B0undary--\r\n"
    );
    let request =
        server.admin(Method::POST, "@aliases").header("Content-Type", "multipart/form-data; boundary=B0undary");
    let response = request.body(form).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let response = server.admin(Method::GET, "c2").send().await.unwrap();
    assert_eq!(location(&response), server.url("ordner"));
    let response = server.admin(Method::POST, "@aliases").header("Content-Type", "text/csv").body("/c3\n").send();
    let error = assert_error(response.await.unwrap(), 400, "validation_failed").await;
    assert!(error.to_string().contains("Line 1"), "{error}");

    assert_eq!(server.admin(Method::POST, "weg/@trash").send().await.unwrap().status(), 204);
    let body = json!({"items": [{"path": "/w", "redirect-to": "/weg"}]});
    let response = server.admin(Method::POST, "@aliases").json(&body).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    let body = json!({"items": [{"path": "/ohne"}]});
    assert_error(server.admin(Method::POST, "@aliases").json(&body).send().await.unwrap(), 400, "validation_failed")
        .await;
    let response =
        server.admin(Method::DELETE, "@aliases").json(&json!({"items": [{"path": "/c1"}, {"path": "/z"}]})).send();
    assert_eq!(response.await.unwrap().status(), 204, "the root removes any alias");
    let (_, site) = server.get_json("@aliases").await;
    assert_eq!(paths(&site), ["/c2"]);
}

/// Every entry says where it leads, since when and how it was made, on an object as on the
/// site root, and `query` narrows the list as Plone's redirects panel does.
#[tokio::test]
async fn aliases_are_listed_with_their_target_and_narrowed_by_a_query() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let body = json!({"items": [{"path": "/fizzbuzz"}, {"path": "/alt/fizz"}, {"path": "/a_b"}]});
    let response = server.admin(Method::POST, "seite/@aliases").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, own) = server.get_json("seite/@aliases").await;
    assert_eq!(own["items_total"], 3, "{own}");
    let entry = &own["items"][2];
    assert_eq!(
        (&entry["path"], &entry["redirect-to"], &entry["manual"]),
        (&json!("/fizzbuzz"), &json!("/seite"), &json!(true))
    );
    assert!(entry["datetime"].as_str().is_some_and(|d| d.starts_with("20")), "{entry}");

    for (query, expected) in [
        ("/fizz", vec!["/fizzbuzz"]),
        ("fizz", vec!["/alt/fizz", "/fizzbuzz"]),
        // LIKE's wildcards are taken as they are.
        ("_", vec!["/a_b"]),
        ("%25", vec![]),
        ("/nichts", vec![]),
    ] {
        let (_, site) = server.get_json(&format!("@aliases?query={query}")).await;
        assert_eq!(paths(&site), expected, "query {query}: {site}");
        assert_eq!(site["items_total"], json!(expected.len()));
        let (_, own) = server.get_json(&format!("seite/@aliases?query={query}")).await;
        assert_eq!(paths(&own), expected, "query {query} on the object");
    }
}

/// `Accept: text/csv` exports every alias as Plone's redirects panel does, and the file reads
/// back in through `POST @aliases`, Plone's header line and date format included.
#[tokio::test]
async fn aliases_export_as_csv_and_read_back() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let items: Vec<Value> = (0..30).map(|i| json!({"path": format!("/alt-{i:02}")})).collect();
    let response = server.admin(Method::POST, "seite/@aliases").json(&json!({"items": items})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let export =
        server.raw(Method::GET, &server.url("@aliases")).basic_auth("admin", Some(crate::support::ADMIN_PASSWORD));
    let response = export.header("Accept", "text/csv").send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let file = response.text().await.unwrap();
    let lines: Vec<&str> = file.lines().collect();
    assert_eq!(lines[0], "old path,new path,datetime,manual");
    assert_eq!(lines.len(), 31, "every alias, not a page of them");
    assert!(lines[1].starts_with("/alt-00,/seite,20") && lines[1].ends_with(" GMT+0,True"), "{}", lines[1]);

    let gone = json!({"items": (0..30).map(|i| json!({"path": format!("/alt-{i:02}")})).collect::<Vec<_>>()});
    let response = server.admin(Method::DELETE, "@aliases").json(&gone).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let response = server.admin(Method::POST, "@aliases").header("Content-Type", "text/csv").body(file).send().await;
    assert_eq!(response.unwrap().status(), 204);
    let (_, site) = server.get_json("@aliases?b_size=100").await;
    assert_eq!(site["items_total"], 30, "{site}");
}
