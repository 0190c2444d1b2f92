//! `@search`: criteria, context restriction, sorting, batching, security.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

async fn corpus(server: &TestServer) {
    server.create("", json!({"@type": "Folder", "title": "Alpha", "id": "a"})).await;
    server.create("", json!({"@type": "Folder", "title": "Beta", "id": "b"})).await;
    server
        .create(
            "a",
            json!({"@type": "Document", "title": "Zebra Nachhaltigkeit", "id": "z", "subjects": ["green", "city"]}),
        )
        .await;
    server
        .create(
            "a",
            json!({"@type": "Document", "title": "apple pie", "id": "p", "subjects": ["food"],
                              "text": "<p>Ein Rezept für Nachhaltigkeit</p>"}),
        )
        .await;
    server.create("a", json!({"@type": "Folder", "title": "Deep", "id": "deep"})).await;
    server.create("a/deep", json!({"@type": "Document", "title": "Mango", "id": "m", "subjects": ["green"]})).await;
    server.create("b", json!({"@type": "Document", "title": "Banana", "id": "n", "subjects": ["food", "green"]})).await;
    server.transition("a/z", "publish").await;
}

fn ids(body: &Value) -> Vec<String> {
    let mut ids: Vec<String> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["@id"].as_str().unwrap().rsplit('/').next().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

async fn search(server: &TestServer, path: &str) -> Value {
    let (status, body) = server.get_json(path).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

#[tokio::test]
async fn results_stay_in_the_context_unless_narrowed() {
    let server = TestServer::start().await;
    corpus(&server).await;
    assert_eq!(ids(&search(&server, "a/@search").await), vec!["a", "deep", "m", "p", "z"], "context included");
    assert_eq!(
        ids(&search(&server, "a/@search?path.depth=1").await),
        vec!["deep", "p", "z"],
        "options without query: context"
    );
    assert_eq!(ids(&search(&server, "a/@search?path.query=/Plone/a/deep").await), vec!["deep", "m"]);
    assert_eq!(
        ids(&search(&server, "a/@search?path=/Plone/b").await),
        Vec::<String>::new(),
        "a string path stays inside the context"
    );
    for outside in
        ["path.query=/Plone/b&path.depth=1", "path.query=/Plone/b&path.depth=0", "path.query=/Plone&path.navtree=1"]
    {
        let found = search(&server, &format!("a/@search?{outside}")).await;
        assert!(
            ids(&found).iter().all(|id| ["a", "deep", "m", "p", "z"].contains(&id.as_str())),
            "a full query dictionary pointing outside stays inside the context ({outside}): {found}"
        );
    }
    assert_eq!(ids(&search(&server, "a/@search?path.query=/Plone/b&path.depth=1").await), Vec::<String>::new());
    assert_eq!(
        ids(&search(&server, "a/@search?path.query=/Plone&path.depth=2").await),
        vec!["a", "deep", "p", "z"],
        "a query above the context reaches only into it (m is three levels down)"
    );
    assert_eq!(ids(&search(&server, "@search?path.query=/Plone/b&path.depth=0").await), vec!["b"]);
    assert_eq!(ids(&search(&server, "@search?path.query=/a/deep&path.query=/b&path.depth=1").await), vec!["m", "n"]);
    assert_eq!(search(&server, "@search").await["items_total"], 8, "site search includes the site root");
}

#[tokio::test]
async fn index_criteria_combine() {
    let server = TestServer::start().await;
    corpus(&server).await;
    assert_eq!(ids(&search(&server, "@search?portal_type=Folder").await), vec!["a", "b", "deep"]);
    assert_eq!(ids(&search(&server, "@search?portal_type=Document&review_state=published").await), vec!["z"]);
    assert_eq!(
        ids(&search(&server, "@search?portal_type=Document&review_state.not=published").await),
        vec!["m", "n", "p"]
    );
    assert_eq!(ids(&search(&server, "@search?Subject=green").await), vec!["m", "n", "z"]);
    assert_eq!(ids(&search(&server, "@search?Subject=food&Subject=city").await), vec!["n", "p", "z"]);
    assert_eq!(
        ids(&search(&server, "@search?Subject.query=food&Subject.query=green&Subject.operator=and").await),
        vec!["n"]
    );
    assert_eq!(ids(&search(&server, "@search?Subject.not=green&portal_type=Document").await), vec!["p"]);
    let uid = search(&server, "@search?id=m&metadata_fields=UID").await["items"][0]["UID"].as_str().unwrap().to_owned();
    assert_eq!(ids(&search(&server, &format!("@search?UID={uid}")).await), vec!["m"]);
    server.settle().await;
    assert_eq!(ids(&search(&server, "@search?SearchableText=nachhaltigkeit").await), vec!["p", "z"], "title or text");
    assert_eq!(ids(&search(&server, "@search?SearchableText=Rezept%20nachhaltigkeit").await), vec!["p"], "all words");
    assert_eq!(ids(&search(&server, "@search?SearchableText=").await).len(), 8, "empty text is no criterion");
    let tomorrow = "2099-01-01";
    assert!(ids(&search(&server, &format!("@search?created.query={tomorrow}&created.range=min")).await).is_empty());
    assert_eq!(search(&server, "@search?created.query=2000-01-01&created.range=min").await["items_total"], 8);
    assert_eq!(
        search(&server, "@search?created.query=2000-01-01&created.query=2099-01-01&created.range=min:max").await["items_total"],
        8
    );
    assert_eq!(search(&server, "@search?unknown_index=x").await["items_total"], 8, "unknown indexes are ignored");
}

#[tokio::test]
async fn sorting_limits_batches_and_shapes() {
    let server = TestServer::start().await;
    corpus(&server).await;
    let body = search(&server, "@search?portal_type=Document&sort_on=sortable_title").await;
    let titles: Vec<&str> = body["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, vec!["apple pie", "Banana", "Mango", "Zebra Nachhaltigkeit"], "case-insensitive");
    let body =
        search(&server, "@search?portal_type=Document&sort_on=sortable_title&sort_order=reverse&sort_limit=2").await;
    let titles: Vec<&str> = body["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, vec!["Zebra Nachhaltigkeit", "Mango"]);
    assert_eq!(body["items_total"], 2);
    let body = search(&server, "@search?sort_on=path&b_size=3&b_start=3").await;
    assert_eq!(body["items"].as_array().unwrap().len(), 3);
    assert_eq!(body["items_total"], 8);
    assert_eq!(body["@id"], format!("{}/@search", server.site).as_str(), "without sorting or batching, as in Plone");
    let batching = &body["batching"];
    assert_eq!(batching["next"], format!("{}/@search?b_start=6&b_size=3&sort_on=path", server.site).as_str());
    assert_eq!(batching["prev"], format!("{}/@search?b_start=0&b_size=3&sort_on=path", server.site).as_str());
    let body = search(&server, "@search?id=z&metadata_fields=modified&metadata_fields=Subject").await;
    assert_eq!(body["items"][0]["Subject"], json!(["green", "city"]));
    assert!(body["items"][0]["modified"].is_string());
    let body = search(&server, "@search?id=p&fullobjects=1").await;
    assert!(body["items"][0]["text"]["data"].as_str().unwrap().contains("Rezept"));
    assert_eq!(body["items"][0]["parent"]["@id"], server.url("a").as_str());
}

#[tokio::test]
async fn malformed_queries_are_400() {
    let server = TestServer::start().await;
    for query in [
        "portal_type.operator=and",
        "path.depth=x",
        "sort_on=bogus",
        "sort_order=sideways&sort_on=path",
        "created.query=yesterday&created.range=min",
        "created.query=2020-01-01&created.range=between",
        "b_size=0",
        "sort_limit=-2",
        "Subject.query=a&Subject.operator=xor",
    ] {
        let response = server.admin(Method::GET, &format!("@search?{query}")).send().await.unwrap();
        let body = assert_error(response, 400, "invalid_parameter").await;
        assert!(!body["errors"].as_array().unwrap().is_empty(), "{query}: {body}");
    }
}

#[tokio::test]
async fn search_respects_security_and_effective_dates() {
    let server = TestServer::start().await;
    corpus(&server).await;
    server.transition("a", "publish").await;
    let anonymous = read(server.anonymous(Method::GET, "@search?portal_type=Document").send().await.unwrap()).await.1;
    assert_eq!(ids(&anonymous), vec!["z"]);
    let response =
        server.admin(Method::PATCH, "a/z").json(&json!({"expires": "2001-01-01T00:00:00+00:00"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let anonymous = read(server.anonymous(Method::GET, "@search?portal_type=Document").send().await.unwrap()).await.1;
    assert!(ids(&anonymous).is_empty(), "expired content is hidden from anonymous searches");
    assert_eq!(ids(&search(&server, "@search?id=z").await), vec!["z"], "but not from managers");
}

#[tokio::test]
async fn a_search_costs_the_same_few_queries_whatever_it_finds() {
    let server = TestServer::start_uncached().await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    for n in 0..30 {
        server.create("f", json!({"@type": "Document", "title": format!("Doc {n}")})).await;
    }
    server.user("reader", &["Reader"], &[]).await;
    let mut costs = Vec::new();
    for query in ["@search?b_size=2", "@search?b_size=25", "@search?b_size=25&fullobjects=1"] {
        server.as_user("reader", Method::GET, query).send().await.unwrap();
        let before = server.app.store.query_count();
        let (status, body) = read(server.as_user("reader", Method::GET, query).send().await.unwrap()).await;
        assert_eq!(status, 200);
        assert_eq!(body["items_total"], 32);
        costs.push(server.app.store.query_count() - before);
    }
    assert_eq!(costs[0], costs[1], "{costs:?}");
    assert!(costs[2] <= costs[1] + 1, "fullobjects loads parents in one query: {costs:?}");
}

/// What one search may ask for is bounded, for anonymous callers too, with a 400 naming the
/// limit instead of a database error.
#[tokio::test]
async fn search_input_is_bounded() {
    let server = TestServer::start().await;
    let ask = |query: String| {
        let server = &server;
        async move {
            let response = server.anonymous(Method::GET, &format!("@search?{query}")).send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap_or_default())
        }
    };
    let words = vec!["wort"; 1_000].join("+");
    let (status, body) = ask(format!("SearchableText={words}")).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("invalid_parameter")), "{body}");
    assert_eq!(body["errors"][0]["field"], "SearchableText");
    let (status, _) = ask(format!("SearchableText={}", vec!["wort"; 32].join("+"))).await;
    assert_eq!(status, 200);
    let paths: Vec<String> = (0..150).map(|i| format!("path=/plone/p{i}")).collect();
    let (status, body) = ask(paths.join("&")).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("invalid_parameter")), "{body}");
    assert_eq!(body["errors"][0]["field"], "path");
    let spread: Vec<String> = (0..300).map(|i| format!("x{i}=1")).collect();
    let (status, body) = ask(spread.join("&")).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("at most 200 parameters"), "{body}");
}
