//! `POST` and `DELETE <site>/@relations` and `/rebuild`: relations are the values of the
//! sources' relation fields, written through the ordinary write path; a request with an item
//! that cannot be carried out changes nothing.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

async fn related(server: &TestServer, path: &str) -> Vec<String> {
    let (_, object) = server.get_json(path).await;
    object["relatedItems"].as_array().unwrap().iter().map(|r| r["title"].as_str().unwrap().to_owned()).collect()
}

fn item(source: &str, target: &str, relation: &str) -> Value {
    json!({"source": source, "target": target, "relation": relation})
}

#[tokio::test]
async fn relations_are_added_and_removed_as_field_values_all_or_nothing() {
    let server = TestServer::start().await;
    for id in ["a", "b", "c"] {
        server.create("", json!({"@type": "Document", "id": id, "title": id.to_uppercase()})).await;
    }
    let c = server.get_json("c").await.1["UID"].as_str().unwrap().to_owned();
    let post = |items: Value| server.admin(Method::POST, "@relations").json(&json!({"items": items})).send();
    let response = post(json!([item("/a", "/b", "relatedItems"), item("/a", &c, "relatedItems")])).await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(related(&server, "a").await, vec!["B", "C"]);
    let (_, found) = server.get_json("@relations?source=/Plone/a").await;
    assert_eq!(found["relations"]["relatedItems"]["items_total"], 2, "{found}");

    // One item that cannot be carried out: nothing changes, and the answer says which and why.
    let response = post(json!([item("/b", "/a", "relatedItems"), item("/b", "/gone", "relatedItems")])).await.unwrap();
    let (status, body) = read(response).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("unprocessable")), "{body}");
    assert_eq!(body["error"]["type"], "Unprocessable Content");
    assert_eq!(body["error"]["failed"][0][1], "Failed on creating a relation. Target not found.");
    assert_eq!(body["error"]["failed"][0][0]["target"], "/gone");
    assert!(related(&server, "b").await.is_empty(), "the valid item was not carried out either");
    let response = post(json!([item("/b", "/a", "title")])).await.unwrap();
    assert_error(response, 422, "unprocessable").await;

    let delete = |body: Value| server.admin(Method::DELETE, "@relations").json(&body).send();
    assert_eq!(delete(json!({"items": [item("/a", "/b", "relatedItems")]})).await.unwrap().status(), 204);
    assert_eq!(related(&server, "a").await, vec!["C"]);
    assert_eq!(delete(json!({"relation": "relatedItems", "target": "/c"})).await.unwrap().status(), 204);
    assert!(related(&server, "a").await.is_empty());
    assert_error(delete(json!({})).await.unwrap(), 400, "missing_property").await;
}

#[tokio::test]
async fn only_those_who_may_edit_the_source_add_relations_and_managers_rebuild() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "a", "title": "A"})).await;
    server.create("", json!({"@type": "Document", "id": "b", "title": "B"})).await;
    server.transition("a", "publish").await;
    server.transition("b", "publish").await;
    server.user("reader", &["Member"], &[]).await;
    let body = json!({"items": [item("/a", "/b", "relatedItems")]});
    let response = server.anonymous(Method::POST, "@relations").json(&body).send().await.unwrap();
    assert_error(response, 401, "unauthorized").await;
    let response = server.as_user("reader", Method::POST, "@relations").json(&body).send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
    assert!(related(&server, "a").await.is_empty());

    server.admin(Method::POST, "@relations").json(&body).send().await.unwrap();
    let response = server.as_user("reader", Method::POST, "@relations/rebuild").send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
    let response = server.admin(Method::POST, "@relations/rebuild").send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, found) = server.get_json("@relations?source=/Plone/a").await;
    assert_eq!(
        found["relations"]["relatedItems"]["items_total"], 1,
        "the index derived again from the fields: {found}"
    );
}

#[tokio::test]
async fn a_relation_named_like_no_field_is_a_free_relation_that_writes_and_rebuilds_keep() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "a", "title": "A"})).await;
    server.create("", json!({"@type": "Document", "id": "b", "title": "B"})).await;
    let part = json!({"items": [item("/a", "/b", "comprisesComponentPart")]});
    assert_eq!(server.admin(Method::POST, "@relations").json(&part).send().await.unwrap().status(), 204);
    let count = || async {
        let (_, found) = server.get_json("@relations?source=/Plone/a&relation=comprisesComponentPart").await;
        found["relations"]["comprisesComponentPart"]["items_total"].as_i64().unwrap_or(-1)
    };
    assert_eq!(count().await, 1);
    let again = server.admin(Method::POST, "@relations").json(&part).send().await.unwrap();
    assert_eq!(again.status(), 204, "adding it again changes nothing");
    assert_eq!(count().await, 1);
    assert!(related(&server, "a").await.is_empty(), "no field shows it");
    let edit = server.admin(Method::PATCH, "a").json(&json!({"title": "A2", "relatedItems": ["/b"]})).send();
    assert_eq!(edit.await.unwrap().status(), 204);
    assert_eq!(server.admin(Method::POST, "@relations/rebuild").send().await.unwrap().status(), 204);
    assert_eq!(count().await, 1, "a write of the source's fields and a rebuild keep it");
    assert_eq!(related(&server, "a").await, vec!["B"]);
    let bad = json!({"items": [item("/a", "/b", "no spaces please")]});
    assert_error(server.admin(Method::POST, "@relations").json(&bad).send().await.unwrap(), 422, "unprocessable").await;
    assert_eq!(server.admin(Method::DELETE, "@relations").json(&part).send().await.unwrap().status(), 204);
    assert_eq!(count().await, 0);
    assert_eq!(related(&server, "a").await, vec!["B"], "the field's relation stays");
}
