//! Volto's `blocks` and `blocks_layout`: accepted on pages, folders and the site root, checked
//! in shape and size, described in `@types`, and with internal links kept as uids.

use crate::support::{TestServer, assert_error, uid};
use reqwest::Method;
use serde_json::{Value, json};

fn slate_link(text: &str, url: &str) -> Value {
    json!({"@type": "slate", "plaintext": text, "value": [{"type": "p", "children": [
        {"text": text},
        {"type": "link", "data": {"url": url}, "children": [{"text": "hier"}]}
    ]}]})
}

#[tokio::test]
async fn folderish_types_and_the_site_root_keep_blocks() {
    let server = TestServer::start().await;
    let blocks = json!({"t": {"@type": "title"}, "s": {"@type": "slate", "plaintext": "Hallo"}});
    let layout = json!({"items": ["t", "s"]});
    let mut kinds = vec!["Folder"];
    if cfg!(feature = "site-profile") {
        kinds.extend(["Topic", "NewsFolder", "ContentPage"]);
    }
    for kind in kinds {
        let body = json!({"@type": kind, "title": kind, "blocks": blocks, "blocks_layout": layout});
        let created = server.create("", body).await;
        assert_eq!((&created["blocks"], &created["blocks_layout"]), (&blocks, &layout), "{kind}: {created}");
    }
    let response = server.admin(Method::PATCH, "").json(&json!({"blocks": blocks, "blocks_layout": layout})).send();
    assert_eq!(response.await.unwrap().status(), 204);
    let (_, site) = server.get_json("").await;
    assert_eq!((&site["blocks"], &site["blocks_layout"], &site["layout"]), (&blocks, &layout, &json!("document_view")));

    let fresh = server.create("", json!({"@type": "Document", "title": "Neu"})).await;
    assert_eq!((&fresh["blocks"], &fresh["blocks_layout"]), (&json!({}), &json!({"items": []})), "defaults: {fresh}");
}

#[tokio::test]
async fn types_describe_the_blocks_fields_as_plone_volto_does() {
    let server = TestServer::start().await;
    let (status, schema) = server.get_json("@types/Document").await;
    assert_eq!(status, 200);
    let blocks = &schema["properties"]["blocks"];
    assert_eq!(
        (&blocks["factory"], &blocks["widget"], &blocks["type"]),
        (&json!("JSONField"), &json!("json"), &json!("dict"))
    );
    assert_eq!(blocks["behavior"], "volto.blocks");
    assert_eq!(schema["properties"]["blocks_layout"]["default"], json!({"items": []}));
    let layout = schema["fieldsets"].as_array().unwrap().iter().find(|f| f["id"] == "layout").cloned();
    assert_eq!(layout.map(|f| f["fields"].clone()), Some(json!(["blocks", "blocks_layout"])), "{schema}");
    let (_, site) = server.get_json("@types/Plone%20Site").await;
    assert!(site["properties"]["blocks"].is_object(), "the site root has blocks: {site}");
}

#[tokio::test]
async fn malformed_blocks_are_field_errors() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "D"})).await;
    let many: serde_json::Map<String, Value> =
        (0..1001).map(|n| (format!("b{n}"), json!({"@type": "slate"}))).collect();
    let mut deep = json!({"@type": "slate"});
    for _ in 0..40 {
        deep = json!({"@type": "slate", "inner": deep});
    }
    for (body, says) in [
        (json!({"blocks": ["a"]}), "block id"),
        (json!({"blocks": {"a": "text"}}), "must be an object"),
        (json!({"blocks": {"a": {"text": "ohne Typ"}}}), "@type"),
        (json!({"blocks": Value::Object(many)}), "at most 1000"),
        (json!({"blocks": {"a": deep}}), "deeper"),
        (json!({"blocks_layout": {"items": [1, 2]}}), "block ids"),
        (json!({"blocks_layout": ["a"]}), "items"),
    ] {
        let response = server.admin(Method::PATCH, "d").json(&body).send().await.unwrap();
        let error = assert_error(response, 400, "validation_failed").await;
        assert!(error.to_string().contains(says), "{body}: {error}");
    }
}

#[tokio::test]
async fn links_in_blocks_are_stored_as_uids_and_follow_moves() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "ordner", "title": "Ordner"})).await;
    let target = server.create("ordner", json!({"@type": "Document", "id": "ziel", "title": "Ziel"})).await;
    let image = server.create("", json!({"@type": "Document", "id": "bild", "title": "Bild"})).await;
    let target_url = format!("{}/ordner/ziel", server.site);
    let blocks = json!({
        "s": slate_link("Siehe", &target_url),
        "i": {"@type": "image", "url": format!("{}/bild", server.site)},
        "t": {"@type": "teaser", "href": [{"@id": format!("{}/ordner/ziel", server.site), "title": "Ziel"}]},
        "x": {"@type": "slate", "value": [{"type": "link", "data": {"url": "https://example.org/a"}}]}
    });
    let body = json!({"@type": "Document", "id": "quelle", "title": "Quelle", "blocks": blocks, "blocks_layout": {"items": ["s", "i", "t", "x"]}});
    server.create("", body).await;

    let stored = server.app.store.content_at_path("/Plone/quelle").await.unwrap().unwrap();
    let raw = stored.fields["blocks"].to_string();
    assert!(raw.contains(&format!("resolveuid/{}", uid(&target))) && !raw.contains("/ordner/ziel"), "{raw}");
    assert!(raw.contains(&format!("resolveuid/{}", uid(&image))), "{raw}");
    assert!(raw.contains("https://example.org/a"), "external links stay: {raw}");

    let moved = server.admin(Method::POST, "@move").json(&json!({"source": [target_url]})).send().await.unwrap();
    assert_eq!(moved.status(), 200);
    let (_, page) = server.get_json("quelle").await;
    let moved_url = format!("{}/ziel", server.site);
    assert_eq!(page["blocks"]["s"]["value"][0]["children"][1]["data"]["url"], Value::from(moved_url.clone()));
    assert_eq!(page["blocks"]["t"]["href"][0]["@id"], Value::from(moved_url));
    assert_eq!(page["blocks"]["i"]["url"], Value::from(format!("{}/bild", server.site)));

    let (_, report) = server.get_json(&format!("@linkintegrity?uids={}", uid(&target))).await;
    assert_eq!(report[0]["breaches"][0]["title"], "Quelle", "a link in blocks is a breach: {report}");
}

#[tokio::test]
async fn blocks_text_is_searchable() {
    let server = TestServer::start().await;
    let blocks = json!({"s": {"@type": "slate", "plaintext": "Zauberwort", "value": [{"type": "p", "children": [{"text": "Zauberwort"}]}]}});
    server.create("", json!({"@type": "Document", "id": "v", "title": "Volto", "blocks": blocks})).await;
    server.settle().await;
    let (status, found) = server.get_json("@search?SearchableText=zauberwort").await;
    assert_eq!(status, 200);
    assert_eq!(found["items_total"], 1, "{found}");
    assert_eq!(found["items"][0]["title"], "Volto");
}
