//! Frames, custom elements and inline images in the version comparison, through real storage:
//! what a text keeps when it is stored, what a reader gets back, and what the comparison
//! reports about it.

use crate::images::png;
use crate::support::{TestServer, uid};
use crate::version_comparison::{compare, patch, snapshot, text_block};
use reqwest::Method;
use serde_json::{Value, json};

fn rich(html: &str) -> Value {
    json!({"text": {"data": html, "content-type": "text/html"}})
}

/// The markup of the only block row.
fn only_block_html(comparison: &Value) -> &str {
    assert_eq!(comparison["changes_total"], 1, "{comparison}");
    comparison["items"].as_array().unwrap().iter().find(|i| i["kind"] == "block").unwrap()["html"].as_str().unwrap()
}

#[tokio::test]
async fn a_frame_added_beside_a_rule_is_stored_served_and_shown_as_added() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    server.create("p", text_block("t", "Anfahrt", "<p>So finden Sie uns</p>")).await;
    let id = snapshot(&server, "p").await;
    let added = "<p>So finden Sie uns</p><hr><iframe src=\"https://maps.example/embed?q=bern\" title=\"Karte\" \
                 onload=\"alert(1)\" srcdoc=\"&lt;b&gt;\"></iframe><iframe src=\"javascript:alert(1)\"></iframe>";
    patch(&server, "p/t", rich(added)).await;

    let (_, block) = server.get_json("p/t").await;
    assert_eq!(
        block["text"]["data"],
        "<p>So finden Sie uns</p><hr><iframe src=\"https://maps.example/embed?q=bern\" title=\"Karte\"></iframe>\
         <iframe></iframe>",
        "frames are kept with http(s) sources only"
    );
    let html = only_block_html(&compare(&server, "p", &id).await).to_owned();
    assert!(
        html.contains(
            "<ins><hr class=\"border border-3 border-success\"><iframe src=\"https://maps.example/embed?q=bern\" \
             title=\"Karte\" class=\"border border-3 border-success\"></iframe><iframe class=\"border border-3 \
             border-success\"></iframe></ins>"
        ),
        "{html}"
    );

    let id = snapshot(&server, "p").await;
    patch(&server, "p/t", rich("<p>So finden Sie uns</p><iframe src=\"https://maps.example/embed?q=thun\"></iframe>"))
        .await;
    let html = only_block_html(&compare(&server, "p", &id).await).to_owned();
    assert!(
        html.contains("<del><hr class=\"border border-3 border-danger\"><iframe src=\"https://maps.example/embed?q=bern\" title=\"Karte\" class=\"border border-3 border-danger\"></iframe>"),
        "{html}"
    );
    assert!(
        html.contains("<ins><iframe src=\"https://maps.example/embed?q=thun\" class=\"border border-3 border-success\"></iframe></ins>"),
        "{html}"
    );

    let id = snapshot(&server, "p").await;
    patch(
        &server,
        "p/t",
        rich("<p>So finden Sie uns</p><iframe src=\"https://maps.example/embed?q=thun\" height=\"400\"></iframe>"),
    )
    .await;
    let html = only_block_html(&compare(&server, "p", &id).await).to_owned();
    assert!(
        html.contains("<mark title=\"properties changed: height\"><iframe height=\"400\" src=\"https://maps.example/embed?q=thun\" class=\"border border-3 border-warning\"></iframe></mark>"),
        "{html}"
    );
}

#[tokio::test]
async fn a_custom_element_is_stored_compared_as_a_whole_and_shown_only_in_comparisons() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    let before =
        "<p>Karte:</p><x-karte lat=\"46.95\" onclick=\"alert(1)\" style=\"color:red\">Bern <b>Mitte</b></x-karte>";
    server.create("p", text_block("t", "Karte", before)).await;
    let (_, block) = server.get_json("p/t").await;
    assert_eq!(block["text"]["data"], "<p>Karte:</p>Bern <b>Mitte</b>", "readers get the text, not the element");
    let id = snapshot(&server, "p").await;
    patch(&server, "p/t", rich("<p>Karte:</p><x-karte lat=\"46.95\">Thun <b>Mitte</b></x-karte>")).await;

    let html = only_block_html(&compare(&server, "p", &id).await).to_owned();
    assert!(
        html.contains(
            "<del><x-karte lat=\"46.95\" class=\"border border-3 border-danger\">Bern <b>Mitte</b></x-karte></del>\
             <ins><x-karte lat=\"46.95\" class=\"border border-3 border-success\">Thun <b>Mitte</b></x-karte></ins>"
        ),
        "the whole old element removed, the whole new one added: {html}"
    );
    assert!(!html.contains("onclick") && !html.contains("style"), "{html}");

    let page = server.admin(Method::GET, "p/display_version?version_id=0").header("Accept", "text/html");
    let page = page.send().await.unwrap().text().await.unwrap();
    assert!(page.contains("Bern <b>Mitte</b>") && !page.contains("<x-karte"), "only comparisons show the element");
}

#[tokio::test]
async fn an_inline_image_is_the_image_object_it_names_by_file_name_and_size() {
    let server = TestServer::start().await;
    let image = |width: u32, name: &str| json!({"data": png(width, 20), "filename": name, "content-type": "image/png"});
    let mut uids = Vec::new();
    for (id, file) in [("bild", image(40, "haus.png")), ("kopie", image(40, "haus.png")), ("see", image(60, "see.png"))]
    {
        uids.push(uid(&server.create("", json!({"@type": "Image", "id": id, "title": id, "image": file})).await));
    }
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    let img =
        |target: &str, attributes: &str| format!("<p>Haus <img src=\"{}/{target}\" {attributes}></p>", server.site);
    server.create("p", text_block("t", "Bild", &img("bild/@@images/image/preview", "alt=\"Das Haus\""))).await;
    let (_, block) = server.get_json("p/t").await;
    assert!(block["text"]["data"].as_str().unwrap().contains(&format!("{}/bild/@@images/image/preview", server.site)));
    let id = snapshot(&server, "p").await;

    patch(&server, "p/t", rich(&img("bild/@@images/image/large", "alt=\"Unser Haus\" width=\"300\""))).await;
    assert_eq!(compare(&server, "p", &id).await["changes_total"], 0, "alt, width and scale are no change");

    patch(&server, "p/t", rich(&img("kopie", "alt=\"Das Haus\""))).await;
    assert_eq!(compare(&server, "p", &id).await["changes_total"], 0, "another object with the same file");

    patch(&server, "p/t", rich(&img("see", "alt=\"Das Haus\""))).await;
    let html = only_block_html(&compare(&server, "p", &id).await).to_owned();
    let resolved = |uid: &str| format!("{}/resolveuid/{uid}", server.site);
    let removed = format!(
        "<del><img alt=\"Das Haus\" src=\"{}/@@images/image/preview\" class=\"border border-3 border-danger\"></del>",
        resolved(&uids[0])
    );
    let added = format!(
        "<ins><img alt=\"Das Haus\" src=\"{}\" class=\"border border-3 border-success\"></ins>",
        resolved(&uids[2])
    );
    assert!(html.contains(&format!("{removed}{added}")), "{html}");
}
