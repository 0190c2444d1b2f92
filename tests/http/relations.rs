//! Relation fields, `@relations`, link fields and internal links in rich text.

use crate::support::{TestServer, assert_error, read, site_path};
use reqwest::Method;
use serde_json::{Value, json};

fn paths(items: &Value) -> Vec<String> {
    items.as_array().expect("list").iter().map(|i| site_path(&i["@id"])).collect()
}

/// `a`, `b`, `c` and `src` relating to all three (by UID, by path and by URL); `src` and `b`
/// are published, `a` and `c` stay private.
async fn related_corpus(server: &TestServer) -> Value {
    let a = server.create("", json!({"@type": "Document", "title": "A", "id": "a"})).await;
    server.create("", json!({"@type": "Document", "title": "B", "id": "b"})).await;
    server.create("", json!({"@type": "Document", "title": "C", "id": "c"})).await;
    let src = server
        .create(
            "",
            json!({"@type": "Document", "title": "Source", "id": "src",
                   "relatedItems": [a["UID"], "/b", server.url("c"), {"UID": a["UID"]}]}),
        )
        .await;
    server.transition("src", "publish").await;
    server.transition("b", "publish").await;
    src
}

#[tokio::test]
async fn relation_lists_serialize_to_summaries_or_full_objects() {
    let server = TestServer::start().await;
    let src = related_corpus(&server).await;
    assert_eq!(paths(&src["relatedItems"]), vec!["a", "b", "c"], "references resolve; duplicates dropped");
    let first = &src["relatedItems"][0];
    assert_eq!(first["title"], "A");
    assert!(first["UID"].as_str().is_some_and(|u| u.len() == 32), "UID is always in a relation summary: {first}");
    assert!(first.get("text").is_none(), "a summary, not the object");

    let (_, full) = server.get_json("src?fullobjects=1").await;
    assert_eq!(full["relatedItems"][1]["@type"], "Document");
    assert!(full["relatedItems"][1].get("text").is_some(), "fullobjects gives the whole object");

    let (_, document) = server.get_json("a").await;
    assert_eq!(document["relatedItems"], json!([]), "an empty relation list is a list");
}

#[tokio::test]
async fn relations_to_hidden_trashed_or_deleted_objects_drop_out() {
    let server = TestServer::start().await;
    related_corpus(&server).await;
    let (status, anonymous) = read(server.anonymous(Method::GET, "src").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(paths(&anonymous["relatedItems"]), vec!["b"], "private targets are left out");

    assert_eq!(server.admin(Method::POST, "b/@trash").send().await.unwrap().status(), 204);
    let (_, admin) = server.get_json("src").await;
    assert_eq!(paths(&admin["relatedItems"]), vec!["a", "c"], "a trashed target is left out");
    assert_eq!(server.admin(Method::DELETE, "c").send().await.unwrap().status(), 204);
    let (_, admin) = server.get_json("src").await;
    assert_eq!(paths(&admin["relatedItems"]), vec!["a"], "a deleted target is left out");

    let (_, broken) = server.get_json("@relations?onlyBroken=true").await;
    let entries = broken["relatedItems"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "trashed and deleted targets are broken: {broken}");
    assert!(entries.iter().all(|e| e["target"].is_null() && site_path(&e["source"]["@id"]) == "src"));
}

#[tokio::test]
async fn relation_values_are_validated() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "Doc", "id": "doc"})).await;
    let body = json!({"@type": "Document", "title": "X", "relatedItems": ["/nowhere", 5]});
    let error =
        assert_error(server.admin(Method::POST, "").json(&body).send().await.unwrap(), 400, "validation_failed").await;
    assert_eq!(error["errors"][0]["field"], "relatedItems", "{error}");

    let body = json!({"@type": "Document", "title": "X", "relatedItems": ["/nowhere"]});
    let error =
        assert_error(server.admin(Method::POST, "").json(&body).send().await.unwrap(), 400, "validation_failed").await;
    assert!(error["errors"][0]["message"].as_str().unwrap().contains("/nowhere"), "{error}");

    #[cfg(feature = "site-profile")]
    {
        let body = json!({"@type": "SubTopic", "title": "Sub", "main_topics": ["/doc"]});
        let response = server.admin(Method::POST, "").json(&body).send().await.unwrap();
        let error = assert_error(response, 400, "validation_failed").await;
        assert!(
            error["errors"][0]["message"].as_str().unwrap().contains("Topic"),
            "target types are enforced: {error}"
        );
    }

    server.create("", json!({"@type": "Folder", "title": "Locked", "id": "locked"})).await;
    server.create("", json!({"@type": "Folder", "title": "Mine", "id": "mine"})).await;
    server.transition("doc", "publish").await;
    server.user("member", &["Member"], &[]).await;
    server.share("mine", "member", &["Contributor"]).await;
    let hidden = json!({"@type": "Document", "title": "Y", "relatedItems": ["/locked"]});
    let response = server.as_user("member", Method::POST, "mine").json(&hidden).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    let visible = json!({"@type": "Document", "title": "Y", "relatedItems": ["/doc"]});
    let response = server.as_user("member", Method::POST, "mine").json(&visible).send().await.unwrap();
    assert_eq!(response.status(), 201, "relations to what the writer sees are fine");
}

