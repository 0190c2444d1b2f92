//! Search on an Elasticsearch cluster (`--search URL`) that cannot be reached: the site starts
//! and keeps working, searches answer 503 with a clear error, and `@es-admin` reports why.
//! (With `WCS_TEST_ELASTICSEARCH_URL` set, the whole suite runs its searches on that cluster.)

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::json;
use wcs_plugin_es_search::SEARCH_URL_OPTION;

/// A port nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[tokio::test]
async fn an_unreachable_cluster_answers_503_while_the_site_keeps_working() {
    let cluster = format!("http://127.0.0.1:{}", closed_port());
    let server = TestServer::start_with(|config| {
        config.plugin_options.insert(SEARCH_URL_OPTION.to_owned(), cluster.clone());
    })
    .await;
    let created = server.create("", json!({"@type": "Document", "id": "rosen", "title": "Rosen"})).await;
    assert_eq!(created["title"], "Rosen", "writes go on without the cluster");

    let (status, body) =
        read(server.anonymous(Method::GET, "@search?SearchableText=Rosen").send().await.unwrap()).await;
    assert_eq!((status, &body["code"]), (503, &json!("service_unavailable")), "{body}");
    let (status, body) =
        read(server.anonymous(Method::GET, "@es-search?SearchableText=Rosen").send().await.unwrap()).await;
    assert_eq!((status, &body["code"]), (503, &json!("service_unavailable")), "{body}");
    let raw = server.anonymous(Method::POST, "@raw-es-search").json(&json!({"query": {"match_all": {}}}));
    let (status, body) = read(raw.send().await.unwrap()).await;
    assert_eq!((status, &body["status"]), (503, &json!(503)), "{body}");
    assert_eq!(body["error"]["type"], "unavailable_shards_exception");

    let (status, report) = server.get_json("@es-admin").await;
    assert_eq!((status, &report["code"]), (503, &json!("service_unavailable")), "{report}");
    // Listing without full text does not need the cluster.
    let (status, listing) = server.get_json("@search?portal_type=Document").await;
    assert_eq!((status, &listing["items_total"]), (200, &json!(1)), "{listing}");
}

#[tokio::test]
async fn a_cluster_url_that_is_no_url_stops_the_start_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = crate::support::config(crate::support::database_url(&dir).await);
    config.plugin_options.insert(SEARCH_URL_OPTION.to_owned(), "not a url".into());
    let refused = wcs::open_app(config).await.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(refused.contains("--search not a url"), "{refused}");
}
