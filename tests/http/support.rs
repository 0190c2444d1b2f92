//! The test harness: a real server on an ephemeral port over a fresh SQLite file, or over a
//! fresh PostgreSQL schema when `WCS_TEST_DATABASE_URL` is set.

use reqwest::{Client, Method, RequestBuilder, Response};
use serde_json::Value;
use sqlx::Connection;
use std::sync::Arc;
use tempfile::TempDir;
use tokio::sync::oneshot;
use wcs_core::app::{App, AppConfig};
use wcs_core::http::{CacheSettings, Edge, EdgeConfig};
use wcs_core::plugin::PluginSelection;

/// The admin password every test server starts with.
pub const ADMIN_PASSWORD: &str = "secret";

/// A running server.
pub struct TestServer {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The site URL.
    pub site: String,
    /// The running application (for query counts).
    pub app: Arc<App>,
    /// Its database, for starting another server on the same storage.
    pub database_url: String,
    client: Client,
    shutdown: Option<oneshot::Sender<()>>,
    serving: Option<tokio::task::JoinHandle<()>>,
    _dir: TempDir,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Whether the suite runs on PostgreSQL.
pub fn postgres_url() -> Option<String> {
    std::env::var("WCS_TEST_DATABASE_URL").ok().filter(|u| !u.is_empty())
}

pub async fn database_url(dir: &TempDir) -> String {
    match postgres_url() {
        None => format!("sqlite://{}?mode=rwc", dir.path().join("wcs.db").display()),
        Some(url) => {
            let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
            let mut conn = sqlx::PgConnection::connect(&url).await.expect("connect to WCS_TEST_DATABASE_URL");
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                .execute(&mut conn)
                .await
                .expect("create test schema");
            let separator = if url.contains('?') { '&' } else { '?' };
            format!("{url}{separator}options=-c%20search_path%3D{schema}")
        }
    }
}

/// A default configuration over `database_url`.
pub fn config(database_url: String) -> AppConfig {
    AppConfig {
        database_url,
        site_id: "Plone".into(),
        admin_password: Some(ADMIN_PASSWORD.into()),
        types_dir: None,
        plugins: PluginSelection::default(),
        data_dir: None,
        plugin_options: contract_cluster(),
        memory_max_age: CacheSettings::default().max_age,
    }
}

/// The contract run: with `WCS_TEST_ELASTICSEARCH_URL`, every test's search goes to this
/// cluster, in an index of its own.
fn contract_cluster() -> std::collections::BTreeMap<String, String> {
    #[cfg(feature = "es-search")]
    if let Ok(cluster) = std::env::var("WCS_TEST_ELASTICSEARCH_URL") {
        let index = format!("{}/wcs-test-{}", cluster.trim_end_matches('/'), uuid::Uuid::new_v4().simple());
        return [(wcs_plugin_es_search::SEARCH_URL_OPTION.to_owned(), index)].into();
    }
    Default::default()
}

/// A test server's settings: the application's, and its edge's (`config.edge`).
pub struct ServerConfig {
    pub app: AppConfig,
    pub edge: EdgeConfig,
}

impl ServerConfig {
    /// Answers and what the store remembers are kept this long (zero: read afresh every time).
    pub fn cache_max_age(&mut self, age: std::time::Duration) {
        self.edge.answer_cache.max_age = age;
        self.app.memory_max_age = age;
    }
}

impl std::ops::Deref for ServerConfig {
    type Target = AppConfig;

    fn deref(&self) -> &AppConfig {
        &self.app
    }
}

impl std::ops::DerefMut for ServerConfig {
    fn deref_mut(&mut self) -> &mut AppConfig {
        &mut self.app
    }
}

/// The edge every test server starts with.
pub fn edge_config() -> EdgeConfig {
    EdgeConfig {
        cors_origins: vec!["https://editor.example".into()],
        max_body_bytes: 1024 * 1024,
        ..EdgeConfig::default()
    }
}

impl TestServer {
    /// Starts a server with the default configuration.
    pub async fn start() -> TestServer {
        Self::start_with(|_| {}).await
    }

    /// Starts a server whose answer cache is off, for tests that count the statements a
    /// request runs (a kept answer runs none).
    pub async fn start_uncached() -> TestServer {
        Self::start_with(|config| config.cache_max_age(std::time::Duration::ZERO)).await
    }

