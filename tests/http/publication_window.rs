//! Embargoed content (effective in the future) and expired content are left out of listings,
//! navigation and search for callers without `Access inactive content`, as Plone's catalog
//! leaves them out; the objects themselves stay readable by their URL.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};

/// A published folder `news` with a current, an embargoed and an expired page, and the
/// editor `eva` (global Editor).
async fn site() -> TestServer {
    let server = TestServer::start().await;
    server.user("eva", &["Editor"], &[]).await;
    server.user("max", &["Member"], &[]).await;
    server.create("", json!({"@type": "Folder", "title": "News", "id": "news"})).await;
    let pages = [
        ("current", json!(null), json!(null)),
        ("embargoed", json!("2999-01-01T00:00:00+00:00"), json!(null)),
        ("expired", json!(null), json!("2000-01-01T00:00:00+00:00")),
    ];
    for (id, effective, expires) in pages {
        let body = json!({"@type": "Document", "title": format!("Window {id}"), "id": id,
                          "effective": effective, "expires": expires});
        server.create("news", body).await;
    }
    for path in ["news", "news/current", "news/embargoed", "news/expired"] {
        server.transition(path, "publish").await;
    }
    // A published folder that is itself embargoed, for the navigation tree.
    server
        .create(
            "",
            json!({"@type": "Folder", "title": "Window later", "id": "later",
                             "effective": "2999-01-01T00:00:00+00:00"}),
        )
        .await;
    server.transition("later", "publish").await;
    server.settle().await;
    server
}

fn as_caller(server: &TestServer, who: &str, path: &str) -> reqwest::RequestBuilder {
    match who {
        "anonymous" => server.anonymous(Method::GET, path),
        "editor" => server.as_user("eva", Method::GET, path),
        user => server.as_user(user, Method::GET, path),
    }
}

/// Which of the window pages (by title suffix) `text` names.
fn named(text: &str) -> Vec<&'static str> {
    ["current", "embargoed", "expired", "later"]
        .into_iter()
        .filter(|id| text.contains(&format!("Window {id}")))
        .collect()
}

#[tokio::test]
async fn listings_navigation_and_search_hide_what_is_outside_its_window() {
    let server = site().await;
    let mut reads = vec![
        ("news?b_size=100", vec!["current", "embargoed", "expired"]),
        ("@search?SearchableText=window&b_size=100", vec!["current", "embargoed", "expired", "later"]),
        ("@search?portal_type=Document&b_size=100", vec!["current", "embargoed", "expired"]),
        (
            "@querystring-search?query=%257B%2522query%2522%253A%255B%257B%2522i%2522%253A%2522portal_type%2522%252C%2522o%2522%253A%2522plone.app.querystring.operation.selection.any%2522%252C%2522v%2522%253A%255B%2522Document%2522%255D%257D%255D%257D",
            vec!["current", "embargoed", "expired"],
        ),
    ];
    if cfg!(feature = "navigation") {
        reads.push(("@navigation?expand.navigation.depth=3", vec!["current", "embargoed", "expired", "later"]));
        reads.push(("news/current/@contextnavigation", vec!["current", "embargoed", "expired"]));
    }
    for (path, everything) in reads {
        for who in ["anonymous", "max", "editor"] {
            let (status, body) = read(as_caller(&server, who, path).send().await.unwrap()).await;
            assert_eq!(status, 200, "{who} {path}: {body}");
            let seen = named(&body.to_string());
            let expected: Vec<&str> = match who {
                "editor" => everything.clone(),
                _ => everything.iter().copied().filter(|id| *id == "current").collect(),
            };
            assert_eq!(seen, expected, "{who} {path}: {body}");
        }
    }
    // The HTML page of the folder lists its items the same way.
    let html = server.raw(Method::GET, &server.url("news")).send().await.unwrap().text().await.unwrap();
    assert_eq!(named(&html), vec!["current"], "{html}");
    // items_total counts what is listed.
    let (_, folder) = read(server.anonymous(Method::GET, "news").send().await.unwrap()).await;
    assert_eq!(folder["items_total"], 1);
    // The object itself stays readable by its URL, as in Plone.
    let (status, page) = read(server.anonymous(Method::GET, "news/embargoed").send().await.unwrap()).await;
    assert_eq!((status, &page["title"]), (200, &Value::from("Window embargoed")));
}
