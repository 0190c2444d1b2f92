//! The navigation plugin: `@navigation` (depth, nav_title, exclude_from_nav, subtopics under
//! every main topic, security) and `@navroot`.

use crate::images::{fetch_image, png};
use crate::support::{TestServer, assert_error, read, site_path};
use reqwest::Method;
use serde_json::{Value, json};

fn titles(items: &Value) -> Vec<String> {
    items.as_array().expect("items").iter().map(|i| i["title"].as_str().unwrap().to_owned()).collect()
}

fn find<'a>(items: &'a Value, title: &str) -> &'a Value {
    items.as_array().unwrap().iter().find(|i| i["title"] == title).unwrap_or_else(|| panic!("{title} in {items}"))
}

/// Topics `energy` and `mobility`; subtopic `solar` lives in `energy` but also names
/// `mobility`; a page below `solar`; a hidden folder and a file.
async fn site(server: &TestServer) -> Value {
    let energy = server.create("", json!({"@type": "Topic", "title": "Energy", "id": "energy"})).await;
    let mobility = server
        .create("", json!({"@type": "Topic", "title": "Mobility", "id": "mobility", "nav_title": "Getting around"}))
        .await;
    server
        .create(
            "energy",
            json!({"@type": "SubTopic", "title": "Solar", "id": "solar", "main_topics": [energy["UID"], mobility["UID"]]}),
        )
        .await;
    server.create("energy/solar", json!({"@type": "Document", "title": "Panels", "id": "panels"})).await;
    server.create("", json!({"@type": "Folder", "title": "Hidden", "id": "hidden", "exclude_from_nav": true})).await;
    server.create("hidden", json!({"@type": "Document", "title": "Inside", "id": "inside"})).await;
    let file = json!({"@type": "File", "title": "Leaflet", "id": "leaflet",
                      "file": {"data": "aGVsbG8=", "encoding": "base64", "filename": "leaflet.txt"}});
    server.create("energy", file).await;
    mobility
}

#[tokio::test]
async fn top_level_tabs_with_home_nav_titles_and_hidden_items() {
    let server = TestServer::start().await;
    site(&server).await;
    let (status, nav) = server.get_json("@navigation").await;
    assert_eq!(status, 200, "{nav}");
    assert_eq!(nav["@id"], server.url("@navigation"));
    assert_eq!(titles(&nav["items"]), vec!["Home", "Energy", "Getting around"], "nav_title wins; hidden stays out");
    assert_eq!(nav["items"][1]["items"], json!([]), "depth 1 lists tabs only");
    assert_eq!(nav["items"][1]["icon"], "contenttype/topic");

    let (_, inside) = server.get_json("hidden/inside/@navigation").await;
    assert!(titles(&inside["items"]).contains(&"Hidden".to_owned()), "an excluded item on the request path shows");
    let hidden = find(&inside["items"], "Hidden");
    assert_eq!(hidden["is_in_path"], true);
    assert_eq!(hidden["is_current"], false);
}

#[tokio::test]
async fn subtopics_appear_under_every_main_topic() {
    let server = TestServer::start().await;
    site(&server).await;
    let (_, nav) = server.get_json("@navigation?expand.navigation.depth=3").await;
    let energy = find(&nav["items"], "Energy");
    assert_eq!(titles(&energy["items"]), vec!["Solar", "Leaflet"]);
    let mobility = find(&nav["items"], "Getting around");
    assert_eq!(titles(&mobility["items"]), vec!["Solar"], "placed under its second topic too");
    let solar = &mobility["items"][0];
    assert_eq!(site_path(&solar["@id"]), "energy/solar", "the link stays the physical URL");
    assert_eq!(titles(&solar["items"]), vec!["Panels"], "with its own subtree");

    let leaflet = find(&energy["items"], "Leaflet");
    assert_eq!(leaflet["use_view_action_in_listings"], true);
    assert!(!leaflet["@id"].as_str().unwrap().contains("@@download"), "never a download link");

    let (_, two) = server.get_json("@navigation?expand.navigation.depth=2").await;
    let solar = &find(&two["items"], "Getting around")["items"][0];
    assert_eq!(solar["items"], json!([]), "depth bounds placed subtrees as well");
}

#[tokio::test]
async fn navigation_respects_security_and_checks_its_input() {
    let server = TestServer::start().await;
    site(&server).await;
    server.transition("energy", "publish").await;
    server.transition("energy/solar", "publish").await;
    let response = server.anonymous(Method::GET, "@navigation?expand.navigation.depth=3").send().await.unwrap();
    let (status, nav) = read(response).await;
    assert_eq!(status, 200);
    assert_eq!(titles(&nav["items"]), vec!["Home", "Energy"], "private topics stay hidden");
    let energy = find(&nav["items"], "Energy");
    assert_eq!(titles(&energy["items"]), vec!["Solar", "Leaflet"], "files without workflow follow their container");
    assert_eq!(energy["items"][0]["items"], json!([]), "the private page below Solar stays hidden");
    for bad in ["0", "11", "deep"] {
        let response = server.admin(Method::GET, &format!("@navigation?expand.navigation.depth={bad}")).send().await;
        assert_error(response.unwrap(), 400, "invalid_parameter").await;
    }
}

