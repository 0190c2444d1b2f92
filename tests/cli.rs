//! The `wcs` binary itself: first start, demo content, restart and graceful shutdown.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn start(data_dir: &std::path::Path, port: u16) -> (Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wcs"))
        .args(["serve", "--demo", "--listen", &format!("127.0.0.1:{port}")])
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("WCS_ADMIN_PASSWORD")
        .env_remove("WCS_DATABASE_URL")
        .env("WCS_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    (child, rx)
}

async fn wait_ready(client: &reqwest::Client, url: &str, password: &str) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let response =
            client.get(url).header("Accept", "application/json").basic_auth("admin", Some(password)).send().await;
        if let Ok(response) = response
            && response.status() == 200
        {
            return response.json().await.unwrap();
        }
        assert!(Instant::now() < deadline, "server did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn terminate(mut child: Child) -> std::process::ExitStatus {
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "server did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test]
async fn first_start_prints_the_admin_password_once_and_sigterm_stops_gracefully() {
    let dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();
    let port = free_port();
    let (child, lines) = start(dir.path(), port);
    let line = lines.recv_timeout(Duration::from_secs(30)).expect("a line with the generated password");
    let password = line.rsplit(": ").next().unwrap().trim().to_owned();
    assert!(line.contains("generated password") && password.len() >= 16, "{line}");
    let url = format!("http://127.0.0.1:{port}/Plone");
    let site = wait_ready(&client, &url, &password).await;
    assert_eq!(site["items_total"], DEMO_AT_ROOT, "demo content: {site}");
    #[cfg(feature = "site-profile")]
    demo_shows_every_feature(&client, &url, &password).await;
    assert!(terminate(child).success());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "the data directory, with secrets and password hashes, is the server's alone");
    }

    let port = free_port();
    let (child, lines) = start(dir.path(), port);
    let url = format!("http://127.0.0.1:{port}/Plone");
    let site = wait_ready(&client, &url, &password).await;
    assert_eq!(site["items_total"], DEMO_AT_ROOT, "--demo does not load twice");
    assert!(terminate(child).success());
    let printed: Vec<String> = lines.try_iter().collect();
    assert!(printed.iter().all(|l| !l.contains("password")), "printed again: {printed:?}");

    #[cfg(feature = "es-search")]
    {
        let output = Command::new(env!("CARGO_BIN_EXE_wcs"))
            .arg("reindex")
            .arg("--data-dir")
            .arg(dir.path())
            .env_remove("WCS_DATABASE_URL")
            .env("WCS_LOG", "warn")
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "reindex: {printed} {}", String::from_utf8_lossy(&output.stderr));
        let indexed: usize = printed.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0);
        let least = if cfg!(feature = "site-profile") { 10 } else { 0 };
        assert!(printed.starts_with("Indexed ") && indexed > least, "the demo's objects: {printed}");
    }

    // The first start (the site root) and the demo loader wrote through the change feed.
    let store =
        wcs_core::store::Store::open(&format!("sqlite://{}", dir.path().join("wcs.db").display())).await.unwrap();
    let changes = store.changes_after(0, 10_000).await.unwrap();
    assert_eq!((changes[0].kind.as_str(), changes[0].path.as_deref()), ("added", Some("/Plone")), "the site root");
    let added = changes.iter().filter(|c| c.kind == "added").count();
    let all = store.subtree("/Plone").await.unwrap();
    assert_eq!(added, all.len(), "one entry for every object the first start and the demo created");
}

/// Demo objects at the site root: the site profile's three sections, the imprint, a PDF and
/// (with easyform) the contact form; nothing without the site profile, which ships the demo.
const DEMO_AT_ROOT: usize = if !cfg!(feature = "site-profile") {
    0
} else if cfg!(feature = "easyform") {
    6
} else {
    5
};

