//! The es-search plugin over HTTP: German full-text search fed from the change feed, what
//! each caller may see, block text on its page, the trash, moves and deletes, popular
//! searches, and the plugin switched off.

use crate::support::{TestServer, read, site_path};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The paths `@es-search` finds for `query` (as admin, or anonymous), below the site or
/// below the context `query` starts with (`g/@es-search?…`).
async fn found(server: &TestServer, query: &str, anonymous: bool) -> (Vec<String>, i64) {
    let path = if query.contains("@es-search") { query.to_owned() } else { format!("@es-search?{query}") };
    let request = if anonymous { server.anonymous(Method::GET, &path) } else { server.admin(Method::GET, &path) };
    let (status, body) = read(request.send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    let paths = body["items"].as_array().unwrap().iter().map(|i| site_path(&i["@id"])).collect();
    (paths, body["items_total"].as_i64().unwrap())
}

/// Waits (at most 10 s, the indexer polls every 150 ms) until `query` finds `expected`, in any
/// order.
async fn until_found(server: &TestServer, query: &str, anonymous: bool, expected: &[&str]) {
    let started = Instant::now();
    let mut expected = expected.to_vec();
    expected.sort_unstable();
    loop {
        let (mut paths, total) = found(server, query, anonymous).await;
        paths.sort();
        if paths == expected && total == expected.len() as i64 {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{query}: still {paths:?} ({total})");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn german_word_forms_find_each_other_and_the_index_follows_every_change() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "Ordner"})).await;
    let doc = json!({"@type": "Document", "id": "d", "title": "Alte Häuser", "text": "<p>An der Straße wohnt Herr Müller.</p>"});
    server.create("f", doc).await;
    for query in ["SearchableText=Haus", "SearchableText=H%C3%A4usern", "SearchableText=Strasse%20Mueller"] {
        until_found(&server, query, false, &["f/d"]).await;
    }
    until_found(&server, "SearchableText=der%20die%20das", false, &[]).await;
    // Private: anonymous callers see nothing, not even a count.
    until_found(&server, "SearchableText=Haus", true, &[]).await;
    server.transition("f", "publish").await;
    server.transition("f/d", "publish").await;
    until_found(&server, "SearchableText=Haus", true, &["f/d"]).await;

    let patch = json!({"title": "Neue Gärten"});
    assert_eq!(server.admin(Method::PATCH, "f/d").json(&patch).send().await.unwrap().status(), 204);
    until_found(&server, "SearchableText=Garten", false, &["f/d"]).await;
    until_found(&server, "SearchableText=Haus", false, &[]).await;

    server.create("", json!({"@type": "Folder", "id": "g", "title": "Ziel"})).await;
    let moved = server.admin(Method::POST, "g/@move").json(&json!({"source": server.url("f/d")})).send().await;
    assert_eq!(moved.unwrap().status(), 200);
    until_found(&server, "g/@es-search?SearchableText=Garten", false, &["g/d"]).await;
    until_found(&server, "f/@es-search?SearchableText=Garten", false, &[]).await;

    assert_eq!(server.admin(Method::POST, "g/@trash").send().await.unwrap().status(), 204);
    until_found(&server, "SearchableText=Garten", false, &[]).await;
    assert_eq!(server.admin(Method::POST, "g/@untrash").send().await.unwrap().status(), 204);
    until_found(&server, "SearchableText=Garten", false, &["g/d"]).await;
    assert_eq!(server.admin(Method::DELETE, "g").send().await.unwrap().status(), 204);
    until_found(&server, "SearchableText=Garten", false, &[]).await;
}

/// Block pages are the site profile's.
#[cfg(feature = "site-profile")]
#[tokio::test]
async fn block_text_finds_its_page_and_types_filter() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    let block =
        json!({"@type": "TextBlock", "id": "b", "title": "Abschnitt", "text": "<p>Gewächshäuser im Winter</p>"});
    server.create("p", block).await;
    until_found(&server, "SearchableText=Gew%C3%A4chshaus", false, &["p"]).await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "Gewächshaus"})).await;
    until_found(&server, "SearchableText=Gew%C3%A4chshaus&portal_type=Document", false, &["d"]).await;
    let (both, total) = found(&server, "SearchableText=Gew%C3%A4chshaus&b_size=1", false).await;
    assert_eq!((both.len(), total), (1, 2), "batched: one item, two in all");
}