#[tokio::test]
async fn navigation_expands_only_on_the_requested_object() {
    let server = TestServer::start().await;
    site(&server).await;
    let (_, energy) = server.get_json("energy?expand=navigation&fullobjects=1").await;
    let expanded = &energy["@components"]["navigation"];
    assert_eq!(titles(&expanded["items"]), vec!["Home", "Energy", "Getting around"]);
    let child = &energy["items"][0];
    assert_eq!(
        child["@components"]["navigation"],
        json!({"@id": format!("{}/@navigation", child["@id"].as_str().unwrap())})
    );

    let link = json!({"@type": "Link", "title": "To solar", "id": "to-solar", "remoteUrl": server.url("energy/solar")});
    server.create("", link).await;
    let (_, nav) = server.get_json("@navigation").await;
    assert_eq!(find(&nav["items"], "To solar")["remoteUrl"], server.url("energy/solar"));
    let rename = json!({"id": "sun"});
    assert_eq!(server.admin(Method::PATCH, "energy/solar").json(&rename).send().await.unwrap().status(), 204);
    let (_, nav) = server.get_json("@navigation").await;
    assert_eq!(find(&nav["items"], "To solar")["remoteUrl"], server.url("energy/sun"), "links follow renames");
}

#[tokio::test]
async fn navroot_is_the_site_without_components() {
    let server = TestServer::start().await;
    site(&server).await;
    let (status, body) = server.get_json("energy/solar/@navroot").await;
    assert_eq!(status, 200);
    assert_eq!(body["@id"], server.url("energy/solar/@navroot"));
    assert_eq!(body["navroot"]["@id"], server.url(""));
    assert_eq!(body["navroot"]["@type"], "Plone Site");
    assert!(body["navroot"].get("@components").is_none());
    let (_, expanded) = server.get_json("energy?expand=navroot").await;
    assert_eq!(expanded["@components"]["navroot"]["navroot"]["@id"], server.url(""));
}

#[tokio::test]
async fn displayed_types_record_limits_navigation() {
    let server = TestServer::start().await;
    site(&server).await;
    let patch = json!({"wcs.backend.navigation.displayed_types": ["Topic"]});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap().status(), 204);
    let (_, nav) = server.get_json("@navigation?expand.navigation.depth=2").await;
    assert_eq!(titles(&find(&nav["items"], "Energy")["items"]), Vec::<String>::new());
}

#[tokio::test]
async fn navigation_costs_the_same_few_queries_whatever_the_site_size() {
    let server = TestServer::start_uncached().await;
    let mut topics = Vec::new();
    for n in 0..3 {
        topics.push(server.create("", json!({"@type": "Topic", "title": format!("Topic {n}")})).await["UID"].clone());
    }
    server.user("reader", &["Reader"], &[]).await;
    let mut costs = Vec::new();
    for round in 0..2 {
        for n in 0..4 {
            let sub = json!({"@type": "SubTopic", "title": format!("Sub {round}-{n}"), "main_topics": topics});
            let sub = server.create("topic-0", sub).await;
            server.create(&site_path(&sub["@id"]), json!({"@type": "Document", "title": "Page"})).await;
        }
        let query = "@navigation?expand.navigation.depth=3";
        server.as_user("reader", Method::GET, query).send().await.unwrap();
        let before = server.app.store.query_count();
        let (status, nav) = read(server.as_user("reader", Method::GET, query).send().await.unwrap()).await;
        assert_eq!(status, 200);
        assert_eq!(find(&nav["items"], "Topic 2")["items"].as_array().unwrap().len(), 4 * (round + 1));
        costs.push(server.app.store.query_count() - before);
    }
    assert_eq!(costs[0], costs[1], "no query per item: {costs:?}");
}

#[tokio::test]
async fn navigation_items_carry_thumbnails() {
    let server = TestServer::start().await;
    let body = json!({"@type": "Image", "title": "Pic", "id": "pic",
                      "image": {"data": png(40, 20), "filename": "pic.png", "content-type": "image/png"}});
    server.create("", body).await;
    server.create("", json!({"@type": "Folder", "title": "Plain", "id": "plain"})).await;
    let (status, nav) = read(server.admin(Method::GET, "@navigation").send().await.unwrap()).await;
    assert_eq!(status, 200);
    let items: &Vec<Value> = nav["items"].as_array().unwrap();
    let pic = items.iter().find(|i| i["title"] == "Pic").unwrap();
    let thumb = pic["thumb"].as_str().unwrap();
    assert!(thumb.contains("/pic/@@images/image/thumb?_t="), "{thumb}");
    assert_eq!(fetch_image(&server, thumb, Some("admin")).await, (200, Some((40, 20))));
    assert_eq!(items.iter().find(|i| i["title"] == "Plain").unwrap()["thumb"], Value::Null);
}

