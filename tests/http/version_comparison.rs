//! `GET <page>/@versions/<id>/comparison` over real HTTP: the rows (page, skipped, block),
//! their fields and anchors, moves, hidden titles, metadata-only changes, images by file
//! name and size, links within the page, column widths, and content without blocks.

use crate::images::png;
use crate::support::TestServer;
use reqwest::Method;
use serde_json::{Value, json};

/// A CSRF token for admin, as every versioning write needs.
pub async fn admin_token(server: &TestServer) -> String {
    let response = server.admin(Method::GET, "@@authenticator/token").send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.text().await.unwrap()
}

pub async fn snapshot(server: &TestServer, path: &str) -> String {
    let token = admin_token(server).await;
    let request = server.admin(Method::POST, &format!("{path}/@versions")).header("X-CSRF-TOKEN", token);
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 201);
    let item: Value = response.json().await.unwrap();
    item["id"].as_str().unwrap().to_owned()
}

pub async fn patch(server: &TestServer, path: &str, body: Value) {
    let response = server.admin(Method::PATCH, path).json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204, "PATCH {path} {body}");
}

pub async fn compare(server: &TestServer, path: &str, id: &str) -> Value {
    let (status, comparison) = server.get_json(&format!("{path}/@versions/{id}/comparison")).await;
    assert_eq!(status, 200, "{comparison}");
    comparison
}

fn kinds(comparison: &Value) -> Vec<&str> {
    comparison["items"].as_array().unwrap().iter().map(|i| i["kind"].as_str().unwrap()).collect()
}

pub fn text_block(id: &str, title: &str, text: &str) -> Value {
    json!({"@type": "TextBlock", "id": id, "title": title, "text": text})
}

/// A page with blocks a…e, each with one paragraph.
async fn page_of_five(server: &TestServer) -> Vec<String> {
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    let mut uids = Vec::new();
    for id in ["a", "b", "c", "d", "e"] {
        let block = server.create("p", text_block(id, &format!("Block {id}"), &format!("<p>Text von {id}</p>"))).await;
        uids.push(block["UID"].as_str().unwrap().to_owned());
    }
    uids
}

fn layout(uids: &[&String]) -> Value {
    let blocks: Vec<Value> = uids.iter().map(|u| json!({"uid": u})).collect();
    json!({"simplelayout": {"default": [{"cols": [{"blocks": blocks}]}]}})
}