/// A rebuild reads the site page by page, each page with its blocks: block text still finds its
/// page, also when another object's path sorts between the page and its blocks (`/p-x`).
#[cfg(feature = "site-profile")]
#[tokio::test]
async fn a_rebuilt_index_finds_block_pages_by_their_blocks() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    server.create("", json!({"@type": "Document", "id": "p-x", "title": "Daneben"})).await;
    let block = json!({"@type": "TextBlock", "id": "b", "title": "Abschnitt", "text": "<p>Gewächshäuser</p>"});
    server.create("p", block).await;
    server.settle().await;
    let indexed = wcs_plugin_es_search::reindex(&server.app, |_, _| {}).await.unwrap();
    assert!(indexed >= 2, "{indexed}");
    until_found(&server, "SearchableText=Gew%C3%A4chshaus", false, &["p"]).await;
    until_found(&server, "SearchableText=Daneben", false, &["p-x"]).await;
}

#[tokio::test]
async fn popular_searches_link_to_the_search() {
    let server = TestServer::start().await;
    let patch = json!({"wcs.backend.search.popular_searches": ["Abfall", "Öffnungszeiten"]});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap().status(), 204);
    let (status, body) = read(server.anonymous(Method::GET, "@popular-searches").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(
        body["items"][0],
        json!({"title": "Abfall", "@id": format!("{}/@es-search?SearchableText=Abfall", server.site)})
    );
    assert_eq!(
        body["items"][1]["@id"],
        Value::String(format!("{}/@es-search?SearchableText=%C3%96ffnungszeiten", server.site))
    );
}

#[tokio::test]
async fn without_the_plugin_es_search_is_404_and_search_still_works() {
    let server = TestServer::start_with(|c| c.plugins.disabled = vec!["es-search".into()]).await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "Alte Häuser"})).await;
    let (status, _) = read(server.admin(Method::GET, "@es-search?SearchableText=Haus").send().await.unwrap()).await;
    assert_eq!(status, 404);
    let (status, body) = server.get_json("@search?SearchableText=H%C3%A4user").await;
    assert_eq!((status, body["items_total"].as_i64()), (200, Some(1)), "{body}");
}

/// The paths and descriptions `@search` answers for `query`, once it finds `count` items.
async fn search_until(server: &TestServer, query: &str, count: usize) -> Vec<(String, Value)> {
    let started = Instant::now();
    loop {
        let (status, body) = server.get_json(&format!("@search?{query}")).await;
        assert_eq!(status, 200, "{body}");
        let items = body["items"].as_array().unwrap();
        if items.len() == count {
            return items.iter().map(|i| (site_path(&i["@id"]), i["description"].clone())).collect();
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{query}: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn search_with_text_goes_to_the_engine_relevance_first_with_highlights() {
    let server = TestServer::start().await;
    let text = "<p>Hinter den alten Häusern fließt ein Bach.</p>";
    server
        .create("", json!({"@type": "Document", "id": "text", "title": "Bach", "description": "Kurz", "text": text}))
        .await;
    server
        .create("", json!({"@type": "Document", "id": "title", "title": "Häuser am Bach", "description": "Lang"}))
        .await;
    server.create("", json!({"@type": "Folder", "id": "news", "title": "Haus"})).await;
    // `Haus` finds `Häusern` and `Häuser` only through German analysis; the title match first.
    let found = search_until(&server, "SearchableText=Haus&portal_type=Document", 2).await;
    assert_eq!(found, [("title".to_owned(), json!("Lang")), ("text".to_owned(), json!("Kurz"))]);

    for (name, value) in
        [("highlight", json!(true)), ("highlight_pre_tags", json!("<em>")), ("highlight_post_tags", json!("</em>"))]
    {
        let patch = json!({format!("collective.elasticsearch.interfaces.IElasticSettings.{name}"): value});
        assert_eq!(server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap().status(), 204);
    }
    let found = search_until(&server, "SearchableText=Haus&portal_type=Document", 2).await;
    let text_fragment = found[1].1.as_str().unwrap();
    assert!(text_fragment.contains("alten <em>Häusern</em> fließt"), "{text_fragment}");
    let (_, full) = server.get_json("@search?SearchableText=Haus&portal_type=Document&fullobjects=1").await;
    assert!(full["items"][1]["description"].as_str().unwrap().contains("<em>Häusern</em>"), "fullobjects too");
    // Criteria the engine cannot answer exactly go to SQL, which matches words as typed.
    let (_, sorted) = server.get_json("@search?SearchableText=Bach&sort_on=getId").await;
    assert_eq!(sorted["items_total"], 2);
    assert_eq!(sorted["items"][0]["description"], "Kurz", "SQL results keep their descriptions");
}

#[tokio::test]
async fn private_content_never_reaches_anonymous_callers() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "secret", "title": "Geheime Häuser"})).await;
    server.create("", json!({"@type": "Document", "id": "open", "title": "Offene Häuser"})).await;
    server.transition("open", "publish").await;
    let patch = json!({"collective.elasticsearch.interfaces.IElasticSettings.highlight": true});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap().status(), 204);
    until_found(&server, "SearchableText=Haus", false, &["open", "secret"]).await;
    until_found(&server, "SearchableText=Haus", true, &["open"]).await;
    let (_, body) = read(server.anonymous(Method::GET, "@search?SearchableText=Haus").send().await.unwrap()).await;
    assert_eq!(body["items_total"], 1, "{body}");
    assert!(!body.to_string().contains("Geheime"), "{body}");
}