#[tokio::test]
async fn relations_endpoint_lists_both_directions_with_uids() {
    let server = TestServer::start().await;
    related_corpus(&server).await;
    let (status, body) = server.get_json("@relations?sources=/src&metadata_fields=Title").await;
    assert_eq!(status, 200, "{body}");
    let related = body["relatedItems"].as_array().unwrap();
    assert_eq!(related.len(), 3);
    for entry in related {
        assert_eq!(site_path(&entry["source"]["@id"]), "src");
        assert!(entry["source"]["UID"].is_string() && entry["target"]["UID"].is_string(), "{entry}");
        assert_eq!(entry["relationship"], "relatedItems");
    }
    assert_eq!(body["backRelatedItems"], json!([]));

    let (_, back) = server.get_json("@relations?sources=/a").await;
    assert_eq!(back["relatedItems"], json!([]));
    assert_eq!(
        paths(&json!(
            back["backRelatedItems"].as_array().unwrap().iter().map(|e| e["source"].clone()).collect::<Vec<_>>()
        )),
        vec!["src"]
    );

    let (_, limited) = server.get_json("@relations?relationship=relatedItems&max=1").await;
    assert_eq!(limited["relatedItems"].as_array().unwrap().len(), 1);
    let (_, other) = server.get_json("@relations?relationship=main_topics").await;
    assert_eq!(other["relatedItems"], json!([]));
    let (_, to_b) = server.get_json("@relations?targets=/b").await;
    assert_eq!(to_b["relatedItems"].as_array().unwrap().len(), 1);

    let (_, anonymous) = read(server.anonymous(Method::GET, "@relations?sources=/src").send().await.unwrap()).await;
    let targets: Vec<String> =
        anonymous["relatedItems"].as_array().unwrap().iter().map(|e| site_path(&e["target"]["@id"])).collect();
    assert_eq!(targets, vec!["b"], "relations to hidden objects are left out");
    assert_error(server.anonymous(Method::GET, "@relations?sources=/a").send().await.unwrap(), 404, "not_found").await;
    assert_error(
        server.anonymous(Method::GET, "@relations?unrestricted=true").send().await.unwrap(),
        401,
        "unauthorized",
    )
    .await;
    assert_error(server.admin(Method::GET, "@relations?max=0").send().await.unwrap(), 400, "invalid_parameter").await;
    assert_error(
        server.admin(Method::GET, "@relations?onlyBroken=maybe").send().await.unwrap(),
        400,
        "invalid_parameter",
    )
    .await;

    assert_eq!(server.admin(Method::POST, "src/@trash").send().await.unwrap().status(), 204);
    let (_, after) = server.get_json("@relations?targets=/a").await;
    assert_eq!(after["relatedItems"], json!([]), "relations from trashed sources are left out");
}

#[tokio::test]
async fn copies_carry_their_relations() {
    let server = TestServer::start().await;
    related_corpus(&server).await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    let response =
        server.admin(Method::POST, "f/@copy").json(&json!({"source": server.url("src")})).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let (_, back) = server.get_json("@relations?sources=/a").await;
    let sources: Vec<String> =
        back["backRelatedItems"].as_array().unwrap().iter().map(|e| site_path(&e["source"]["@id"])).collect();
    assert_eq!(sources, vec!["f/src", "src"]);
}

