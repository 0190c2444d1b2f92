//! Summaries carry Plone 6's default summary metadata, and `metadata_fields=_all` every
//! catalog column Plone has, with the same names and types.

use crate::images::png;
use crate::support::TestServer;
use base64::Engine;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The keys of a Plone 6.2 summary of a page (`@search?portal_type=Document`).
const PLONE_SUMMARY: [&str; 16] = [
    "@id",
    "@type",
    "description",
    "effective",
    "end",
    "getObjSize",
    "getRemoteUrl",
    "head_title",
    "image_field",
    "image_scales",
    "mime_type",
    "nav_title",
    "review_state",
    "start",
    "title",
    "type_title",
];

async fn content(server: &TestServer) {
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite", "nav_title": "Kurz"})).await;
    let data = base64::engine::general_purpose::STANDARD.encode(vec![b'x'; 1536]);
    let file = json!({"@type": "File", "id": "datei", "title": "Datei",
                      "file": {"data": data, "encoding": "base64", "filename": "d.txt", "content-type": "text/csv"}});
    server.create("", file).await;
    let image = json!({"@type": "Image", "id": "bild", "title": "Bild",
                       "image": {"data": png(40, 20), "encoding": "base64", "filename": "b.png"}});
    server.create("", image).await;
    server
        .create("", json!({"@type": "Link", "id": "verweis", "title": "Verweis", "remoteUrl": "https://example.org/"}))
        .await;
}

fn item<'a>(listing: &'a Value, id: &str) -> &'a Value {
    let items = listing["items"].as_array().expect("items");
    items.iter().find(|i| i["@id"].as_str().is_some_and(|u| u.ends_with(&format!("/{id}")))).expect(id)
}

#[tokio::test]
async fn summaries_carry_plones_default_metadata() {
    let server = TestServer::start().await;
    content(&server).await;
    let (_, site) = server.get_json("").await;
    let page = item(&site, "seite");
    let keys: BTreeSet<&str> = page.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, PLONE_SUMMARY.into_iter().collect(), "{page}");
    assert_eq!(
        (&page["nav_title"], &page["getObjSize"], &page["mime_type"]),
        (&json!("Kurz"), &json!("0 KB"), &json!("text/plain"))
    );
    assert_eq!((&page["image_field"], &page["image_scales"], &page["end"]), (&json!(""), &Value::Null, &Value::Null));

    let file = item(&site, "datei");
    assert_eq!((&file["getObjSize"], &file["mime_type"]), (&json!("1.5 KB"), &json!("text/csv")));
    let link = item(&site, "verweis");
    assert_eq!(link["getRemoteUrl"], "https://example.org/");
    let image = item(&site, "bild");
    assert_eq!(image["image_field"], "image");
    let original = &image["image_scales"]["image"][0];
    assert_eq!(
        (&original["width"], &original["height"], &original["content-type"]),
        (&json!(40), &json!(20), &json!("image/png"))
    );
    let thumb = original["scales"]["thumb"]["download"].as_str().unwrap();
    assert!(thumb.starts_with("@@images/image/thumb"), "relative to the object: {thumb}");
}

#[tokio::test]
async fn all_metadata_lists_every_catalog_column() {
    let server = TestServer::start().await;
    content(&server).await;
    let (_, site) = server.get_json("?metadata_fields=_all").await;
    let page = item(&site, "seite");
    for column in [
        "CreationDate",
        "Creator",
        "Date",
        "Description",
        "EffectiveDate",
        "ExpirationDate",
        "ModificationDate",
        "Subject",
        "Title",
        "Type",
        "UID",
        "author_name",
        "cmf_uid",
        "commentators",
        "created",
        "effective",
        "end",
        "exclude_from_nav",
        "expires",
        "getIcon",
        "getId",
        "getObjSize",
        "getPath",
        "getRemoteUrl",
        "getURL",
        "head_title",
        "id",
        "image_field",
        "image_scales",
        "in_response_to",
        "is_folderish",
        "last_comment_date",
        "listCreators",
        "location",
        "meta_type",
        "mime_type",
        "modified",
        "nav_title",
        "portal_type",
        "review_state",
        "start",
        "sync_uid",
        "total_comments",
    ] {
        assert!(page.get(column).is_some(), "{column} missing: {page}");
    }
    assert_eq!(
        (&page["Type"], &page["meta_type"], &page["ExpirationDate"]),
        (&json!("Page"), &json!("Dexterity Container"), &json!("None"))
    );
    assert_eq!(
        (&page["listCreators"], &page["total_comments"], &page["getIcon"]),
        (&json!(["admin"]), &json!(0), &json!(false))
    );
    assert!(page["CreationDate"].as_str().is_some_and(|d| d.ends_with("+00:00")), "{page}");
}

/// Full-text results are read without the (possibly large) field values, yet carry the same
/// metadata as listings.
#[tokio::test]
async fn full_text_results_carry_the_same_metadata() {
    let server = TestServer::start().await;
    content(&server).await;
    server.settle().await;
    let (_, site) = server.get_json("").await;
    for (query, id) in [("Seite", "seite"), ("Datei", "datei"), ("Bild", "bild")] {
        let (_, found) = server.get_json(&format!("@search?SearchableText={query}")).await;
        let hit = item(&found, id);
        let listed = item(&site, id);
        for key in PLONE_SUMMARY {
            assert_eq!(hit[key], listed[key], "{key} of {id}: {hit}");
        }
    }
}

/// Listings read a short projection of each object's fields; a type whose file lies in a
/// field of another name must still show its size and MIME type.
#[tokio::test]
async fn a_file_in_a_field_of_its_own_name_is_summarized() {
    let server = TestServer::start().await;
    let panel = "@controlpanels/dexterity-types";
    let made = server.admin(reqwest::Method::POST, panel).json(&json!({"title": "Akte"})).send().await.unwrap();
    assert_eq!(made.status(), 201);
    let field = json!({"factory": "File Upload", "title": "Anhang"});
    let added = server.admin(reqwest::Method::POST, "@types/akte").json(&field).send().await.unwrap();
    assert!(added.status().is_success(), "{}", added.status());
    let data = base64::engine::general_purpose::STANDARD.encode(vec![b'x'; 3072]);
    let akte = json!({"@type": "akte", "id": "akte", "title": "Akte",
                      "anhang": {"data": data, "encoding": "base64", "filename": "a.pdf", "content-type": "application/pdf"}});
    server.create("", akte).await;
    let (_, site) = server.get_json("").await;
    let listed = item(&site, "akte");
    assert_eq!(
        (&listed["getObjSize"], &listed["mime_type"]),
        (&json!("3.0 KB"), &json!("application/pdf")),
        "{listed}"
    );
    let (_, found) = server.get_json("@search?SearchableText=Akte").await;
    let hit = item(&found, "akte");
    assert_eq!((&hit["getObjSize"], &hit["mime_type"]), (&json!("3.0 KB"), &json!("application/pdf")), "{hit}");
}