#[tokio::test]
async fn rows_follow_the_reading_order_with_skipped_runs_and_numbered_anchors() {
    let server = TestServer::start().await;
    page_of_five(&server).await;
    let id = snapshot(&server, "p").await;
    patch(&server, "p", json!({"description": "Neu", "exclude_from_nav": true})).await;
    patch(&server, "p/b", json!({"text": {"data": "<p>Text von b, geändert</p>", "content-type": "text/html"}})).await;
    let response = server.admin(Method::DELETE, "p/d").send().await.unwrap();
    assert_eq!(response.status(), 204);

    let comparison = compare(&server, "p", &id).await;
    assert_eq!(kinds(&comparison), ["page", "skipped", "block", "skipped", "block", "skipped"], "{comparison}");
    let items = comparison["items"].as_array().unwrap();
    assert_eq!(comparison["changes_total"], 3);
    assert_eq!(
        items[0]["metadata"],
        json!([{"label": "Summary", "old": "\u{2014}", "new": "Neu"}, {"label": "Exclude from navigation", "old": "No", "new": "Yes"}])
    );
    assert_eq!(
        (items[1]["count"].as_u64(), items[3]["count"].as_u64(), items[5]["count"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    let changed = &items[2];
    assert_eq!((changed["type"].as_str(), changed["change"].as_str()), (Some("Text block"), Some("changed")));
    assert_eq!(changed["moved"], false);
    assert_eq!(changed["hidden_title"], Value::Null);
    assert_eq!(changed["html"], "<h2>Block b</h2><p>Text von b<ins>, geändert</ins></p>");
    let removed = &items[4];
    assert_eq!(removed["change"], "removed");
    assert_eq!(removed["html"], "<h2>Block d</h2><p>Text von d</p>", "whole, without marks");
    let anchors: Vec<&str> = items.iter().filter_map(|i| i["anchor"].as_str()).collect();
    assert_eq!(anchors, ["version-diff-change-1", "version-diff-change-2", "version-diff-change-3"]);
    assert!(items[1].get("anchor").is_none());
}

#[tokio::test]
async fn moves_are_the_fewest_blocks_out_of_order() {
    let server = TestServer::start().await;
    let uids = page_of_five(&server).await;
    let id = snapshot(&server, "p").await;
    // e goes to the top: only e moved, although every other block shifted down.
    patch(&server, "p", layout(&[&uids[4], &uids[0], &uids[1], &uids[2], &uids[3]])).await;
    let comparison = compare(&server, "p", &id).await;
    assert_eq!(kinds(&comparison), ["block", "skipped"], "{comparison}");
    let moved = &comparison["items"][0];
    assert_eq!((moved["moved"].as_bool(), moved["change"].as_str()), (Some(true), None));
    assert_eq!(moved["html"], "<h2>Block e</h2><p>Text von e</p>");
    assert_eq!(comparison["items"][1]["count"], 4);

    // Column widths and rows are layout, not content: splitting the column changes nothing.
    patch(&server, "p", layout(&[&uids[0], &uids[1], &uids[2], &uids[3], &uids[4]])).await;
    let columns = json!({"simplelayout": {"default": [
        {"cols": [{"blocks": [{"uid": uids[0]}, {"uid": uids[1]}], "width": 8}, {"blocks": [{"uid": uids[2]}], "width": 4}]},
        {"cols": [{"blocks": [{"uid": uids[3]}, {"uid": uids[4]}], "width": 12}]}]}});
    patch(&server, "p", columns).await;
    let comparison = compare(&server, "p", &id).await;
    assert_eq!((comparison["changes_total"].as_u64(), comparison["items"].clone()), (Some(0), json!([])));
}

#[tokio::test]
async fn hidden_titles_and_metadata_only_changes() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    let mut hidden = text_block("h", "Versteckt", "<p>Eins zwei</p>");
    hidden["show_title"] = json!(false);
    server.create("p", hidden).await;
    server.create("p", text_block("m", "Meta", "<p>Bleibt</p>")).await;
    let id = snapshot(&server, "p").await;
    patch(&server, "p/h", json!({"text": {"data": "<p>Eins drei</p>", "content-type": "text/html"}})).await;
    patch(&server, "p/m", json!({"open_image_in_overlay": true})).await;
    let comparison = compare(&server, "p", &id).await;
    let items = comparison["items"].as_array().unwrap();
    assert_eq!(kinds(&comparison), ["block", "block"], "{comparison}");
    assert_eq!(items[0]["hidden_title"], "Versteckt");
    assert_eq!(items[0]["html"], "<p>Eins <del>zwei</del><ins>drei</ins></p>", "no title in the markup");
    assert_eq!(items[1]["change"], Value::Null, "only metadata changed");
    assert_eq!(items[1]["metadata"], json!([{"label": "Open image in overlay", "old": "No", "new": "Yes"}]));
    assert_eq!(items[1]["html"], "<h2>Meta</h2><p>Bleibt</p>");

    // The title of a block whose title is hidden is metadata, in German too.
    patch(&server, "p/h", json!({"title": "Anders"})).await;
    let german = server.admin(Method::GET, &format!("p/@versions/{id}/comparison")).header("Accept-Language", "de");
    let german: Value = german.send().await.unwrap().json().await.unwrap();
    assert_eq!(german["items"][0]["metadata"], json!([{"label": "Titel", "old": "Versteckt", "new": "Anders"}]));
    assert_eq!(german["items"][0]["hidden_title"], "Anders");
    assert_eq!(german["items"][1]["metadata"][0]["new"], "Ja");
}

#[tokio::test]
async fn images_are_the_same_when_file_name_and_size_match() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    let image = json!({"data": png(40, 20), "filename": "haus.png", "content-type": "image/png"});
    let mut block = text_block("t", "Bild", "<p>Ein Haus</p>");
    block["image"] = image.clone();
    server.create("p", block).await;
    let id = snapshot(&server, "p").await;
    patch(&server, "p/t", json!({"image": image})).await;
    assert_eq!(compare(&server, "p", &id).await["changes_total"], 0, "same file again: unchanged");

    patch(&server, "p/t", json!({"image": {"data": png(60, 20), "filename": "haus.png", "content-type": "image/png"}}))
        .await;
    let comparison = compare(&server, "p", &id).await;
    let html = comparison["items"][0]["html"].as_str().unwrap();
    assert_eq!(comparison["items"][0]["change"], "changed");
    assert!(html.contains("<del><figure class=\"border border-3 border-danger\">"), "{html}");
    assert!(html.contains("<ins><figure class=\"border border-3 border-success\">"), "{html}");
}

#[tokio::test]
async fn links_between_blocks_of_the_page_are_not_reported_but_other_links_are() {
    let server = TestServer::start().await;
    page_of_five(&server).await;
    let (_, b) = server.get_json("p/b").await;
    let (_, c) = server.get_json("p/c").await;
    let elsewhere = server.create("", json!({"@type": "Document", "id": "x", "title": "Anderswo"})).await;
    let link = |url: &Value| format!("<p>Siehe <a href=\"{}\">dort</a> nach.</p>", url.as_str().unwrap());
    patch(&server, "p/a", json!({"text": {"data": link(&b["@id"]), "content-type": "text/html"}})).await;
    let id = snapshot(&server, "p").await;
    patch(&server, "p/a", json!({"text": {"data": link(&c["@id"]), "content-type": "text/html"}})).await;
    assert_eq!(compare(&server, "p", &id).await["changes_total"], 0, "from block b to block c");

    patch(&server, "p/a", json!({"text": {"data": link(&elsewhere["@id"]), "content-type": "text/html"}})).await;
    let comparison = compare(&server, "p", &id).await;
    let html = comparison["items"][0]["html"].as_str().unwrap();
    assert!(html.contains("<mark title=\"link to ") && html.contains(">dort</mark>"), "{html}");
}

#[tokio::test]
async fn content_without_blocks_is_one_block_row_with_the_page_metadata() {
    let server = TestServer::start().await;
    let text = "<p>Erster Absatz.</p><p>Zweiter Absatz bleibt.</p>";
    server.create("", json!({"@type": "Document", "id": "doc", "title": "Alt", "text": text})).await;
    let id = snapshot(&server, "doc").await;
    let text = "<p>Erster <strong>Absatz</strong>.</p><p>Zweiter Absatz bleibt.</p>";
    patch(&server, "doc", json!({"title": "Neu", "text": {"data": text, "content-type": "text/html"}})).await;
    let comparison = compare(&server, "doc", &id).await;
    assert_eq!(kinds(&comparison), ["block"], "{comparison}");
    let row = &comparison["items"][0];
    assert_eq!((row["type"].as_str(), row["change"].as_str()), (Some("Page"), Some("changed")));
    assert_eq!(row["metadata"], json!([{"label": "Title", "old": "Alt", "new": "Neu"}]));
    assert_eq!(
        row["html"],
        "<p>Erster <strong><mark title=\"bold added\">Absatz</mark></strong>.</p><p class=\"text-body-secondary\">\u{2026}</p>"
    );
    assert_eq!(row["anchor"], "version-diff-change-1");
    assert_eq!(comparison["changes_total"], 1);
}

#[tokio::test]
async fn blocks_restored_as_copies_compare_with_the_blocks_they_stand_for() {
    let server = TestServer::start().await;
    page_of_five(&server).await;
    let id = snapshot(&server, "p").await;
    assert_eq!(server.admin(Method::DELETE, "p/c").send().await.unwrap().status(), 204);
    let restore = server.admin(Method::POST, &format!("p/@versions/{id}/restore"));
    let response = restore.header("X-CSRF-TOKEN", admin_token(&server).await).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let comparison = compare(&server, "p", &id).await;
    assert_eq!((comparison["changes_total"].as_u64(), comparison["items"].clone()), (Some(0), json!([])));
}

#[tokio::test]
async fn volto_blocks_are_compared_like_text() {
    let server = TestServer::start().await;
    let slate = |text: &str| json!({"@type": "slate", "plaintext": text, "value": [{"type": "p", "children": [{"text": text}]}]});
    let blocks =
        json!({"t": {"@type": "title"}, "a": slate("Die Bibliothek öffnet morgens."), "b": slate("Bleibt gleich.")});
    let body = json!({"@type": "Document", "id": "volto", "title": "Volto", "blocks": blocks, "blocks_layout": {"items": ["t", "a", "b"]}});
    server.create("", body).await;
    let id = snapshot(&server, "volto").await;
    let blocks =
        json!({"t": {"@type": "title"}, "a": slate("Die Bibliothek öffnet abends."), "b": slate("Bleibt gleich.")});
    patch(&server, "volto", json!({"blocks": blocks})).await;
    let comparison = compare(&server, "volto", &id).await;
    assert_eq!(comparison["changes_total"], 1, "{comparison}");
    let html = comparison["items"][0]["html"].as_str().unwrap();
    assert!(html.contains("<del>morgens</del>") && html.contains("<ins>abends</ins>"), "{html}");
    assert!(!html.contains("Bleibt gleich"), "unchanged paragraphs fold away: {html}");
}