    /// Starts a server after `customize` adjusted the configuration.
    pub async fn start_with(customize: impl FnOnce(&mut ServerConfig)) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = ServerConfig { app: config(database_url(&dir).await), edge: edge_config() };
        customize(&mut config);
        let database_url = config.database_url.clone();
        let site_id = config.site_id.clone();
        let edge = Edge::new(&config.edge).expect("the edge's settings");
        let (app, _) = wcs::open_app(config.app).await.expect("server starts");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let (tx, rx) = oneshot::channel::<()>();
        let serving = app.clone();
        let serving = tokio::spawn(async move {
            let _ = wcs_core::server::serve(serving, edge, listener, async {
                let _ = rx.await;
            })
            .await;
        });
        let base = format!("http://{addr}");
        let client = Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
        TestServer {
            site: format!("{base}/{site_id}"),
            base,
            app,
            database_url,
            client,
            shutdown: Some(tx),
            serving: Some(serving),
            _dir: dir,
        }
    }

    /// Stops the server as SIGTERM does and waits until it has: running requests finished,
    /// the plugins' stop hooks run, storage closed.
    pub async fn stop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(serving) = self.serving.take() {
            serving.await.expect("the server task ends");
        }
    }

    /// A JSON API request as `admin`; `path` is below the site (`""` for the root).
    pub fn admin(&self, method: Method, path: &str) -> RequestBuilder {
        self.anonymous(method, path).basic_auth("admin", Some(ADMIN_PASSWORD))
    }

    /// A JSON API request without credentials.
    pub fn anonymous(&self, method: Method, path: &str) -> RequestBuilder {
        self.raw(method, &self.url(path)).header("Accept", "application/json")
    }

    /// Any request to an absolute URL, without defaults.
    pub fn raw(&self, method: Method, url: &str) -> RequestBuilder {
        self.client.request(method, url)
    }

    /// The absolute URL of a path below the site.
    pub fn url(&self, path: &str) -> String {
        if path.is_empty() { self.site.clone() } else { format!("{}/{}", self.site, path.trim_start_matches('/')) }
    }

    /// Creates an object as admin in `parent` and returns its serialization.
    pub async fn create(&self, parent: &str, body: Value) -> Value {
        let response = self.admin(Method::POST, parent).json(&body).send().await.expect("POST");
        let status = response.status();
        let json: Value = response.json().await.expect("JSON body");
        assert_eq!(status, 201, "creating {body} in '{parent}': {json}");
        json
    }

    /// A JSON API request as `user` (password `secret-<user>`, see [`TestServer::user`]).
    pub fn as_user(&self, user: &str, method: Method, path: &str) -> RequestBuilder {
        self.anonymous(method, path).basic_auth(user, Some(format!("secret-{user}")))
    }

    /// Creates a user with password `secret-<id>` and the given global roles and groups.
    pub async fn user(&self, id: &str, roles: &[&str], groups: &[&str]) {
        let body = serde_json::json!({"username": id, "password": format!("secret-{id}"), "fullname": format!("User {id}"),
                                      "email": format!("{id}@example.org"), "roles": roles});
        let (status, created) =
            read(self.admin(Method::POST, "@users").json(&body).send().await.expect("POST @users")).await;
        assert_eq!(status, 201, "creating user {id}: {created}");
        for group in groups {
            let patch = serde_json::json!({"users": {id: true}});
            let response =
                self.admin(Method::PATCH, &format!("@groups/{group}")).json(&patch).send().await.expect("PATCH");
            assert_eq!(response.status(), 204);
        }
    }

    /// Grants local roles on `path` through `@sharing`.
    pub async fn share(&self, path: &str, principal: &str, roles: &[&str]) {
        let roles: serde_json::Map<String, Value> =
            roles.iter().map(|r| ((*r).to_owned(), Value::Bool(true))).collect();
        let body = serde_json::json!({"entries": [{"id": principal, "type": "user", "roles": roles}]});
        let sharing = if path.is_empty() { "@sharing".to_owned() } else { format!("{path}/@sharing") };
        let response = self.admin(Method::POST, &sharing).json(&body).send().await.expect("POST @sharing");
        assert_eq!(response.status(), 204);
    }

    /// Fires a workflow transition as admin.
    pub async fn transition(&self, path: &str, transition: &str) {
        let response = self.admin(Method::POST, &format!("{path}/@workflow/{transition}")).send().await.expect("POST");
        assert_eq!(response.status(), 200, "{transition} on {path}");
    }

    /// Waits until background work (the search index) has caught up with every write so far,
    /// as a client waits for a search engine's refresh.
    pub async fn settle(&self) {
        #[cfg(feature = "es-search")]
        {
            let started = std::time::Instant::now();
            while let Some(search) = self.app.extensions.get::<wcs_plugin_es_search::Search>() {
                // What a search waits for: the index holds everything up to the feed's end.
                if search.caught_up(&self.app.store).await.expect("feed end") {
                    break;
                }
                assert!(started.elapsed() < std::time::Duration::from_secs(10), "the search index does not catch up");
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
    }

    /// Every change feed entry committed after `seq`, as `(seq, kind, uid)`, oldest first:
    /// what the writes so far recorded. (A consumer reads through `Store::changes_after`,
    /// which on PostgreSQL holds entries back while an older transaction still runs.)
    #[cfg(any(all(feature = "versioning", feature = "site-profile"), feature = "multilingual"))]
    pub async fn recorded_changes(&self, seq: i64) -> Vec<(i64, String, String)> {
        sqlx::query_as("SELECT seq, kind, uid FROM change_feed WHERE seq > $1 ORDER BY seq")
            .bind(seq)
            .fetch_all(self.app.store.pool())
            .await
            .expect("read the change feed")
    }

    /// GETs a path as admin and returns the status and JSON body.
    pub async fn get_json(&self, path: &str) -> (u16, Value) {
        read(self.admin(Method::GET, path).send().await.expect("GET")).await
    }
}

/// Status and JSON body of a response (`Null` for an empty body).
pub async fn read(response: Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let bytes = response.bytes().await.expect("body");
    let body = if bytes.is_empty() { Value::Null } else { serde_json::from_slice(&bytes).expect("JSON body") };
    (status, body)
}

/// The path of an `@id` below the site (`http://…/Plone/a/b` → `a/b`).
pub fn site_path(id: &Value) -> String {
    let url = id.as_str().expect("@id string");
    url.split_once("/Plone").map(|(_, rest)| rest.trim_start_matches('/').to_owned()).expect("site URL")
}

/// Asserts an error response: status, JSON body with `type`, `message` and the catalogue code.
pub async fn assert_error(response: Response, status: u16, code: &str) -> Value {
    let (actual, body) = read(response).await;
    assert_eq!(actual, status, "unexpected status, body: {body}");
    assert_eq!(body["code"], code, "unexpected error code: {body}");
    assert!(body["type"].is_string() && body["message"].is_string(), "error body shape: {body}");
    body
}

/// The `UID` of a serialized object.
pub fn uid(object: &Value) -> String {
    object["UID"].as_str().expect("UID string").to_owned()
}

/// A minimal SMTP server that accepts one message and hands over its DATA.
pub async fn smtp_sink() -> (u16, tokio::sync::oneshot::Receiver<String>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read).lines();
        write.write_all(b"220 sink ESMTP\r\n").await.unwrap();
        let mut data = String::new();
        let mut in_data = false;
        while let Ok(Some(line)) = lines.next_line().await {
            if in_data {
                if line == "." {
                    in_data = false;
                    write.write_all(b"250 queued\r\n").await.unwrap();
                } else {
                    data.push_str(&line);
                    data.push('\n');
                }
                continue;
            }
            let reply: &[u8] = match line.get(..4).unwrap_or_default().to_ascii_uppercase().as_str() {
                "EHLO" | "HELO" => b"250 sink\r\n",
                "DATA" => {
                    in_data = true;
                    b"354 go ahead\r\n"
                }
                "QUIT" => {
                    write.write_all(b"221 bye\r\n").await.unwrap();
                    break;
                }
                _ => b"250 ok\r\n",
            };
            write.write_all(reply).await.unwrap();
        }
        let _ = tx.send(data);
    });
    (port, rx)
}