#[cfg(feature = "site-profile")]
async fn demo_shows_every_feature(client: &reqwest::Client, url: &str, password: &str) {
    let get = |path: &str| {
        client
            .get(format!("{url}/{path}"))
            .header("Accept", "application/json")
            .basic_auth("admin", Some(password))
            .send()
    };
    // README's second example: a topic of the demo, its items two at a time, through ++api++.
    let topic = client.get(format!("{url}/++api++/umwelt?b_size=2")).basic_auth("admin", Some(password)).send();
    let topic: serde_json::Value = topic.await.unwrap().json().await.unwrap();
    assert_eq!((topic["@type"].as_str(), topic["items"].as_array().map(Vec::len)), (Some("Topic"), Some(2)), "{topic}");
    let page: serde_json::Value = get("umwelt/abfall").await.unwrap().json().await.unwrap();
    assert_eq!(page["slblocks"].as_object().map(|b| b.len()), Some(3), "{page}");
    assert_eq!(page["simplelayout"]["default"][0]["cols"][0]["width"], 8);
    let folder: serde_json::Value = get("leben/schule").await.unwrap().json().await.unwrap();
    assert_eq!(folder["default_page_object"]["title"], "Schulen im Überblick");
    let news: serde_json::Value = get("aktuelles").await.unwrap().json().await.unwrap();
    let first = news["items"][0]["title"].as_str().unwrap_or_default().to_owned();
    assert_eq!(first, "Straßenfest im Sommer", "newest first: {news}");
    // Every news item has a lead image, so Volto's listings show pictures.
    let items: Vec<&serde_json::Value> =
        news["items"].as_array().into_iter().flatten().filter(|i| i["@type"] == "News").collect();
    assert_eq!(items.len(), 3, "{news}");
    for item in items {
        assert_eq!(item["image_field"], "image", "{item}");
        let thumb = item["image_scales"]["image"][0]["scales"]["thumb"]["download"].as_str().unwrap_or_default();
        let scale = get(&format!(
            "aktuelles/{}/{thumb}",
            item["@id"].as_str().unwrap_or_default().rsplit('/').next().unwrap_or_default()
        ));
        let scale = scale.await.unwrap();
        assert_eq!(scale.headers()["content-type"], "image/png", "{thumb}");
    }
    let listing =
        news["slblocks"].as_object().and_then(|b| b.values().find(|b| b["@type"] == "NewsListingBlock")).cloned();
    assert_eq!(listing.map(|l| l["items_total"].clone()), Some(serde_json::json!(3)));
    let subtopic: serde_json::Value = get("umwelt/energie").await.unwrap().json().await.unwrap();
    assert_eq!(subtopic["main_topics"].as_array().map(Vec::len), Some(2));
    let anonymous: serde_json::Value =
        client.get(format!("{url}/")).header("Accept", "application/json").send().await.unwrap().json().await.unwrap();
    assert_eq!(anonymous["items_total"], DEMO_AT_ROOT, "the demo is published: {anonymous}");
    let home_types: Vec<&str> =
        anonymous["blocks"].as_object().into_iter().flatten().filter_map(|(_, b)| b["@type"].as_str()).collect();
    assert!(home_types.contains(&"listing") && home_types.contains(&"teaser"), "a Volto home page: {anonymous}");
    let teaser = anonymous["blocks"].as_object().and_then(|b| b.values().find(|b| b["@type"] == "teaser")).cloned();
    let target = teaser.map(|t| t["href"][0]["@id"].clone()).unwrap_or_default();
    assert_eq!(target, serde_json::json!(format!("{url}/umwelt")), "teasers link by uid, sent as URLs");
    let pdf = get("gebuehrensatzung/@@download/file").await.unwrap();
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF-1.4"), "a downloadable PDF");
    if cfg!(feature = "easyform") {
        let form: serde_json::Value = get("kontakt").await.unwrap().json().await.unwrap();
        assert_eq!(form["form_fields"].as_array().map(Vec::len), Some(5), "the contact form: {form}");
    }
}

