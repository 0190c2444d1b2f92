//! `@linkintegrity`: what deleting objects would break, from relations and from links in text.

use crate::support::TestServer;
use serde_json::{Value, json};

#[tokio::test]
async fn links_into_a_subtree_from_outside_are_breaches() {
    let server = TestServer::start().await;
    let folder = server.create("", json!({"@type": "Folder", "id": "ordner", "title": "Ordner"})).await;
    let inner = server.create("ordner", json!({"@type": "Document", "id": "innen", "title": "Innen"})).await;
    let link = format!("<p><a href=\"{}/ordner/innen\">hin</a></p>", server.site);
    server.create("ordner", json!({"@type": "Document", "id": "nachbar", "title": "Nachbar", "text": link})).await;
    server.create("", json!({"@type": "Document", "id": "text", "title": "Verweist im Text", "text": link})).await;
    server
        .create(
            "",
            json!({"@type": "Document", "id": "bezug", "title": "Verweist per Bezug", "relatedItems": [folder["UID"]]}),
        )
        .await;
    server.create("", json!({"@type": "Document", "id": "fremd", "title": "Ohne Verweis"})).await;

    let uid = folder["UID"].as_str().unwrap();
    let (status, report) = server.get_json(&format!("@linkintegrity?uids={uid}")).await;
    assert_eq!(status, 200, "{report}");
    let entry = &report[0];
    assert_eq!(entry["@id"], Value::from(format!("{}/ordner", server.site)));
    assert_eq!(entry["items_total"], 2, "the two objects inside go with it");
    let breaches: Vec<&str> =
        entry["breaches"].as_array().unwrap().iter().map(|b| b["title"].as_str().unwrap()).collect();
    assert_eq!(breaches, ["Verweist per Bezug", "Verweist im Text"], "links from inside do not count: {entry}");
    assert_eq!(entry["breaches"][0]["uid"].as_str().map(str::len), Some(32));

    let inner_uid = inner["UID"].as_str().unwrap();
    let (_, single) = server.get_json(&format!("@linkintegrity?uids={inner_uid}")).await;
    assert_eq!(single[0]["items_total"], 0);
    assert_eq!(single[0]["breaches"].as_array().unwrap().len(), 2, "its neighbour's link counts for it: {single}");

    let (status, refused) = server.get_json("@linkintegrity").await;
    assert_eq!((status, &refused["code"]), (400, &json!("invalid_parameter")));
}
