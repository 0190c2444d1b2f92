//! Load benchmark of `@search` and `@es-search`: 10,000 documents in 10 folders, a Reader who
//! may see half of them (so the security filter does real work), and 25-item pages. Prints
//! p50/p99 latency and the SQL statements per request for a few query shapes, then how long a
//! new document takes to become searchable (created over HTTP, polled with `@es-search`).
//!
//! Run it with `cargo bench --bench search` (release build, SQLite in a temporary directory;
//! set `WCS_BENCH_DATABASE_URL=postgres://…` to measure PostgreSQL instead, on an empty
//! database). `WCS_BENCH_DOCUMENTS` changes the corpus size.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use serde_json::{Map, Value, json};
use std::time::{Duration, Instant};
use wcs_core::app::{ADMIN_USER, AppConfig};
use wcs_core::http::{CacheSettings, Edge, EdgeConfig};
use wcs_core::ops::{self, WriteOrigin};
use wcs_core::plugin::PluginSelection;
use wcs_core::security::Visibility;

const FOLDERS: usize = 10;
const ROUNDS: usize = 300;
const WORDS: [&str; 12] = [
    "Energie",
    "Verkehr",
    "Schule",
    "Wasser",
    "Umwelt",
    "Gesundheit",
    "Kultur",
    "Sport",
    "Bauen",
    "Steuern",
    "Abfall",
    "Jugend",
];

#[tokio::main]
async fn main() {
    let documents: usize = std::env::var("WCS_BENCH_DOCUMENTS").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let dir = tempfile::tempdir().expect("temp dir");
    let database_url = std::env::var("WCS_BENCH_DATABASE_URL")
        .unwrap_or_else(|_| format!("sqlite://{}?mode=rwc", dir.path().join("bench.db").display()));
    let config = AppConfig {
        database_url,
        site_id: "Plone".into(),
        admin_password: Some("admin-bench".into()),
        types_dir: None,
        plugins: PluginSelection::default(),
        data_dir: Some(dir.path().to_owned()),
        plugin_options: Default::default(),
        // The engine's own speed is measured here, not the answer cache's.
        memory_max_age: Duration::ZERO,
    };
    let (app, _) = wcs::open_app(config).await.expect("server starts");
    let started = Instant::now();
    seed(&app, documents).await;
    println!("seeded {documents} documents in {:.1} s", started.elapsed().as_secs_f64());

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}/Plone", listener.local_addr().expect("address"));
    let serving = app.clone();
    let edge = Edge::new(&EdgeConfig {
        answer_cache: CacheSettings { max_age: Duration::ZERO, ..CacheSettings::default() },
        ..EdgeConfig::default()
    })
    .expect("edge");
    tokio::spawn(async move { wcs_core::server::serve(serving, edge, listener, std::future::pending()).await });
    wait_for_index(&app).await;
    let client = reqwest::Client::new();
    let reader = |path: &str| {
        client
            .get(format!("{base}/{path}"))
            .header("Accept", "application/json")
            .basic_auth("reader", Some("reader-bench"))
    };
    println!("{:<60} {:>9} {:>9} {:>8} {:>7}", "query (as reader, b_size=25)", "p50 ms", "p99 ms", "queries", "total");
    for query in [
        "@search?portal_type=Document&b_size=25",
        "@search?SearchableText=Energie&b_size=25",
        "@search?portal_type=Document&sort_on=modified&sort_order=descending&b_size=25&b_start=2500",
        "@search?Subject=Umwelt&metadata_fields=_all&b_size=25",
        #[cfg(feature = "es-search")]
        "@es-search?SearchableText=Energie&b_size=25",
    ] {
        let warm = reader(query).send().await.expect("request");
        let total = warm.json::<Value>().await.expect("JSON")["items_total"].clone();
        let mut timings = Vec::with_capacity(ROUNDS);
        let before = app.store.query_count();
        for _ in 0..ROUNDS {
            let start = Instant::now();
            let response = reader(query).send().await.expect("request");
            assert_eq!(response.status(), 200);
            response.bytes().await.expect("body");
            timings.push(start.elapsed());
        }
        let per_request = (app.store.query_count() - before) as f64 / ROUNDS as f64;
        timings.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let p50 = ms(timings[ROUNDS / 2]);
        let p99 = ms(timings[ROUNDS * 99 / 100]);
        println!("{query:<60} {p50:>9.2} {p99:>9.2} {per_request:>8.1} {total:>7}");
    }
    #[cfg(feature = "es-search")]
    time_to_searchable(&base).await;
}