#[tokio::test]
async fn facets_count_what_the_caller_may_see_before_and_after_facet_filters() {
    let server = TestServer::start().await;
    for (id, kind, subjects, public) in [
        ("d1", "Document", json!(["Bauen"]), true),
        ("d2", "Document", json!(["Bauen", "Wohnen"]), true),
        ("f1", "Folder", json!(["Wohnen"]), true),
        ("secret", "Document", json!(["Geheim"]), false),
    ] {
        server.create("", json!({"@type": kind, "id": id, "title": "Wohnungsbau", "subjects": subjects})).await;
        if public {
            server.transition(id, "publish").await;
        }
    }
    server.settle().await;
    let buckets = |body: &Value, which: &str, name: &str| -> Vec<(String, i64, String)> {
        body["elasticsearch"][which][name]["buckets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["key"].as_str().unwrap().to_owned(),
                    b["doc_count"].as_i64().unwrap(),
                    b["title"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let (_, body) = read(
        server
            .anonymous(Method::GET, "@es-search?SearchableText=Wohnungsbau&portal_type=Document")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(body["items_total"], 2);
    assert_eq!(buckets(&body, "aggregations", "portal_type"), [("Document".to_owned(), 2, "Page".to_owned())]);
    let mut original = buckets(&body, "original_aggregations", "portal_type");
    original.sort();
    assert_eq!(
        original,
        [("Document".to_owned(), 2, "Page".to_owned()), ("Folder".to_owned(), 1, "Folder".to_owned())]
    );
    let subjects = buckets(&body, "original_aggregations", "Subject");
    assert!(subjects.iter().all(|(key, _, _)| key != "Geheim"), "a private object is never counted: {subjects:?}");
    let (_, admin) = server.get_json("@es-search?SearchableText=Wohnungsbau").await;
    assert!(buckets(&admin, "aggregations", "Subject").iter().any(|(key, count, _)| key == "Geheim" && *count == 1));
    let (_, german) = read(
        server
            .admin(Method::GET, "@es-search?SearchableText=Wohnungsbau")
            .header("Accept-Language", "de")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(
        buckets(&german, "aggregations", "portal_type")
            .iter()
            .any(|(key, _, title)| key == "Document" && title == "Seite"),
        "{german}"
    );
}

/// Sets registry records as admin.
async fn set_records(server: &TestServer, records: Value) {
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&records).send().await.unwrap().status(), 204);
}

#[tokio::test]
async fn patterns_filters_and_the_domain_filter_come_from_records() {
    let server = TestServer::start().await;
    let text = "<p>Die alten Häuser am Markt.</p>";
    server
        .create("", json!({"@type": "Document", "id": "order", "title": "Markt", "text": text, "subjects": ["API"]}))
        .await;
    server
        .create("", json!({"@type": "Document", "id": "other", "title": "Häuser", "text": "<p>Alt und neu.</p>"}))
        .await;
    server.create("", json!({"@type": "Folder", "id": "folder", "title": "Alte Häuser"})).await;
    server.settle().await;
    let mut all = found(&server, "SearchableText=alte%20H%C3%A4user", false).await.0;
    all.sort();
    assert_eq!(all, ["folder", "order", "other"], "unquoted: all words anywhere");
    let mut quoted = found(&server, "SearchableText=%22alte%20H%C3%A4user%22", false).await.0;
    quoted.sort();
    assert_eq!(quoted, ["folder", "order"], "quoted: the phrase");
    let (tricky, _) = found(&server, "SearchableText=%22%7D%5D%7D%25(term)s%20%22%20H%C3%A4user", false).await;
    assert!(tricky.len() <= 3, "typed JSON stays text");

    set_records(&server, json!({"wcs.backend.search.filter": [{"terms": {"portal_type": ["Document"]}}]})).await;
    let mut documents = found(&server, "SearchableText=H%C3%A4user", false).await.0;
    documents.sort();
    assert_eq!(documents, ["order", "other"], "the global filter applies");

    set_records(&server, json!({"wcs.backend.search.api_domains": ["api.example.org"], "wcs.backend.search.api_filter": [{"term": {"Subject": "API"}}]})).await;
    let on_api =
        server.admin(Method::GET, "@es-search?SearchableText=H%C3%A4user").header("Host", "api.example.org:8080");
    let (_, body) = read(on_api.send().await.unwrap()).await;
    let paths: Vec<String> =
        body["items"].as_array().unwrap().iter().map(|i| i["@id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(paths, ["http://api.example.org:8080/Plone/order"], "an API domain gets the API filter");
    let (_, elsewhere) = server.get_json("@search?SearchableText=H%C3%A4user").await;
    assert_eq!(elsewhere["items_total"], 2, "another host does not: {elsewhere}");

    set_records(&server, json!({"wcs.backend.search.regular": {"match": {"Title": {"query": "%(term)s"}}}})).await;
    assert_eq!(
        found(&server, "SearchableText=alt", false).await.0,
        Vec::<String>::new(),
        "the pattern decides: titles only"
    );
    assert_eq!(found(&server, "SearchableText=Markt", false).await.0, ["order"]);
}

#[tokio::test]
async fn a_broken_search_record_falls_back_to_its_default() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "Rathaus"})).await;
    server.settle().await;
    // Stored before the records were checked when written (a site from an older version).
    let mut tx = server.app.store.begin().await.unwrap();
    tx.set_record("wcs.backend.search.regular", &json!({"fuzzy_everything": {"nope": 1}}).to_string()).await.unwrap();
    tx.set_record("wcs.backend.search.filter", &json!([{"match": {"nofield": "x"}}]).to_string()).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(found(&server, "SearchableText=Rathaus", false).await.0, ["d"]);
}

#[tokio::test]
async fn did_you_mean_offers_only_words_the_caller_may_find() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "open", "title": "Rathaus"})).await;
    server.transition("open", "publish").await;
    server.create("", json!({"@type": "Document", "id": "secret", "title": "Rotgaus"})).await;
    server.settle().await;
    let suggest = |body: &Value| -> Vec<String> {
        body["elasticsearch"]["suggest"]["did_you_mean"][0]["options"]
            .as_array()
            .map(|o| o.iter().map(|o| o["text"].as_str().unwrap().to_owned()).collect())
            .unwrap_or_default()
    };
    let (_, anonymous) =
        read(server.anonymous(Method::GET, "@es-search?SearchableText=Ratgaus").send().await.unwrap()).await;
    assert_eq!(anonymous["elasticsearch"]["suggest"]["did_you_mean"][0]["text"], "Ratgaus");
    assert_eq!(suggest(&anonymous), ["rathaus"], "{anonymous}");
    let (_, admin) = server.get_json("@es-search?SearchableText=Ratgaus").await;
    let mut for_admin = suggest(&admin);
    for_admin.sort();
    assert_eq!(for_admin, ["rathaus", "rotgaus"], "{admin}");
}