/// `wcs search eval FILE` prints the engine's answer to a conformance case, and an error body
/// (still exiting 0) for a request Elasticsearch refuses.
#[cfg(feature = "es-search")]
#[test]
fn search_eval_prints_the_answer_of_a_case() {
    let dir = tempfile::tempdir().unwrap();
    let eval = |case: serde_json::Value| {
        let file = dir.path().join("case.json");
        std::fs::write(&file, case.to_string()).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_wcs")).args(["search", "eval"]).arg(&file).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    let mappings = serde_json::json!({"properties": {"title": {"type": "text"}, "rank": {"type": "integer"}}});
    let docs = serde_json::json!([
        {"_id": "1", "title": "The quick brown fox", "rank": 2},
        {"_id": "2", "title": "A quick dog", "rank": 1},
        {"_id": "3", "title": "Slow things"}
    ]);
    let request = serde_json::json!({"query": {"match": {"title": "quick"}}, "sort": [{"rank": "asc"}]});
    let answer = eval(serde_json::json!({"index": {"mappings": mappings}, "docs": docs, "request": request}));
    assert_eq!(answer["hits"]["total"], serde_json::json!({"value": 2, "relation": "eq"}));
    let ids: Vec<&str> =
        answer["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["2", "1"]);
    assert_eq!(answer["hits"]["hits"][0]["_source"], serde_json::json!({"title": "A quick dog", "rank": 1}));
    assert_eq!(answer["hits"]["hits"][0]["sort"], serde_json::json!([1]));

    let refused =
        eval(serde_json::json!({"index": {"mappings": mappings}, "docs": docs, "request": {"query": {"mtch": {}}}}));
    assert_eq!(refused["status"], 400);
    assert_eq!(refused["error"]["type"], "parsing_exception");
    assert_eq!(refused["error"]["reason"], "unknown query [mtch]");
}

/// `--engine URL` runs the case on a cluster; one that cannot be reached is a clear failure.
#[cfg(feature = "es-search")]
#[test]
fn search_eval_on_an_unreachable_cluster_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("case.json");
    std::fs::write(&file, r#"{"index": {"mappings": {}}, "docs": [], "request": {}}"#).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let output = Command::new(env!("CARGO_BIN_EXE_wcs"))
        .args(["search", "eval", "--engine", &format!("http://127.0.0.1:{port}")])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("Elasticsearch cannot be reached"), "{said}");
}

/// `wcs export` and `wcs import` move a site from one data directory to another; an import
/// into a database that already holds it is refused with a clear message.
#[test]
fn export_and_import_move_a_site_between_data_directories() {
    let dirs = tempfile::tempdir().unwrap();
    let (old, new, export) = (dirs.path().join("old"), dirs.path().join("new"), dirs.path().join("export"));
    let wcs = |args: &[&str], data_dir: &std::path::Path, dir: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_wcs"))
            .args(args)
            .arg("--data-dir")
            .arg(data_dir)
            .arg(dir)
            .args(["--admin-password", "pw-for-the-move"])
            .env_remove("WCS_DATABASE_URL")
            .env("WCS_LOG", "warn")
            .output()
            .unwrap()
    };
    let init = Command::new(env!("CARGO_BIN_EXE_wcs"))
        .args(["init", "--demo", "--admin-password", "pw-for-the-move", "--data-dir"])
        .arg(&old)
        .env_remove("WCS_DATABASE_URL")
        .output()
        .unwrap();
    assert!(init.status.success(), "{}", String::from_utf8_lossy(&init.stderr));
    let exported = wcs(&["export"], &old, &export);
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    assert!(String::from_utf8_lossy(&exported.stdout).contains("Exported"));
    let imported = wcs(&["import"], &new, &export);
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    assert!(String::from_utf8_lossy(&imported.stdout).contains("Imported"));
    let again = wcs(&["import"], &new, &export);
    assert!(!again.status.success());
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("already holds data"), "{said}");
}

/// `WCS_LOG_FORMAT=json` writes one JSON object per line; the access line carries the request
/// id the client sent (and the server echoes in `X-Request-Id`), the method, path, status and
/// duration as keys, so a log collector needs no parsing rules.
#[tokio::test]
async fn json_logs_carry_the_request_id_the_answer_echoes() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_wcs"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--admin-password", "pw-for-logs", "--data-dir"])
        .arg(dir.path())
        .env_remove("WCS_DATABASE_URL")
        .env("WCS_LOG", "info")
        .env("WCS_LOG_FORMAT", "json")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let client = reqwest::Client::new();
    let url = format!("http://127.0.0.1:{port}/Plone");
    wait_ready(&client, &url, "pw-for-logs").await;
    let response = client
        .get(format!("{url}/@search"))
        .header("Accept", "application/json")
        .header("X-Request-Id", "trace-4711")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-4711");
    let deadline = Instant::now() + Duration::from_secs(10);
    let access = loop {
        let line = lines.recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("the access line");
        let entry: serde_json::Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        if entry["fields"]["request_id"] == "trace-4711" {
            break entry;
        }
    };
    assert_eq!(access["target"], "wcs::access", "{access}");
    assert_eq!(access["fields"]["method"], "GET", "{access}");
    assert_eq!(access["fields"]["path"], "/Plone/@search", "{access}");
    assert_eq!(access["fields"]["status"], 200, "{access}");
    assert!(access["fields"]["duration_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{access}");
    assert!(access["timestamp"].is_string() && access["level"] == "INFO", "{access}");
    assert!(terminate(child).success());
}