/// The site profile's Topic has the link field and the single relation.
#[cfg(feature = "site-profile")]
#[tokio::test]
async fn link_fields_and_rich_text_links_survive_moves() {
    let server = TestServer::start().await;
    let target = server.create("", json!({"@type": "Document", "title": "Target", "id": "target"})).await;
    let uid = target["UID"].as_str().unwrap().to_owned();
    let missing = "f".repeat(32);
    let topic = server
        .create(
            "",
            json!({"@type": "Topic", "title": "Topic", "id": "topic", "link": format!("../resolveuid/{uid}#part"),
                   "text": format!(r#"<p><a href="{}/@@download/file">in</a> <a href="https://example.org/x">out</a> <a href="resolveuid/{missing}">gone</a></p>"#, server.url("target"))}),
        )
        .await;
    assert_eq!(topic["link"], format!("{}#part", server.url("target")));
    let text = topic["text"]["data"].as_str().unwrap();
    assert!(text.contains(&format!(r#"href="{}/@@download/file""#, server.url("target"))), "{text}");
    assert!(text.contains(r#"href="https://example.org/x""#), "external links stay: {text}");
    assert!(
        text.contains(&format!(r#"href="{}/resolveuid/{missing}""#, server.url(""))),
        "broken links are safe: {text}"
    );

    let patch = json!({"link": "${portal_url}/somewhere"});
    assert_eq!(server.admin(Method::PATCH, "topic").json(&patch).send().await.unwrap().status(), 204);
    let (_, topic) = server.get_json("topic").await;
    assert_eq!(topic["link"], server.url("somewhere"));

    let rename = json!({"id": "renamed"});
    assert_eq!(server.admin(Method::PATCH, "target").json(&rename).send().await.unwrap().status(), 204);
    let (_, topic) = server.get_json("topic").await;
    let text = topic["text"]["data"].as_str().unwrap();
    assert!(text.contains(&format!(r#"href="{}/@@download/file""#, server.url("renamed"))), "stored by uid: {text}");

    let resolver = server.admin(Method::GET, &format!("resolveuid/{uid}/view")).send().await.unwrap();
    assert_eq!(resolver.status(), 302);
    assert_eq!(resolver.headers()["location"], format!("{}/view", server.url("renamed")));
    assert_error(server.admin(Method::GET, &format!("resolveuid/{missing}")).send().await.unwrap(), 404, "not_found")
        .await;
    let private = server.anonymous(Method::GET, &format!("resolveuid/{uid}")).send().await.unwrap();
    assert_error(private, 404, "not_found").await;
}

/// The site profile's Topic has the link field and the single relation.
#[cfg(feature = "site-profile")]
#[tokio::test]
async fn a_single_relation_is_a_summary_or_null_when_its_target_is_hidden_trashed_or_gone() {
    let server = TestServer::start().await;
    let page = server.create("", json!({"@type": "Document", "id": "page", "title": "Seite"})).await;
    let body = json!({"@type": "Topic", "id": "topic", "title": "Thema", "featured_page": page["UID"]});
    server.create("", body).await;
    server.transition("topic", "publish").await;

    let (_, topic) = server.get_json("topic").await;
    assert_eq!(topic["featured_page"]["UID"], page["UID"]);
    assert_eq!(site_path(&topic["featured_page"]["@id"]), "page");
    let (_, full) = server.get_json("topic?fullobjects=1").await;
    assert!(full["featured_page"].get("text").is_some(), "fullobjects gives the whole object");

    let (status, anonymous) = read(server.anonymous(Method::GET, "topic").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert!(anonymous["featured_page"].is_null(), "a private target is null for anonymous: {anonymous}");
    server.transition("page", "publish").await;
    let (_, anonymous) = read(server.anonymous(Method::GET, "topic").send().await.unwrap()).await;
    assert_eq!(anonymous["featured_page"]["UID"], page["UID"], "published now");

    assert_eq!(server.admin(Method::POST, "page/@trash").send().await.unwrap().status(), 204);
    assert!(server.get_json("topic").await.1["featured_page"].is_null(), "a trashed target is null");
    assert_eq!(server.admin(Method::POST, "page/@untrash").send().await.unwrap().status(), 204);
    assert_eq!(server.get_json("topic").await.1["featured_page"]["UID"], page["UID"]);
    assert_eq!(server.admin(Method::DELETE, "page").send().await.unwrap().status(), 204);
    assert!(server.get_json("topic").await.1["featured_page"].is_null(), "a deleted target is null");

    let news_folder = json!({"@type": "NewsFolder", "id": "nf", "title": "News"});
    let wrong = server.create("", news_folder).await;
    let response = server.admin(Method::PATCH, "topic").json(&json!({"featured_page": wrong["UID"]})).send().await;
    assert_error(response.unwrap(), 400, "validation_failed").await;
}
