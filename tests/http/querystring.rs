//! `@querystring` and `@querystring-search`: the queries of Volto's listing and search blocks,
//! with plone.app.querystring's operations, answered as `@search` answers.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};

const OP: &str = "plone.app.querystring.operation.";

fn titles(body: &Value) -> Vec<String> {
    body["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap().to_owned()).collect()
}

async fn site(server: &TestServer) {
    server.create("", json!({"@type": "Folder", "id": "news", "title": "News"})).await;
    server.create("news", json!({"@type": "Document", "id": "a", "title": "Alpha", "subjects": ["rot"]})).await;
    server.create("news", json!({"@type": "Document", "id": "b", "title": "Beta", "subjects": ["rot", "blau"]})).await;
    server.create("news", json!({"@type": "Folder", "id": "c", "title": "Gamma"})).await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "Delta"})).await;
    for path in ["news", "news/a"] {
        assert!(
            server
                .admin(Method::POST, &format!("{path}/@workflow/publish"))
                .send()
                .await
                .unwrap()
                .status()
                .is_success()
        );
    }
}

#[tokio::test]
async fn listing_queries_select_sort_and_page_like_plone() {
    let server = TestServer::start().await;
    site(&server).await;
    let query = |criteria: Value, extra: Value| {
        let mut body = json!({"query": criteria});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let documents = json!([{"i": "portal_type", "o": format!("{OP}selection.any"), "v": ["Document"]}]);
    let post =
        |path: &str, body: Value| server.admin(Method::POST, &format!("{path}@querystring-search")).json(&body).send();
    let (status, all) =
        read(post("", query(documents.clone(), json!({"sort_on": "sortable_title"}))).await.unwrap()).await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(titles(&all), ["Alpha", "Beta", "Delta"]);
    assert_eq!(all["items_total"], 3);
    assert!(all["@id"].as_str().unwrap().ends_with("/@querystring-search"));

    // Descending, paged, limited.
    let (_, page) = read(
        post(
            "",
            query(documents.clone(), json!({"sort_on": "sortable_title", "sort_order": "descending", "b_size": 2})),
        )
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(titles(&page), ["Delta", "Beta"]);
    assert_eq!(page["items_total"], 3);
    let next = page["batching"]["next"].as_str().unwrap_or_default();
    assert!(next.contains("/@querystring-search?") && next.contains("b_start=2"), "{page}");
    // Relative path below a page: the page itself is left out; the whole site otherwise.
    let here = json!([{"i": "path", "o": format!("{OP}string.relativePath"), "v": "."}]);
    let (_, below) = read(post("news/", query(here, json!({"sort_on": "sortable_title"}))).await.unwrap()).await;
    assert_eq!(titles(&below), ["Alpha", "Beta", "Gamma"]);
    let (_, site_wide) =
        read(post("news/a/", query(documents.clone(), json!({"sort_on": "sortable_title"}))).await.unwrap()).await;
    assert_eq!(titles(&site_wide), ["Beta", "Delta"], "site-wide, without the context itself");
    // Keywords: all of / none of; states.
    let both = json!([{"i": "Subject", "o": format!("{OP}selection.all"), "v": ["rot", "blau"]}]);
    assert_eq!(titles(&read(post("", query(both, json!({}))).await.unwrap()).await.1), ["Beta"]);
    let published = json!([{"i": "review_state", "o": format!("{OP}selection.any"), "v": ["published"]},
                           {"i": "portal_type", "o": format!("{OP}selection.none"), "v": ["Folder"]}]);
    assert_eq!(titles(&read(post("", query(published, json!({}))).await.unwrap()).await.1), ["Alpha"]);

    // The GET form, with the JSON encoded once more, as Volto sends it.
    let body = query(documents, json!({"sort_on": "sortable_title", "b_size": 1}));
    let encoded: String = url_encode(&url_encode(&body.to_string()));
    let (status, got) =
        read(server.admin(Method::GET, &format!("@querystring-search?query={encoded}")).send().await.unwrap()).await;
    assert_eq!((status, titles(&got)), (200, vec!["Alpha".to_owned()]), "{got}");

    // Anonymous visitors get only what they may see.
    let any = json!({"query": [{"i": "portal_type", "o": format!("{OP}selection.any"), "v": ["Document", "Folder"]}]});
    let (_, anonymous) =
        read(server.anonymous(Method::POST, "@querystring-search").json(&any).send().await.unwrap()).await;
    let mut seen = titles(&anonymous);
    seen.sort();
    assert_eq!(seen, ["Alpha", "News"]);

    // Refusals.
    for bad in [
        json!({}),
        json!({"query": [{"i": "Creator", "o": format!("{OP}string.currentUser"), "v": ""}]}),
        json!({"query": [{"i": "created", "o": format!("{OP}date.between"), "v": ["2020-01-01"]}]}),
    ] {
        let (status, refused) = read(post("", bad.clone()).await.unwrap()).await;
        assert_eq!((status, &refused["code"]), (400, &json!("bad_request")), "{bad}: {refused}");
    }
}

#[tokio::test]
async fn the_configuration_offers_what_the_search_runs() {
    let server = TestServer::start().await;
    let (status, config) = read(server.anonymous(Method::GET, "@querystring").send().await.unwrap()).await;
    assert_eq!(status, 200, "{config}");
    let portal_type = &config["indexes"]["portal_type"];
    assert_eq!(portal_type["operations"], json!([format!("{OP}selection.any"), format!("{OP}selection.none")]));
    assert_eq!(portal_type["values"]["Document"]["title"], "Page");
    assert_eq!(config["indexes"]["review_state"]["values"]["published"]["title"], "Published");
    assert!(config["sortable_indexes"]["sortable_title"].is_object());
    assert!(config["sortable_indexes"]["effective"].is_object());
    assert!(
        config["indexes"]["path"]["operators"][format!("{OP}string.relativePath")]["widget"] == "RelativePathWidget"
    );
}

fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
