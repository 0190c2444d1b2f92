//! Block pages: types, layout, the extended folder serializer, listing blocks, default pages
//! and links between blocks.

use crate::images::png;
use crate::support::{TestServer, assert_error, read, site_path, uid};
use reqwest::Method;
use serde_json::{Value, json};

fn layout_uids(page: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for row in page["simplelayout"]["default"].as_array().unwrap() {
        for col in row["cols"].as_array().unwrap() {
            out.extend(col["blocks"].as_array().unwrap().iter().map(|b| b["uid"].as_str().unwrap().to_owned()));
        }
    }
    out
}

/// A page `p` with text blocks a, b, c (in that order).
async fn page_with_blocks(server: &TestServer) -> (String, String, String) {
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    let mut uids = Vec::new();
    for id in ["a", "b", "c"] {
        let block = server
            .create(
                "p",
                json!({"@type": "TextBlock", "id": id, "title": id.to_uppercase(), "text": format!("<p>{id}</p>")}),
            )
            .await;
        uids.push(uid(&block));
    }
    (uids[0].clone(), uids[1].clone(), uids[2].clone())
}

#[tokio::test]
async fn block_types_validate_and_live_only_in_pages() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "P"})).await;
    let response =
        server.admin(Method::POST, "f").json(&json!({"@type": "TextBlock", "title": "x"})).send().await.unwrap();
    assert_error(response, 400, "disallowed_type").await;
    let text = server.create("p", json!({"@type": "TextBlock", "title": "T"})).await;
    assert_eq!(text["show_title"], true);
    assert_eq!(text["block-configuration"], json!({}));
    let bad = json!({"@type": "VideoBlock", "video_url": "https://example.org/v/1"});
    let body =
        assert_error(server.admin(Method::POST, "p").json(&bad).send().await.unwrap(), 400, "validation_failed").await;
    assert_eq!(body["errors"][0]["field"], "video_url");
    let video = server.create("p", json!({"@type": "VideoBlock", "video_url": "https://youtu.be/abc_DEF-1"})).await;
    assert_eq!(video["show_title"], false);
    let config = json!({"block-configuration": {"scale": "sl_textblock_small", "imagefloat": "left"}});
    let response = server.admin(Method::PATCH, &site_path(&text["@id"])).json(&config).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, stored) = server.get_json(&site_path(&text["@id"])).await;
    assert_eq!(stored["block-configuration"]["imagefloat"], "left");
    let nested = json!({"block-configuration": {"deep": {"x": 1}}});
    let response = server.admin(Method::PATCH, &site_path(&text["@id"])).json(&nested).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    server.create("", json!({"@type": "NewsFolder", "id": "news", "title": "News"})).await;
    let undated = json!({"@type": "News", "title": "Undated"});
    assert_error(server.admin(Method::POST, "news").json(&undated).send().await.unwrap(), 400, "validation_failed")
        .await;

    // A browser is sent from a block to its page.
    let html = server
        .raw(Method::GET, &server.url(&site_path(&text["@id"])))
        .basic_auth("admin", Some(crate::support::ADMIN_PASSWORD))
        .send()
        .await
        .unwrap();
    assert_eq!(html.status(), 302);
    assert_eq!(html.headers()["location"], format!("{}#{}", server.url("p"), uid(&text)).as_str());
}

