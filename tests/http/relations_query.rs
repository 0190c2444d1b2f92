//! `@relations` in plone.restapi 9's form: stats without parameters, and relations grouped by
//! name for `source`, `target`, `relation`, `query_source` and `query_target`.

use crate::support::{TestServer, assert_error, read, site_path, uid};
use reqwest::Method;
use serde_json::{Value, json};

/// `src` relates to `a`, `b` and `c`; `src` and `b` are published; `c` goes to the trash.
async fn corpus(server: &TestServer) -> Value {
    let a = server.create("", json!({"@type": "Document", "title": "Alpha", "id": "a"})).await;
    server.create("", json!({"@type": "Document", "title": "Beta", "id": "b"})).await;
    server.create("", json!({"@type": "Document", "title": "Gamma", "id": "c"})).await;
    let body = json!({"@type": "Document", "title": "Quelle", "id": "src", "relatedItems": [a["UID"], "/b", "/c"]});
    let src = server.create("", body).await;
    server.transition("src", "publish").await;
    server.transition("b", "publish").await;
    assert_eq!(server.admin(Method::POST, "c/@trash").send().await.unwrap().status(), 204);
    src
}

fn targets(group: &Value) -> Vec<String> {
    group["items"].as_array().unwrap().iter().map(|i| site_path(&i["target"]["@id"])).collect()
}

#[tokio::test]
async fn stats_count_valid_and_broken_relations_by_name() {
    let server = TestServer::start().await;
    corpus(&server).await;
    let (status, stats) = server.get_json("@relations").await;
    assert_eq!(status, 200, "{stats}");
    assert_eq!(stats["@id"], json!(server.url("@relations")));
    assert_eq!((&stats["stats"], &stats["broken"]), (&json!({"relatedItems": 2}), &json!({"relatedItems": 1})));
    let (_, anonymous) = read(server.anonymous(Method::GET, "@relations").send().await.unwrap()).await;
    assert_eq!(anonymous["stats"], json!({"relatedItems": 1}), "only what the caller sees: {anonymous}");
}

#[tokio::test]
async fn queries_group_relations_by_name() {
    let server = TestServer::start().await;
    let src = corpus(&server).await;
    let (_, by_uid) = server.get_json(&format!("@relations?source={}", uid(&src))).await;
    let group = &by_uid["relations"]["relatedItems"];
    assert_eq!((targets(group), &group["items_total"]), (vec!["a".to_owned(), "b".to_owned()], &json!(2)), "{by_uid}");
    assert!(group["items"][0]["source"]["UID"].is_string() && group["items"][0]["target"]["UID"].is_string());
    assert!(by_uid["@id"].as_str().unwrap().ends_with(&format!("@relations?source={}", uid(&src))));

    let (_, by_path) = server.get_json("@relations?target=/b&relation=relatedItems").await;
    let group = &by_path["relations"]["relatedItems"];
    assert_eq!(targets(group), ["b"]);
    assert_eq!(site_path(&group["items"][0]["source"]["@id"]), "src");
    assert_eq!(group["readonly"], false);

    let (_, none) = server.get_json("@relations?relation=main_topics").await;
    // `main_topics` is the navigation plugin's field; without it the name is a free relation's,
    // which has no vocabulary query.
    let query = if cfg!(feature = "navigation") { json!({}) } else { Value::Null };
    assert_eq!(
        none["relations"],
        json!({"main_topics": {"items": [], "items_total": 0, "readonly": false, "staticCatalogVocabularyQuery": query}})
    );
    let (_, searched) = server.get_json("@relations?query_target=Alpha").await;
    assert_eq!(targets(&searched["relations"]["relatedItems"]), ["a"]);
    let (_, below) = server.get_json("@relations?query_source=/src").await;
    assert_eq!(targets(&below["relations"]["relatedItems"]), ["a", "b"]);
    let (_, anonymous) = read(server.anonymous(Method::GET, "@relations?source=/src").send().await.unwrap()).await;
    assert_eq!(targets(&anonymous["relations"]["relatedItems"]), ["b"], "private targets stay hidden");

    assert_error(server.admin(Method::GET, "@relations?source=/nothing").send().await.unwrap(), 404, "not_found").await;
}