#[tokio::test]
async fn blocks_never_show_in_navigation() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "title": "Page", "id": "page"})).await;
    server.create("page", json!({"@type": "TextBlock", "title": "Block", "id": "block"})).await;
    server.create("page", json!({"@type": "GalleryBlock", "title": "Gallery", "id": "gallery"})).await;
    server
        .create(
            "page/gallery",
            json!({"@type": "Image", "title": "Pic", "image": {"data": png(20, 20), "filename": "p.png"}}),
        )
        .await;
    server.create("page", json!({"@type": "ContentPage", "title": "Subpage", "id": "sub"})).await;
    let (status, nav) = server.get_json("page/@navigation?expand.navigation.depth=3").await;
    assert_eq!(status, 200);
    let page = find(&nav["items"], "Page");
    assert_eq!(titles(&page["items"]), vec!["Subpage"]);
}

#[tokio::test]
async fn navigation_is_computed_once_per_request_as_component_and_as_endpoint() {
    let server = TestServer::start_uncached().await;
    site(&server).await;
    server.user("reader", &["Reader"], &[]).await;
    // Measured on a second request: settings, once read, are remembered.
    let queries = |path: &'static str| {
        let server = &server;
        async move {
            server.as_user("reader", Method::GET, path).send().await.unwrap();
            let before = server.app.store.query_count();
            let status = server.as_user("reader", Method::GET, path).send().await.unwrap().status();
            (status.as_u16(), server.app.store.query_count() - before)
        }
    };
    // Traversal and the permission check alone: the depth parameter fails before any tree.
    let (status, bare_endpoint) = queries("energy/@navigation?expand.navigation.depth=0").await;
    assert_eq!(status, 400);
    let (_, endpoint) = queries("energy/@navigation?expand.navigation.depth=2").await;
    let (_, content) = queries("energy").await;
    let (_, expanded) = queries("energy?expand=navigation&expand.navigation.depth=2").await;
    let tree = endpoint - bare_endpoint;
    assert!(tree > 0, "the tree takes queries");
    assert_eq!(expanded - content, tree, "the component computes the tree once, as the endpoint does");
    let (_, both) = queries("energy?expand=navigation,navroot,breadcrumbs&expand.navigation.depth=2").await;
    let (_, others) = queries("energy?expand=navroot,breadcrumbs").await;
    assert_eq!(both - others, tree, "other components do not compute it again");
}

#[tokio::test]
async fn breadcrumbs_show_nav_titles_through_the_plugin_only() {
    for (disabled, expected) in [(vec![], "Getting around"), (vec!["navigation".to_owned()], "Mobility")] {
        let server = TestServer::start_with(|c| c.plugins.disabled = disabled).await;
        let topic = json!({"@type": "Topic", "title": "Mobility", "id": "mobility", "nav_title": "Getting around"});
        server.create("", topic).await;
        let (status, crumbs) = server.get_json("mobility/@breadcrumbs").await;
        assert_eq!(status, 200);
        assert_eq!(crumbs["items"][0]["title"], expected);
    }
}

/// Without the answer cache (an editor's requests never use it), a tree is built once and
/// shared by the callers who may see the same objects, until a commit changes anything.
#[tokio::test]
async fn a_tree_is_shared_by_callers_who_see_the_same_until_something_changes() {
    let server = TestServer::start_with(|config| config.edge.answer_cache.max_age = std::time::Duration::ZERO).await;
    site(&server).await;
    server.transition("energy", "publish").await;
    let query = "@navigation?expand.navigation.depth=3";
    let costed = async || {
        let before = server.app.store.query_count();
        let (status, nav) = server.get_json(query).await;
        assert_eq!(status, 200);
        (nav, server.app.store.query_count() - before)
    };
    // The search index taking in the writes moves the generation on, so wait for it; a late
    // batch may still make a read build again.
    server.settle().await;
    let (built, building) = costed().await;
    let mut costs = vec![building];
    for _ in 0..5 {
        let (shared, sharing) = costed().await;
        assert_eq!(shared, built);
        costs.push(sharing);
    }
    assert!(
        costs.iter().any(|cost| *cost < building),
        "a later request shares the tree built by the first (statements per request): {costs:?}"
    );

    // Another caller sees only what it may: the anonymous tree is its own.
    let anonymous = server.anonymous(Method::GET, query).send().await.unwrap();
    assert_eq!(titles(&read(anonymous).await.1["items"]), vec!["Home", "Energy"]);

    // A change shows on the next request of everyone.
    let rename = server.admin(Method::PATCH, "energy").json(&json!({"title": "Power"}));
    assert_eq!(rename.send().await.unwrap().status(), 204);
    assert_eq!(titles(&server.get_json(query).await.1["items"]), vec!["Home", "Power", "Getting around"]);
    server.transition("mobility", "publish").await;
    let anonymous = server.anonymous(Method::GET, query).send().await.unwrap();
    assert_eq!(titles(&read(anonymous).await.1["items"]), vec!["Home", "Power", "Getting around"]);
}