#[tokio::test]
async fn pages_place_every_block_and_list_only_other_children() {
    let server = TestServer::start().await;
    let (a, b, c) = page_with_blocks(&server).await;
    server.create("p", json!({"@type": "ContentPage", "id": "sub", "title": "Unterseite"})).await;
    let (_, page) = server.get_json("p").await;
    assert_eq!(layout_uids(&page), vec![a.clone(), b.clone(), c.clone()], "unplaced blocks are appended");
    assert_eq!(page["slblocks"].as_object().unwrap().len(), 3);
    assert_eq!(page["slblocks"][&a]["text"]["data"], "<p>a</p>");
    assert_eq!(page["slblocks"][&a]["block-configuration"], json!({}));
    let ids: Vec<&str> = page["items"].as_array().unwrap().iter().map(|i| i["@id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec![server.url("p/sub")], "blocks are not items");
    assert_eq!(page["items_total"], 1);
    // Full-text search finds the page through its blocks, never the blocks.
    server.settle().await;
    let (_, found) = server.get_json("@search?SearchableText=Unterseite").await;
    assert_eq!(found["items_total"], 1);
    let (_, found) = server.get_json("@search?SearchableText=a").await;
    assert!(found["items"].as_array().unwrap().iter().all(|i| i["@type"] != "TextBlock"), "{found}");
    let (_, by_type) = server.get_json("@search?portal_type=TextBlock").await;
    assert_eq!(by_type["items_total"], 0);
}

#[tokio::test]
async fn layout_and_child_order_are_one() {
    let server = TestServer::start().await;
    let (a, b, c) = page_with_blocks(&server).await;
    let stranger = server.create("", json!({"@type": "Document", "title": "Elsewhere"})).await;
    let unknown = "f".repeat(32);
    let layout = json!({"simplelayout": {"default": [
        {"cols": [{"blocks": [{"uid": c}, {"uid": unknown}]}]},
        {"cols": [{"blocks": [{"uid": a}], "width": 8}, {"blocks": [], "width": 4}]}]}});
    let response = server.admin(Method::PATCH, "p").json(&layout).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, page) = server.get_json("p").await;
    assert_eq!(layout_uids(&page), vec![c.clone(), a.clone(), b.clone()], "unknown dropped, b appended");
    assert_eq!(page["simplelayout"]["default"][1]["cols"][0]["width"], 8);

    // The standard ordering PATCH moves the block in the layout, keeping rows and widths.
    let ordering = json!({"ordering": {"obj_id": "b", "delta": "top"}});
    assert_eq!(server.admin(Method::PATCH, "p").json(&ordering).send().await.unwrap().status(), 204);
    let (_, page) = server.get_json("p").await;
    assert_eq!(layout_uids(&page), vec![b.clone(), c.clone(), a.clone()]);
    assert_eq!(page["simplelayout"]["default"][1]["cols"][0]["width"], 8);
    // ...and a layout PATCH reorders the children: moving "a" one down puts it last.
    let layout = json!({"simplelayout": {"default": [{"cols": [{"blocks": [{"uid": a}, {"uid": b}, {"uid": c}]}]}]}});
    assert_eq!(server.admin(Method::PATCH, "p").json(&layout).send().await.unwrap().status(), 204);
    let ordering = json!({"ordering": {"obj_id": "a", "delta": 1, "subset_ids": ["a", "b", "c"]}});
    assert_eq!(server.admin(Method::PATCH, "p").json(&ordering).send().await.unwrap().status(), 204);
    let (_, page) = server.get_json("p").await;
    assert_eq!(layout_uids(&page), vec![b.clone(), a.clone(), c.clone()]);

    // Another object's uid, or a malformed layout, is refused.
    let foreign = json!({"simplelayout": {"default": [{"cols": [{"blocks": [{"uid": uid(&stranger)}]}]}]}});
    let body =
        assert_error(server.admin(Method::PATCH, "p").json(&foreign).send().await.unwrap(), 400, "validation_failed")
            .await;
    assert_eq!(body["errors"][0]["field"], "simplelayout");
    for bad in [
        json!({"default": [{"cols": []}]}),
        json!({"default": "x"}),
        json!({"default": [{"cols": [{"blocks": [{"uid": a}]}, {"blocks": [{"uid": a}]}]}]}),
    ] {
        let response = server.admin(Method::PATCH, "p").json(&json!({"simplelayout": bad})).send().await.unwrap();
        assert_error(response, 400, "validation_failed").await;
    }
}

#[tokio::test]
async fn file_and_gallery_blocks_list_their_contents_sorted() {
    let server = TestServer::start_uncached().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "P"})).await;
    let files = server
        .create("p", json!({"@type": "FileListingBlock", "id": "files", "title": "Downloads", "sort_on": "sortable_title", "sort_order": "descending"}))
        .await;
    for name in ["alpha", "beta"] {
        let file = json!({"@type": "File", "title": name, "file": {"data": "aGVsbG8=", "encoding": "base64", "filename": format!("{name}.txt")}});
        server.create("p/files", file).await;
    }
    let gallery = server.create("p", json!({"@type": "GalleryBlock", "id": "gallery", "title": "Bilder"})).await;
    server
        .create(
            "p/gallery",
            json!({"@type": "Image", "title": "Bild", "image": {"data": png(400, 200), "filename": "b.png"}}),
        )
        .await;
    let response =
        server.admin(Method::POST, "p/gallery").json(&json!({"@type": "File", "title": "x"})).send().await.unwrap();
    assert_error(response, 400, "disallowed_type").await;
    let before = server.app.store.query_count();
    let (_, page) = server.get_json("p").await;
    let page_cost = server.app.store.query_count() - before;
    let listed = &page["slblocks"][uid(&files)];
    let titles: Vec<&str> = listed["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, vec!["beta", "alpha"]);
    assert!(listed["items"][0]["file"]["download"].as_str().unwrap().contains("@@download/file"));
    let (_, direct) = server.get_json("p/files").await;
    let direct_titles: Vec<&str> =
        direct["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(direct_titles, titles, "a block fetched alone lists the same, sorted the same");
    let image = &page["slblocks"][uid(&gallery)]["items"][0]["image"];
    assert_eq!(image["scales"]["thumb"]["width"], 128);
    // More blocks do not mean more queries.
    for n in 0..5 {
        server.create("p", json!({"@type": "TextBlock", "title": format!("t{n}"), "text": "<p>x</p>"})).await;
    }
    let before = server.app.store.query_count();
    server.get_json("p").await;
    // At most: the local roles read for the first view may be remembered since.
    let cost = server.app.store.query_count() - before;
    assert!(cost <= page_cost, "{cost} statements with 5 more blocks, {page_cost} before");
}

#[tokio::test]
async fn news_are_listed_newest_first_and_listing_blocks_follow_the_query_string() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "NewsFolder", "id": "news", "title": "Aktuelles"})).await;
    let today = chrono::Utc::now();
    for (id, days_ago, subject) in
        [("old", 400, "Bau"), ("mid", 10, "Kultur"), ("new", 1, "Bau"), ("newer", 0, "Kultur")]
    {
        let date = (today - chrono::Duration::days(days_ago)).to_rfc3339();
        server
            .create("news", json!({"@type": "News", "id": id, "title": id, "news_date": date, "subjects": [subject]}))
            .await;
    }
    let (_, folder) = server.get_json("news").await;
    let ids: Vec<String> = folder["items"].as_array().unwrap().iter().map(|i| site_path(&i["@id"])).collect();
    assert_eq!(ids, vec!["news/newer", "news/new", "news/mid", "news/old"]);

    let block = server
        .create("news", json!({"@type": "NewsListingBlock", "title": "Neueste", "quantity": 2, "maximum_age": 30}))
        .await;
    let (_, folder) = server.get_json("news").await;
    assert_eq!(folder["items_total"], 4, "the listing block is no item");
    let listing = &folder["slblocks"][uid(&block)];
    let titles = |l: &Value| {
        l["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(titles(listing), vec!["newer", "new"]);
    assert_eq!(listing["items_total"], 3, "the 400-day-old entry is too old");
    assert!(listing["items"][0]["news_date"].is_string());
    assert!(listing["batching"]["next"].as_str().unwrap().contains("b_start=2"));
    let (_, next) = server.get_json("news?b_start=2").await;
    assert_eq!(titles(&next["slblocks"][uid(&block)]), vec!["mid"]);
    let (_, filtered) = server.get_json("news?Subject=Kultur").await;
    assert_eq!(titles(&filtered["slblocks"][uid(&block)]), vec!["newer", "mid"]);
    let patch = json!({"subjects": ["Bau"], "maximum_age": 0});
    assert_eq!(server.admin(Method::PATCH, &site_path(&block["@id"])).json(&patch).send().await.unwrap().status(), 204);
    let (_, bau) = server.get_json("news?b_size=10").await;
    assert_eq!(titles(&bau["slblocks"][uid(&block)]), vec!["new", "old"]);
    let (_, bad) = server.get_json("news?Subject.operator=xor&Subject.query=Bau").await;
    assert_eq!(bad["code"], "invalid_parameter", "{bad}");
}

#[tokio::test]
async fn a_default_page_is_serialized_into_its_folder() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    server
        .create("f", json!({"@type": "Document", "id": "start", "title": "Startseite", "text": "<p>Hallo</p>"}))
        .await;
    server.create("f", json!({"@type": "Folder", "id": "sub", "title": "Sub"})).await;
    server.create("f/sub", json!({"@type": "Document", "id": "deep", "title": "Deep"})).await;
    let (_, folder) = server.get_json("f").await;
    assert_eq!(folder["default_page"], Value::Null);
    assert_eq!(folder["default_page_object"], Value::Null);
    let response = server.admin(Method::PATCH, "f").json(&json!({"default_page": "start"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, folder) = server.get_json("f").await;
    assert_eq!(folder["default_page"], "start");
    assert_eq!(folder["default_page_object"]["title"], "Startseite");
    assert_eq!(folder["default_page_object"]["text"]["data"], "<p>Hallo</p>");
    let sub = folder["items"].as_array().unwrap().iter().find(|i| i["title"] == "Sub").unwrap();
    assert!(sub.get("items").is_none(), "items are never recursive");
    let response = server.admin(Method::PATCH, "f").json(&json!({"default_page": "missing"})).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    let response = server.admin(Method::PATCH, "f").json(&json!({"default_page": 3})).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    // Hidden from the caller: the setting shows, the page does not.
    server.transition("f", "publish").await;
    let (_, public) = read(server.anonymous(Method::GET, "f").send().await.unwrap()).await;
    assert_eq!(public["default_page"], "start");
    assert_eq!(public["default_page_object"], Value::Null);
}

#[tokio::test]
async fn links_between_blocks_follow_copies_and_moves() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "P"})).await;
    server.create("", json!({"@type": "Folder", "id": "archiv", "title": "Archiv"})).await;
    let target = server.create("p", json!({"@type": "TextBlock", "id": "ziel", "title": "Ziel"})).await;
    let text = format!(
        "<p><a href=\"{}\">zum Ziel</a> <a href=\"{}\">Archiv</a></p>",
        server.url("p/ziel"),
        server.url("archiv")
    );
    let source =
        server.create("p", json!({"@type": "TextBlock", "id": "quelle", "title": "Quelle", "text": text})).await;
    assert!(source["text"]["data"].as_str().unwrap().contains(&server.url("p/ziel")));
    let layout =
        json!({"simplelayout": {"default": [{"cols": [{"blocks": [{"uid": uid(&source)}, {"uid": uid(&target)}]}]}]}});
    assert_eq!(server.admin(Method::PATCH, "p").json(&layout).send().await.unwrap().status(), 204);

    let response =
        server.admin(Method::POST, "archiv/@copy").json(&json!({"source": server.url("p")})).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let (_, copy) = server.get_json("archiv/p").await;
    let copied_uids = layout_uids(&copy);
    assert_eq!(copied_uids.len(), 2);
    assert!(!copied_uids.contains(&uid(&source)), "the copy's layout names the copied blocks");
    let copied_source = &copy["slblocks"][&copied_uids[0]];
    assert_eq!(copied_source["title"], "Quelle");
    let data = copied_source["text"]["data"].as_str().unwrap();
    assert!(data.contains(&server.url("archiv/p/ziel")), "the link follows to the copied block: {data}");
    assert!(data.contains(&format!("\"{}\"", server.url("archiv"))), "other links stay: {data}");

    let response =
        server.admin(Method::POST, "archiv/@move").json(&json!({"source": server.url("p")})).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let (_, moved) = server.get_json("archiv/p-1").await;
    assert_eq!(layout_uids(&moved), vec![uid(&source), uid(&target)]);
    let data = moved["slblocks"][uid(&source)]["text"]["data"].as_str().unwrap().to_owned();
    assert!(data.contains(&server.url("archiv/p-1/ziel")), "{data}");
}