#[tokio::test]
async fn an_overlong_search_text_is_refused() {
    let server = TestServer::start().await;
    let long = "wort%20".repeat(300);
    for path in [format!("@es-search?SearchableText={long}"), format!("@search?SearchableText={long}")] {
        let response = server.admin(Method::GET, &path).send().await.unwrap();
        crate::support::assert_error(response, 400, "invalid_parameter").await;
    }
}

#[tokio::test]
async fn custom_fields_are_indexed_and_can_be_named_in_records() {
    let server = TestServer::start().await;
    set_records(
        &server,
        json!({"wcs.backend.search.custom_fields": {"nav_title": {"type": "keyword"}, "text": {"type": "text"}}}),
    )
    .await;
    server.create("", json!({"@type": "Document", "id": "a", "title": "Haus eins", "nav_title": "Alpha", "text": "<p>Gärten</p>"})).await;
    server.create("", json!({"@type": "Document", "id": "b", "title": "Haus zwei", "nav_title": "Beta"})).await;
    server.settle().await;
    set_records(&server, json!({"wcs.backend.search.filter": [{"term": {"nav_title": "Alpha"}}]})).await;
    assert_eq!(found(&server, "SearchableText=Haus", false).await.0, ["a"], "a keyword custom field filters");
    set_records(
        &server,
        json!({"wcs.backend.search.filter": [], "wcs.backend.search.regular": {"match": {"text": "%(term)s"}}}),
    )
    .await;
    assert_eq!(found(&server, "SearchableText=Garten", false).await.0, ["a"], "a text custom field, German analysis");
    assert_eq!(found(&server, "SearchableText=Haus", false).await.0, Vec::<String>::new());
}

