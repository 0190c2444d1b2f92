//! PostgreSQL restarts under writes: while it is down, requests answer 503 with `Retry-After`
//! (never 500, never a hang), the server reconnects by itself once it is back, and every write
//! it acknowledged is there. A test binary of its own, since restarting the database would
//! break the tests of any binary running beside it.
//!
//! Runs when `WCS_TEST_DATABASE_URL` names the database and `WCS_TEST_PG_RESTART` the shell
//! command that restarts its server (CI sets both).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

#[cfg(feature = "comments")]
use wcs_plugin_comments as _;
#[cfg(feature = "directdownload")]
use wcs_plugin_directdownload as _;
#[cfg(feature = "easyform")]
use wcs_plugin_easyform as _;
#[cfg(feature = "es-search")]
use wcs_plugin_es_search as _;
#[cfg(feature = "navigation")]
use wcs_plugin_navigation as _;
#[cfg(feature = "versioning")]
use wcs_plugin_versioning as _;

use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use sqlx::Connection;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wcs_core::app::AppConfig;
use wcs_core::plugin::PluginSelection;

const WRITERS: usize = 4;
const PASSWORD: &str = "restart-secret";

/// What one writer saw.
#[derive(Default)]
struct Outcomes {
    /// Ids whose create was acknowledged (201).
    created: Vec<String>,
    /// The titles written to the writer's own page, in order, and whether each was
    /// acknowledged (204) or is unknown (503).
    titles: Vec<(String, bool)>,
    /// 503s that came without `Retry-After`, and any other answer: each a failure.
    wrong: Vec<String>,
    /// How many 503s there were.
    unavailable: usize,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_restart_under_writes_loses_no_acknowledged_write() {
    let (Some(url), Some(restart)) = (env("WCS_TEST_DATABASE_URL"), env("WCS_TEST_PG_RESTART")) else {
        eprintln!("WCS_TEST_DATABASE_URL and WCS_TEST_PG_RESTART are not both set: the restart test does not run");
        return;
    };
    let site = start(&url).await;
    let client = Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
    let admin = |method: Method, path: &str| {
        client
            .request(method, format!("{site}/{path}"))
            .header("Accept", "application/json")
            .basic_auth("admin", Some(PASSWORD))
    };
    let folder = json!({"@type": "Folder", "id": "w", "title": "Writes"});
    assert_eq!(admin(Method::POST, "").json(&folder).send().await.unwrap().status(), 201);
    for writer in 0..WRITERS {
        let page = json!({"@type": "Document", "id": format!("page-{writer}"), "title": "start"});
        assert_eq!(admin(Method::POST, "w").json(&page).send().await.unwrap().status(), 201);
    }

    let stop = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    for writer in 0..WRITERS {
        let (client, site, stop) = (client.clone(), site.clone(), stop.clone());
        writers.push(tokio::spawn(async move { write_until(&client, &site, writer, &stop).await }));
    }
    tokio::time::sleep(Duration::from_millis(800)).await;
    let restarted = tokio::process::Command::new("sh").arg("-c").arg(&restart).status().await.unwrap();
    assert!(restarted.success(), "the restart command failed: {restart}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Release);
    let mut outcomes = Vec::new();
    for writer in writers {
        outcomes.push(writer.await.unwrap());
    }

    // Back by itself: reads and writes answer again without anyone touching the server.
    let started = Instant::now();
    loop {
        let page = json!({"@type": "Document", "id": "after", "title": "After the restart"});
        let status = admin(Method::POST, "w").json(&page).send().await.unwrap().status();
        if status == StatusCode::CREATED {
            break;
        }
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(started.elapsed() < Duration::from_secs(30), "the server did not recover");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    let wrong: Vec<&String> = outcomes.iter().flat_map(|o| &o.wrong).collect();
    assert!(wrong.is_empty(), "answers other than 2xx or 503 with Retry-After: {wrong:#?}");
    let (listing, _) = get(&admin(Method::GET, "w?b_size=1000")).await;
    let present: BTreeSet<String> = listing["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["@id"].as_str().unwrap().rsplit('/').next().unwrap().to_owned())
        .collect();
    for (writer, outcome) in outcomes.iter().enumerate() {
        for id in &outcome.created {
            assert!(present.contains(id), "the acknowledged create of {id} is lost");
        }
        let (page, _) = get(&admin(Method::GET, &format!("w/page-{writer}"))).await;
        let title = page["title"].as_str().unwrap();
        // The last acknowledged title, or one written after it whose answer was unknown.
        let last_acknowledged = outcome.titles.iter().rposition(|(_, acknowledged)| *acknowledged);
        let possible: Vec<&str> =
            outcome.titles[last_acknowledged.unwrap_or(0)..].iter().map(|(t, _)| t.as_str()).collect();
        assert!(
            possible.contains(&title) || (last_acknowledged.is_none() && title == "start"),
            "page-{writer} lost its acknowledged title: has {title}, could be {possible:?}"
        );
    }
    let acknowledged: usize = outcomes.iter().map(|o| o.created.len() + o.titles.iter().filter(|t| t.1).count()).sum();
    let unavailable: usize = outcomes.iter().map(|o| o.unavailable).sum();
    eprintln!("restart under writes: {acknowledged} writes acknowledged, {unavailable} answered 503, none lost");
    assert!(unavailable > 0, "no request met the restart: the test proved nothing");
}

/// Creates documents and retitles the writer's page until `stop`, recording every answer.
async fn write_until(client: &Client, site: &str, writer: usize, stop: &AtomicBool) -> Outcomes {
    let mut outcomes = Outcomes::default();
    let request = |method: Method, path: &str| {
        client
            .request(method, format!("{site}/{path}"))
            .header("Accept", "application/json")
            .basic_auth("admin", Some(PASSWORD))
    };
    let mut n = 0;
    while !stop.load(Ordering::Acquire) {
        n += 1;
        let id = format!("doc-{writer}-{n}");
        let create = request(Method::POST, "w").json(&json!({"@type": "Document", "id": id, "title": id}));
        match create.send().await {
            Ok(answer) if answer.status() == StatusCode::CREATED => outcomes.created.push(id),
            Ok(answer) => note(&mut outcomes, &answer, &format!("POST {id}")),
            Err(err) => outcomes.wrong.push(format!("POST {id}: {err}")),
        }
        let title = format!("title {n}");
        let patch = request(Method::PATCH, &format!("w/page-{writer}")).json(&json!({"title": title}));
        match patch.send().await {
            Ok(answer) if answer.status() == StatusCode::NO_CONTENT => outcomes.titles.push((title, true)),
            Ok(answer) => {
                note(&mut outcomes, &answer, &format!("PATCH page-{writer}"));
                outcomes.titles.push((title, false));
            }
            Err(err) => outcomes.wrong.push(format!("PATCH page-{writer}: {err}")),
        }
    }
    outcomes
}

/// Records an answer that was no success: a 503 with `Retry-After` is the expected one.
fn note(outcomes: &mut Outcomes, answer: &reqwest::Response, what: &str) {
    if answer.status() == StatusCode::SERVICE_UNAVAILABLE && answer.headers().contains_key("retry-after") {
        outcomes.unavailable += 1;
    } else {
        outcomes.wrong.push(format!("{what}: {} {:?}", answer.status(), answer.headers()));
    }
}

async fn get(request: &reqwest::RequestBuilder) -> (Value, StatusCode) {
    let answer = request.try_clone().unwrap().send().await.unwrap();
    let status = answer.status();
    (answer.json().await.unwrap(), status)
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.is_empty())
}

/// Starts the server in this process over a fresh schema of `url`; the site's URL.
async fn start(url: &str) -> String {
    let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
    let mut conn = sqlx::PgConnection::connect(url).await.expect("connect to WCS_TEST_DATABASE_URL");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}"))).execute(&mut conn).await.unwrap();
    let separator = if url.contains('?') { '&' } else { '?' };
    let config = AppConfig {
        database_url: format!("{url}{separator}options=-c%20search_path%3D{schema}"),
        site_id: "Plone".into(),
        admin_password: Some(PASSWORD.into()),
        types_dir: None,
        plugins: PluginSelection::default(),
        data_dir: None,
        plugin_options: Default::default(),
        memory_max_age: wcs_core::http::CacheSettings::default().max_age,
    };
    let (app, _) = wcs::open_app(config).await.expect("server starts");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let edge = wcs_core::http::Edge::new(&wcs_core::http::EdgeConfig::default()).unwrap();
        let _ = wcs_core::server::serve(app, edge, listener, std::future::pending()).await;
    });
    format!("http://{addr}/Plone")
}