/// Folders `f0`…`f9` with the documents spread over them; `reader` may see the even folders.
async fn seed(app: &wcs_core::app::App, documents: usize) {
    let site = app.site_root().await.expect("site");
    let origin = WriteOrigin { base_url: "", visibility: &Visibility::ALL };
    let mut folders = Vec::new();
    for n in 0..FOLDERS {
        let body = object(json!({"@type": "Folder", "id": format!("f{n}"), "title": format!("Bereich {n}")}));
        folders.push(ops::create(app, &site, &body, ADMIN_USER, true, &origin).await.expect("folder"));
    }
    for n in 0..documents {
        let (a, b) = (WORDS[n % WORDS.len()], WORDS[(n / 7) % WORDS.len()]);
        let body = object(json!({
            "@type": "Document",
            "title": format!("Bericht {n}: {a} und {b}"),
            "description": format!("Neues zu {a}"),
            "subjects": [b],
            "text": format!("<p>Die Stadt informiert über {a}, {b} und vieles mehr (Nr. {n}).</p>"),
        }));
        ops::create(app, &folders[n % FOLDERS], &body, ADMIN_USER, true, &origin).await.expect("document");
    }
    let mut tx = app.store.begin().await.expect("transaction");
    let hash = wcs_core::security::hash_password("reader-bench").expect("hash");
    tx.upsert_user("reader", &hash, &["Member"]).await.expect("user");
    for folder in folders.iter().step_by(2) {
        tx.set_local_roles(&folder.uid, "reader", &["Reader".to_owned()]).await.expect("local roles");
    }
    tx.commit().await.expect("commit");
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// Waits until the search index holds every write so far.
#[cfg(not(feature = "es-search"))]
async fn wait_for_index(_: &wcs_core::app::App) {}

/// Waits until the search index holds every write so far.
#[cfg(feature = "es-search")]
async fn wait_for_index(app: &wcs_core::app::App) {
    let end = app.store.feed_end().await.expect("feed end");
    let started = Instant::now();
    while let Some(search) = app.extensions.get::<wcs_plugin_es_search::Search>() {
        if search.engine.position().expect("position").unwrap_or(0) >= end {
            println!("search index caught up {:.1} s after seeding", started.elapsed().as_secs_f64());
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Creates documents one by one over HTTP and polls `@es-search` until each is found.
#[cfg(feature = "es-search")]
async fn time_to_searchable(base: &str) {
    let client = reqwest::Client::new();
    let mut timings = Vec::with_capacity(100);
    for n in 0..100 {
        let word = format!("frischwort{n}x");
        let body = json!({"@type": "Document", "title": format!("Neu {word}")});
        let created = client
            .post(base)
            .header("Accept", "application/json")
            .basic_auth(ADMIN_USER, Some("admin-bench"))
            .json(&body)
            .send()
            .await
            .expect("create");
        assert_eq!(created.status(), 201);
        let start = Instant::now();
        loop {
            let found: Value = client
                .get(format!("{base}/@es-search?SearchableText={word}"))
                .header("Accept", "application/json")
                .basic_auth(ADMIN_USER, Some("admin-bench"))
                .send()
                .await
                .expect("search")
                .json()
                .await
                .expect("JSON");
            if found["items_total"] == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        timings.push(start.elapsed());
    }
    timings.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("write to searchable (100 documents): p50 {:.0} ms, p99 {:.0} ms", ms(timings[50]), ms(timings[99]));
}