#[tokio::test]
async fn volto_blocks_count_toward_the_text() {
    let server = TestServer::start().await;
    let blocks = json!({
        "b1": {"@type": "title"},
        "b2": {"@type": "slate", "value": [{"type": "p", "children": [{"text": "Nachhaltigkeit im Rathaus"}]}], "plaintext": "Nachhaltigkeit im Rathaus"},
    });
    let body = json!({"@type": "Document", "id": "v", "title": "Volto", "blocks": blocks, "blocks_layout": {"items": ["b1", "b2"]}});
    let created = server.create("", body).await;
    assert_eq!(created["blocks_layout"], json!({"items": ["b1", "b2"]}), "blocks are kept as given");
    until_found(&server, "SearchableText=Nachhaltigkeit", false, &["v"]).await;
    let deep = (0..40).fold(json!("x"), |inner, _| json!({"n": inner}));
    let response = server.admin(Method::PATCH, "v").json(&json!({"blocks": deep})).send().await.unwrap();
    crate::support::assert_error(response, 400, "validation_failed").await;
}

#[tokio::test]
async fn a_second_server_cannot_take_an_index_directory_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}?mode=rwc", dir.path().join("wcs.db").display());
    let config = || {
        let mut config = crate::support::config(database.clone());
        config.data_dir = Some(dir.path().to_path_buf());
        config
    };
    let (first, _) = wcs::open_app(config()).await.unwrap();
    let refused = wcs::open_app(config()).await.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(refused.contains("is in use by another running server"), "{refused}");
    let search = first.extensions.get::<wcs_plugin_es_search::Search>().unwrap();
    assert!(search.engine.position().unwrap().is_some(), "the first server's index is intact");
}

#[tokio::test]
async fn a_search_record_that_would_break_searches_is_refused_when_written() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "Rathaus", "subjects": ["Amt"]})).await;
    server.transition("rathaus", "publish").await;
    server.settle().await;
    let refused = [
        json!({"wcs.backend.search.aggregations": {"all": {"global": {}}}}),
        json!({"wcs.backend.search.regular": {"no_such_query": {}}}),
        json!({"collective.elasticsearch.interfaces.IElasticSettings.highlight_pre_tags": "<script>"}),
        json!({"wcs.backend.search.suggest": {"x": "y"}}),
    ];
    for body in refused {
        let response = server.admin(Method::PATCH, "@registry").json(&body).send().await.unwrap();
        let (status, error) = read(response).await;
        assert_eq!((status, &error["code"]), (400, &json!("validation_failed")), "{body}: {error}");
    }
    for anonymous in [true, false] {
        let request = if anonymous {
            server.anonymous(Method::GET, "@es-search")
        } else {
            server.admin(Method::GET, "@es-search")
        };
        let (status, body) = read(request.send().await.unwrap()).await;
        assert_eq!(status, 200, "{body}");
    }
}

