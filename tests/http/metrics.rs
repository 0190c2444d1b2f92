//! `/metrics`: Prometheus text for trusted peers, 404 for anyone else.

use crate::support::TestServer;
use reqwest::Method;
use serde_json::json;

/// The value of the sample whose line starts with `prefix` (name and labels).
fn sample(text: &str, prefix: &str) -> Option<f64> {
    text.lines().find(|line| line.starts_with(prefix)).and_then(|line| line.rsplit(' ').next()?.parse().ok())
}

#[tokio::test]
async fn trusted_peers_read_requests_latency_connections_pool_and_feed() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "D"})).await;
    for _ in 0..3 {
        assert_eq!(server.get_json("d").await.0, 200);
    }
    assert_eq!(server.get_json("missing").await.0, 404);
    let response = server.raw(Method::GET, &format!("{}/metrics", server.base)).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let text = response.text().await.unwrap();
    let gets = sample(&text, r#"wcs_requests_total{method="GET",service="content",status="2xx"}"#);
    assert!(gets.is_some_and(|n| n >= 3.0), "{text}");
    assert!(sample(&text, r#"wcs_requests_total{method="POST",service="content",status="2xx"}"#).is_some());
    assert!(sample(&text, r#"wcs_requests_total{method="GET",service="none",status="4xx"}"#).is_some());
    let count = sample(&text, r#"wcs_request_duration_seconds_count{service="content"}"#);
    assert!(count.is_some_and(|n| n >= 4.0), "{text}");
    assert!(sample(&text, "wcs_open_connections").is_some_and(|n| n >= 1.0), "this request's connection is open");
    assert!(sample(&text, "wcs_db_pool_connections").is_some_and(|n| n >= 1.0));
    assert!(sample(&text, "wcs_change_feed_lag").is_some_and(|n| n >= 0.0));

    // What a proxy on this host forwards for the public is no operator's request.
    let forwarded =
        server.raw(Method::GET, &format!("{}/metrics", server.base)).header("X-Forwarded-For", "203.0.113.9");
    assert_eq!(forwarded.send().await.unwrap().status(), 404);
}

#[tokio::test]
async fn other_peers_get_404() {
    let server = TestServer::start_with(|config| config.edge.trusted_proxies = Some(vec!["10.0.0.0/8".into()])).await;
    let response = server.raw(Method::GET, &format!("{}/metrics", server.base)).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(response.json::<serde_json::Value>().await.unwrap()["code"], "not_found");
}
