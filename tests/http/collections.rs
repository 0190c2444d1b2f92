//! Plone's Collection: a stored querystring query whose results, as the caller may see them,
//! are its items, sorted and limited as it says.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

fn titles(body: &Value) -> Vec<&str> {
    body["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_collection_lists_what_its_query_finds_as_the_caller_may_see_it() {
    let server = TestServer::start().await;
    for title in ["Beta", "Alpha", "Gamma"] {
        server.create("", json!({"@type": "Document", "title": title})).await;
    }
    server.create("", json!({"@type": "News Item", "title": "Nachricht"})).await;
    server.transition("alpha", "publish").await;
    server.transition("gamma", "publish").await;
    let query = json!([{"i": "portal_type", "o": "plone.app.querystring.operation.selection.any", "v": ["Document"]}]);
    let body = json!({"@type": "Collection", "id": "pages", "title": "Pages", "query": query,
                      "sort_on": "sortable_title", "sort_reversed": true});
    let created = server.create("", body).await;
    assert_eq!(created["query"], query, "{created}");
    assert_eq!((created["limit"].as_i64(), created["item_count"].as_i64()), (Some(1000), Some(30)));
    server.transition("pages", "publish").await;

    let (status, pages) = server.get_json("pages").await;
    assert_eq!(status, 200, "{pages}");
    assert_eq!(titles(&pages), vec!["Gamma", "Beta", "Alpha"], "Documents only, reversed by title");
    assert_eq!(pages["items_total"], 3);
    let (_, anonymous) = read(server.anonymous(Method::GET, "pages").send().await.unwrap()).await;
    assert_eq!(titles(&anonymous), vec!["Gamma", "Alpha"], "only what the caller may see");

    let limited = json!({"limit": 2, "sort_reversed": false});
    assert_eq!(server.admin(Method::PATCH, "pages").json(&limited).send().await.unwrap().status(), 204);
    let (_, pages) = server.get_json("pages?b_size=1").await;
    assert_eq!((titles(&pages), &pages["items_total"]), (vec!["Alpha"], &json!(2)), "limited to 2, one per page");
    assert!(pages["batching"]["next"].as_str().unwrap().contains("b_start=1"));
    let (_, full) = server.get_json("pages?fullobjects=1").await;
    assert_eq!(full["items"][0]["@components"]["breadcrumbs"]["@id"], format!("{}/@breadcrumbs", server.url("alpha")));

    for bad in [json!("portal_type"), json!([{"i": "portal_type"}]), json!([{"i": "x", "o": "y", "v": {"nested": 1}}])]
    {
        let response = server.admin(Method::PATCH, "pages").json(&json!({"query": bad})).send().await.unwrap();
        assert_error(response, 400, "validation_failed").await;
    }
    let unknown = json!({"query": [{"i": "portal_type", "o": "plone.app.querystring.operation.no.such", "v": "x"}]});
    assert_eq!(server.admin(Method::PATCH, "pages").json(&unknown).send().await.unwrap().status(), 204);
    let (status, body) = server.get_json("pages").await;
    assert_eq!(status, 400, "an operation no one knows is a clear error when the query runs: {body}");
}

/// A collection's table columns are terms of the catalog's metadata columns, as plone.restapi
/// answers a list of choices; a write takes tokens or the terms a GET answered, nothing else.
#[tokio::test]
async fn a_collections_table_columns_are_metadata_terms() {
    let server = TestServer::start().await;
    let made = server.create("", json!({"@type": "Collection", "id": "tabelle", "title": "Tabelle"})).await;
    let columns = &made["customViewFields"];
    assert_eq!(columns[3], json!({"title": "Last modified", "token": "ModificationDate"}), "{columns}");
    assert_eq!(columns.as_array().map(Vec::len), Some(4), "Plone's default columns: {columns}");

    let mixed = json!({"customViewFields": ["Subject", {"title": "Created on", "token": "CreationDate"}]});
    assert_eq!(server.admin(Method::PATCH, "tabelle").json(&mixed).send().await.unwrap().status(), 204);
    let (_, tabelle) = server.get_json("tabelle").await;
    assert_eq!(
        tabelle["customViewFields"],
        json!([{"title": "Tags", "token": "Subject"}, {"title": "Created on", "token": "CreationDate"}])
    );
    let unknown = json!({"customViewFields": ["Passwort"]});
    let response = server.admin(Method::PATCH, "tabelle").json(&unknown).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;

    for name in ["plone.app.vocabularies.MetadataFields", "plone.app.contenttypes.metadatafields"] {
        let (status, terms) = server.get_json(&format!("@vocabularies/{name}?token=ModificationDate")).await;
        assert_eq!((status, &terms["items"][0]["title"]), (200, &json!("Last modified")), "{name}: {terms}");
    }
    let (_, schema) = server.get_json("@types/Collection").await;
    let vocabulary = &schema["properties"]["customViewFields"]["items"]["vocabulary"]["@id"];
    assert!(vocabulary.as_str().is_some_and(|v| v.ends_with("/@vocabularies/plone.app.vocabularies.MetadataFields")));
}