/// The paths `@search` answers for `query`, sorted.
async fn searched(server: &TestServer, query: &str, anonymous: bool) -> Vec<String> {
    let path = format!("@search?{query}");
    let request = if anonymous { server.anonymous(Method::GET, &path) } else { server.admin(Method::GET, &path) };
    let (status, body) = read(request.send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    let mut paths: Vec<String> = body["items"].as_array().unwrap().iter().map(|i| site_path(&i["@id"])).collect();
    paths.sort();
    assert_eq!(body["items_total"], paths.len(), "{body}");
    paths
}

#[tokio::test]
async fn the_engine_and_sql_find_the_same_objects_working_copies_and_the_site_root_among_them() {
    let server = TestServer::start().await;
    let title = json!({"title": "Gemeinde Brunnen"});
    assert_eq!(server.admin(Method::PATCH, "").json(&title).send().await.unwrap().status(), 204);
    server.create("", json!({"@type": "Document", "id": "p", "title": "Am Markt", "text": "<p>Der Brunnen</p>"})).await;
    server.transition("p", "publish").await;
    let response = server.admin(Method::POST, "p/@workingcopy").send().await.unwrap();
    assert_eq!(response.status(), 201);
    let editor = ["", "p", "working_copy_of_p"];
    until_found(&server, "SearchableText=Brunnen", false, &editor).await;
    // The engine answers plain text queries; a sort sends the same query to SQL.
    assert_eq!(searched(&server, "SearchableText=Brunnen", false).await, editor);
    assert_eq!(searched(&server, "SearchableText=Brunnen&sort_on=getId", false).await, editor);
    // The working copy is private to its editors in both.
    assert_eq!(searched(&server, "SearchableText=Brunnen", true).await, ["", "p"]);
    assert_eq!(searched(&server, "SearchableText=Brunnen&sort_on=getId", true).await, ["", "p"]);
}

/// Plone's catalog is synchronous, and clients rely on finding what they have just written:
/// a search that begins after a write was acknowledged finds it, through `@search` (which
/// leaves a query to storage when the index lags too far) and through `@es-search` (which
/// only the index answers, so it proves the index caught up).
#[tokio::test]
async fn a_search_begun_after_an_acknowledged_write_finds_it() {
    let server = TestServer::start().await;
    server.settle().await;
    for n in 0..10 {
        let word = format!("zaunkoenig{n}");
        server.create("", json!({"@type": "Document", "title": format!("Ein {word}")})).await;
        let (paths, total) = found(&server, &format!("SearchableText={word}"), false).await;
        assert_eq!((paths, total), (vec![format!("ein-{word}")], 1), "@es-search right after the write");
        let path = format!("ein-{word}");
        let changed = json!({"title": format!("Ein {word} rotkehlchen{n}")});
        assert_eq!(server.admin(Method::PATCH, &path).json(&changed).send().await.unwrap().status(), 204);
        let (status, body) =
            read(server.admin(Method::GET, &format!("@search?SearchableText=rotkehlchen{n}")).send().await.unwrap())
                .await;
        assert_eq!((status, &body["items_total"]), (200, &json!(1)), "@search right after the change: {body}");
    }
}

#[cfg(feature = "multilingual")]
#[tokio::test]
async fn each_language_is_searched_with_its_own_analysis() {
    let server = TestServer::start().await;
    let languages = json!({"default_language": "de", "available_languages": ["de", "fr", "en"]});
    let response = server.admin(Method::PATCH, "@controlpanels/language").json(&languages).send().await.unwrap();
    assert_eq!(response.status(), 204);
    server.create("de", json!({"@type": "Document", "id": "haeuser", "title": "Alte Häuser"})).await;
    server.create("fr", json!({"@type": "Document", "id": "maisons", "title": "Les maisons anciennes"})).await;
    server.create("en", json!({"@type": "Document", "id": "houses", "title": "The old houses"})).await;
    until_found(&server, "SearchableText=maison&Language=fr", false, &["fr/maisons"]).await;
    until_found(&server, "SearchableText=maison", false, &["fr/maisons"]).await;
    until_found(&server, "SearchableText=maison&Language=de", false, &[]).await;
    until_found(&server, "SearchableText=house&Language=en", false, &["en/houses"]).await;
    until_found(&server, "SearchableText=haus", false, &["de/haeuser"]).await;
    // `@search` asks the engine too, in the language it names.
    let (status, body) = server.get_json("@search?SearchableText=maison&Language=fr").await;
    assert_eq!(status, 200, "{body}");
    let paths: Vec<String> = body["items"].as_array().unwrap().iter().map(|i| site_path(&i["@id"])).collect();
    assert_eq!(paths, ["fr/maisons"]);
    let (_, body) = server.get_json("@search?SearchableText=maison&Language=en").await;
    assert_eq!(body["items_total"], 0);
}
