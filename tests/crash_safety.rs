//! Crash safety of the real binary: concurrent writers (creates, edits, moves, version creates,
//! workflow changes) while the server is killed with SIGKILL at a random moment, then a restart
//! on the same storage. After each restart every acknowledged write is there, nothing
//! half-written shows, the ten-version cap holds and the search index converges with storage.
//! On SQLite always; on PostgreSQL as well when `WCS_TEST_DATABASE_URL` is set (the server is
//! killed, the database is not).
//!
//! Each writer owns its objects, so the order of the writes to one object is known and "the
//! last acknowledged value" means something. A write that got no answer (or an unexpected
//! one) is unknown: either outcome is allowed, but wholly, and the state found decides it.
//!
//! The seed is printed; `WCS_CRASH_SEED=<n>` replays the same choice of writes and kill
//! moments (how the requests interleave stays up to the scheduler).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use reqwest::{Client, Method, RequestBuilder};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills per backend; each is followed by a restart and a full check.
const ROUNDS: usize = 10;
const WRITERS: usize = 6;
const FOLDERS: usize = 4;
/// Creates go on in every round (one write in ten) up to this many objects per writer, so
/// kills hit creates too while each object still gets many writes and the checks stay cheap.
const DOCS_PER_WRITER: usize = 25;
const MAX_VERSIONS: u64 = 10;
const SITE: &str = "crashsite";
const PASSWORD: &str = "crash-admin-secret";
const CONVERGENCE: Duration = Duration::from_secs(30);
/// Bounds a writer that never sees the kill (it stops by itself).
const WRITER_DEADLINE: Duration = Duration::from_secs(20);

/// One backend's run at a time: two at once would share the machine's cores and move the kill
/// moments away from what the seed says.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_during_writes_loses_nothing_on_sqlite() {
    let _serial = SERIAL.lock().await;
    run(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_during_writes_loses_nothing_on_postgresql() {
    let Some(url) = std::env::var("WCS_TEST_DATABASE_URL").ok().filter(|u| !u.is_empty()) else {
        eprintln!("WCS_TEST_DATABASE_URL is not set: the PostgreSQL crash test does not run");
        return;
    };
    let _serial = SERIAL.lock().await;
    let schema = Schema::create(&url).await;
    run(Backend::Postgres(schema.database_url())).await;
}

/// splitmix64: reproducible from the printed seed, whatever version of `rand` is locked.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.below(len as u64)).unwrap()
    }

    /// A word of letters only, so the search analysis keeps it whole.
    fn token(&mut self) -> String {
        (0..10).map(|_| char::from(b'a' + u8::try_from(self.below(26)).unwrap())).collect()
    }
}

fn seed() -> u64 {
    match std::env::var("WCS_CRASH_SEED") {
        Ok(seed) => seed.trim().parse().expect("WCS_CRASH_SEED is a number"),
        Err(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64,
    }
}

enum Backend {
    Sqlite,
    Postgres(String),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres(_) => "PostgreSQL",
        }
    }
}

/// A schema of the test's own in the shared PostgreSQL database, dropped when the test ends,
/// also when it fails, so the suite's schemas are never touched.
struct Schema {
    url: String,
    name: String,
}

impl Schema {
    async fn create(url: &str) -> Schema {
        use sqlx::Connection;
        let name = format!("crash_{}", uuid::Uuid::new_v4().simple());
        let mut conn = sqlx::PgConnection::connect(url).await.expect("connect to WCS_TEST_DATABASE_URL");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {name}"))).execute(&mut conn).await.unwrap();
        Schema { url: url.to_owned(), name }
    }

    fn database_url(&self) -> String {
        let separator = if self.url.contains('?') { '&' } else { '?' };
        format!("{}{separator}options=-c%20search_path%3D{}", self.url, self.name)
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let (url, name) = (self.url.clone(), self.name.clone());
        // Its own thread and runtime: this runs inside the test's runtime, also while unwinding.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async {
                use sqlx::Connection;
                let mut conn = sqlx::PgConnection::connect(&url).await?;
                sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {name} CASCADE"))).execute(&mut conn).await
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(_))) {
            eprintln!("could not drop the test schema {}: {dropped:?}", self.name);
        }
    }
}

/// The admin's JSON API on one running server.
#[derive(Clone)]
struct Api {
    client: Client,
    site: String,
}

impl Api {
    fn new(port: u16) -> Api {
        let client = Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        Api { client, site: format!("http://127.0.0.1:{port}/{SITE}") }
    }

    fn url(&self, path: &str) -> String {
        if path.is_empty() { self.site.clone() } else { format!("{}/{path}", self.site) }
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.client
            .request(method, self.url(path))
            .header("Accept", "application/json")
            .basic_auth("admin", Some(PASSWORD))
    }

    /// Status, `Location` and JSON body (`Null` when there is none) of a GET; panics when the
    /// server does not answer, since checks run only against a server that is up.
    async fn get(&self, path: &str) -> (u16, Option<String>, Value) {
        let response = self.request(Method::GET, path).send().await.unwrap_or_else(|e| panic!("GET {path}: {e}"));
        let status = response.status().as_u16();
        let location = response.headers().get("location").and_then(|l| l.to_str().ok()).map(str::to_owned);
        let bytes = response.bytes().await.unwrap_or_else(|e| panic!("GET {path}: {e}"));
        (status, location, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    /// The path below the site of an `@id`.
    fn path_of(&self, id: &Value) -> String {
        let id = id.as_str().unwrap_or_default();
        id.strip_prefix(&self.site).unwrap_or(id).trim_start_matches('/').to_owned()
    }
}

/// The server process with its log; killed when dropped, so a failing test leaves none behind.
struct Server {
    child: Child,
    api: Api,
    log: PathBuf,
    log_from: u64,
}

impl Server {
    async fn start(backend: &Backend, data_dir: &Path, log: &Path) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
        let log_from = file.seek(SeekFrom::End(0)).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_wcs"));
        command
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--site-id", SITE, "--admin-password", PASSWORD])
            .arg("--data-dir")
            .arg(data_dir);
        if let Backend::Postgres(url) = backend {
            command.args(["--database-url", url]);
        }
        // Only what the test says: no setting of the environment reaches the server.
        for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("WCS_")) {
            command.env_remove(key);
        }
        let child = command
            .env("WCS_LOG", "warn")
            .stdout(Stdio::from(file.try_clone().unwrap()))
            .stderr(Stdio::from(file))
            .spawn()
            .unwrap();
        let mut server = Server { child, api: Api::new(port), log: log.to_owned(), log_from };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(response) = server.api.request(Method::GET, "").send().await
                && response.status() == 200
            {
                return server;
            }
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!("the server exited at start-up ({status}); its log:\n{}", server.log_tail());
            }
            assert!(
                Instant::now() < deadline,
                "the server did not answer within 60 s; its log:\n{}",
                server.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL (what `Child::kill` sends on unix): no shutdown code runs.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// What this start of the server logged (warnings and errors), at most its last 4 KB.
    fn log_tail(&self) -> String {
        let mut text = String::new();
        if let Ok(mut file) = std::fs::File::open(&self.log) {
            let _ = file.seek(SeekFrom::Start(self.log_from));
            let _ = file.read_to_string(&mut text);
        }
        let start = text.len().saturating_sub(4096);
        let start = (start..text.len()).find(|i| text.is_char_boundary(*i)).unwrap_or(text.len());
        text[start..].to_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the writes acknowledged so far say about one object.
#[derive(Clone, Debug)]
struct Doc {
    id: String,
    /// Learnt at the first check after its creation.
    uid: Option<String>,
    folder: usize,
    /// The title is `Probe <token>`, the description `<token>`, the text `<p><token></p>`.
    token: String,
    state: String,
    /// Versions ever created (the highest version number).
    versions: u64,
    /// Every token ever sent, for the titles versions may carry.
    tokens: Vec<String>,
}

impl Doc {
    fn path(&self) -> String {
        path_in(self.folder, &self.id)
    }
}

fn path_in(folder: usize, id: &str) -> String {
    format!("f{folder}/{id}")
}

/// A write; the one a writer had sent when the server died stays unknown until the next
/// check decides it.
#[derive(Clone, Debug)]
enum Write {
    Create(Doc),
    Edit { doc: usize, token: String },
    Move { doc: usize, folder: usize },
    Version { doc: usize },
    Transition { doc: usize, transition: &'static str, state: &'static str },
}

impl Write {
    /// The index of the writer's object this write changes (none for a create).
    fn object(&self) -> Option<usize> {
        match self {
            Write::Create(_) => None,
            Write::Edit { doc, .. }
            | Write::Move { doc, .. }
            | Write::Version { doc }
            | Write::Transition { doc, .. } => Some(*doc),
        }
    }
}

fn transitions(state: &str) -> &'static [(&'static str, &'static str)] {
    match state {
        "private" => &[("submit", "pending"), ("publish", "published")],
        "pending" => &[("publish", "published"), ("retract", "private"), ("reject", "private")],
        _ => &[("retract", "private"), ("reject", "private")],
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    creates: u64,
    edits: u64,
    moves: u64,
    versions: u64,
    transitions: u64,
    unknown: u64,
    conflicts: u64,
}

impl Counts {
    fn acknowledged(&self) -> u64 {
        self.creates + self.edits + self.moves + self.versions + self.transitions
    }

    fn add(&mut self, other: &Counts) {
        self.creates += other.creates;
        self.edits += other.edits;
        self.moves += other.moves;
        self.versions += other.versions;
        self.transitions += other.transitions;
        self.unknown += other.unknown;
        self.conflicts += other.conflicts;
    }
}

struct Writer {
    index: usize,
    docs: Vec<Doc>,
    next_id: usize,
    rng: Rng,
}

struct Outcome {
    writer: Writer,
    unknown: Option<Write>,
    counts: Counts,
    failures: Vec<String>,
}

impl Writer {
    fn choose(&mut self) -> Write {
        let n = self.docs.len();
        if n == 0 || (n < DOCS_PER_WRITER && self.rng.below(10) == 0) {
            let id = format!("w{}n{}", self.index, self.next_id);
            self.next_id += 1;
            let token = self.rng.token();
            let folder = self.rng.index(FOLDERS);
            let doc = Doc {
                id,
                uid: None,
                folder,
                token: token.clone(),
                state: "private".into(),
                versions: 0,
                tokens: vec![token],
            };
            return Write::Create(doc);
        }
        // Version creates go to the writer's first object: half of its writes until that object
        // is past the cap, so later kills hit creates that prune.
        let version_share = if self.docs[0].versions <= MAX_VERSIONS { 10 } else { 4 };
        if cfg!(feature = "versioning") && self.rng.below(20) < version_share {
            return Write::Version { doc: 0 };
        }
        let doc = self.rng.index(n);
        match self.rng.below(10) {
            0..4 => Write::Edit { doc, token: self.rng.token() },
            4..7 => {
                let folder = (self.docs[doc].folder + 1 + self.rng.index(FOLDERS - 1)) % FOLDERS;
                Write::Move { doc, folder }
            }
            _ => {
                let choices = transitions(&self.docs[doc].state);
                let (transition, state) = choices[self.rng.index(choices.len())];
                Write::Transition { doc, transition, state }
            }
        }
    }

    fn request(&self, api: &Api, write: &Write, csrf: &str) -> (RequestBuilder, u16) {
        match write {
            Write::Create(doc) => {
                let body = json!({"@type": "Document", "id": doc.id, "title": format!("Probe {}", doc.token),
                                  "description": doc.token, "text": format!("<p>{}</p>", doc.token)});
                (api.request(Method::POST, &format!("f{}", doc.folder)).json(&body), 201)
            }
            Write::Edit { doc, token } => {
                let body =
                    json!({"title": format!("Probe {token}"), "description": token, "text": format!("<p>{token}</p>")});
                (api.request(Method::PATCH, &self.docs[*doc].path()).json(&body), 204)
            }
            Write::Move { doc, folder } => {
                let body = json!({"source": [format!("/{SITE}/{}", self.docs[*doc].path())]});
                (api.request(Method::POST, &format!("f{folder}/@move")).json(&body), 200)
            }
            Write::Version { doc } => {
                let path = format!("{}/@versions", self.docs[*doc].path());
                (api.request(Method::POST, &path).header("X-CSRF-TOKEN", csrf).json(&json!({"comment": "crash"})), 201)
            }
            Write::Transition { doc, transition, .. } => {
                (api.request(Method::POST, &format!("{}/@workflow/{transition}", self.docs[*doc].path())), 200)
            }
        }
    }

    fn apply(&mut self, write: Write, counts: &mut Counts) {
        match write {
            Write::Create(doc) => {
                counts.creates += 1;
                self.docs.push(doc);
            }
            Write::Edit { doc, token } => {
                counts.edits += 1;
                self.docs[doc].tokens.push(token.clone());
                self.docs[doc].token = token;
            }
            Write::Move { doc, folder } => {
                counts.moves += 1;
                self.docs[doc].folder = folder;
            }
            Write::Version { doc } => {
                counts.versions += 1;
                self.docs[doc].versions += 1;
            }
            Write::Transition { doc, state, .. } => {
                counts.transitions += 1;
                self.docs[doc].state = state.to_owned();
            }
        }
    }

    /// Writes until the server stops answering (or the deadline); the write in flight then is
    /// the unknown one.
    async fn run(mut self, api: Api, csrf: String) -> Outcome {
        let deadline = Instant::now() + WRITER_DEADLINE;
        let mut counts = Counts::default();
        let mut failures = Vec::new();
        while Instant::now() < deadline {
            let write = self.choose();
            if let Write::Edit { doc, token } = &write {
                // Sent, so a version may carry it even if the edit is never acknowledged.
                self.docs[*doc].tokens.push(token.clone());
            }
            let (request, expected) = self.request(&api, &write, &csrf);
            let response = match request.send().await {
                Ok(response) => response,
                Err(_) => {
                    counts.unknown += 1;
                    return Outcome { writer: self, unknown: Some(write), counts, failures };
                }
            };
            let status = response.status().as_u16();
            if status == expected {
                if let Write::Move { doc, folder } = &write
                    && let Ok(body) = response.json::<Value>().await
                {
                    let target = api.url(&path_in(*folder, &self.docs[*doc].id));
                    if body[0]["target"] != json!(target) {
                        failures.push(format!("{write:?} was acknowledged with {body}, expected target {target}"));
                    }
                }
                self.apply(write, &mut counts);
            } else if status == 409 {
                // A conflict (e.g. a deadlock between moves on PostgreSQL) is rolled back:
                // the object stays as it was, which the next check confirms.
                counts.conflicts += 1;
            } else {
                let body = response.text().await.unwrap_or_default();
                failures.push(format!("{write:?} answered {status} (expected {expected}): {body}"));
                counts.unknown += 1;
                return Outcome { writer: self, unknown: Some(write), counts, failures };
            }
        }
        Outcome { writer: self, unknown: None, counts, failures }
    }
}

/// Everything the test knows: per writer its objects and the write whose outcome is unknown.
struct World {
    writers: Vec<Writer>,
    unknown: Vec<Option<Write>>,
    folder_uids: Vec<String>,
    /// How the unknown writes turned out, (took effect, did not): both should occur, else the
    /// kills never fell inside a write.
    resolved: (u64, u64),
}

/// The tokens an object's title, description and text carry (they were always written
/// together, so they must agree).
fn tokens_of(object: &Value) -> (String, String, String) {
    let title = object["title"].as_str().unwrap_or_default();
    let title = title.strip_prefix("Probe ").unwrap_or(title).to_owned();
    let description = object["description"].as_str().unwrap_or_default().to_owned();
    let text = object["text"]["data"].as_str().or(object["text"].as_str()).unwrap_or_default();
    let text = text.trim().trim_start_matches("<p>").trim_end_matches("</p>").to_owned();
    (title, description, text)
}

/// Checks storage after a restart against what was acknowledged, decides the unknown writes
/// by what is found, and returns what is wrong.
async fn check_storage(api: &Api, world: &mut World) -> Vec<String> {
    let mut failures = Vec::new();
    let listed = listed_objects(api, &mut failures).await;
    let mut claimed = BTreeSet::new();
    for (writer, unknown) in world.writers.iter_mut().zip(&mut world.unknown) {
        let unknown = unknown.take();
        for (i, doc) in writer.docs.iter_mut().enumerate() {
            let unknown = unknown.as_ref().filter(|write| write.object() == Some(i));
            let before = doc.clone();
            if let Some(path) = check_object(api, &listed, doc, unknown, &mut failures).await {
                claimed.insert(path);
                if let Some(write) = unknown {
                    let took_effect = match write {
                        Write::Edit { .. } => doc.token != before.token,
                        Write::Move { .. } => doc.folder != before.folder,
                        Write::Version { .. } => doc.versions != before.versions,
                        Write::Transition { .. } => doc.state != before.state,
                        Write::Create(_) => false,
                    };
                    resolve(&mut world.resolved, took_effect);
                }
            }
        }
        if let Some(Write::Create(doc)) = unknown {
            let created = check_unknown_create(api, &listed, doc, &mut failures).await;
            resolve(&mut world.resolved, created.is_some());
            if let Some(doc) = created {
                claimed.insert(doc.path());
                writer.docs.push(doc);
            }
        }
    }
    for (path, object) in &listed {
        if !claimed.contains(path) {
            failures.push(format!("{path} ({}) is listed but was never written by the test", object["UID"]));
        }
    }
    failures
}

fn resolve(resolved: &mut (u64, u64), took_effect: bool) {
    if took_effect {
        resolved.0 += 1;
    } else {
        resolved.1 += 1;
    }
}

/// Every object the folders list, by path, as GET answers it: the site lists exactly the
/// folders, each listed child answers GET with what the listing shows, and each uid is listed
/// once.
async fn listed_objects(api: &Api, failures: &mut Vec<String>) -> BTreeMap<String, Value> {
    let (status, _, root) = api.get("?b_size=1000").await;
    let mut folders: Vec<String> =
        root["items"].as_array().into_iter().flatten().map(|i| api.path_of(&i["@id"])).collect();
    folders.sort();
    let expected: Vec<String> = (0..FOLDERS).map(|f| format!("f{f}")).collect();
    if (status, &folders) != (200, &expected) {
        failures
            .push(format!("the site lists {folders:?} (status {status}), expected exactly the folders {expected:?}"));
    }
    let mut listed: BTreeMap<String, Value> = BTreeMap::new();
    for folder in 0..FOLDERS {
        let (status, _, body) = api.get(&format!("f{folder}?b_size=1000")).await;
        let items = body["items"].as_array().cloned().unwrap_or_default();
        if status != 200 || body["items_total"] != json!(items.len()) {
            failures.push(format!(
                "folder f{folder}: expected 200 and one page of items, found {status}, items_total {} with {} items",
                body["items_total"],
                items.len()
            ));
        }
        for item in items {
            let path = api.path_of(&item["@id"]);
            let (status, _, object) = api.get(&path).await;
            if status != 200 {
                failures.push(format!("f{folder} lists {path}, but GET answers {status}: {object}"));
                continue;
            }
            if item["title"] != object["title"] || item["review_state"] != object["review_state"] {
                failures.push(format!(
                    "{path}: the listing shows title {} and state {}, GET shows {} and {}",
                    item["title"], item["review_state"], object["title"], object["review_state"]
                ));
            }
            listed.insert(path, object);
        }
    }
    let mut paths_of_uid: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, object) in &listed {
        paths_of_uid.entry(object["UID"].as_str().unwrap_or_default().to_owned()).or_default().push(path.clone());
    }
    for (uid, paths) in &paths_of_uid {
        if paths.len() != 1 {
            failures.push(format!("object {uid} is listed at {paths:?}, expected at exactly one path"));
        }
    }
    listed
}

/// Checks one object whose creation was acknowledged against what was acknowledged since,
/// allowing the outcome of `unknown` either way, and takes the state found as the truth from
/// now on. Returns the path it is listed at.
async fn check_object(
    api: &Api,
    listed: &BTreeMap<String, Value>,
    doc: &mut Doc,
    unknown: Option<&Write>,
    failures: &mut Vec<String>,
) -> Option<String> {
    let mut candidates = vec![doc.path()];
    let mut tokens = vec![doc.token.clone()];
    let mut states = vec![doc.state.clone()];
    let mut versions = doc.versions..=doc.versions;
    match unknown {
        Some(Write::Move { folder, .. }) => candidates.push(path_in(*folder, &doc.id)),
        Some(Write::Edit { token, .. }) => tokens.push(token.clone()),
        Some(Write::Transition { state, .. }) => states.push((*state).to_owned()),
        Some(Write::Version { .. }) => versions = doc.versions..=doc.versions + 1,
        Some(Write::Create(_)) | None => {}
    }
    let found: Vec<&String> = candidates
        .iter()
        .filter(|p| listed.get(*p).is_some_and(|o| doc.uid.as_ref().is_none_or(|uid| o["UID"] == json!(uid))))
        .collect();
    let [path] = found.as_slice() else {
        let mut answers = Vec::new();
        for candidate in &candidates {
            let (status, _, body) = api.get(candidate).await;
            answers.push(format!("GET {candidate}: {status} UID {}", body["UID"]));
        }
        failures.push(format!(
            "acknowledged object {} ({:?}) expected listed at exactly one of {candidates:?}, found at {found:?}; {}",
            doc.id,
            doc.uid,
            answers.join(", ")
        ));
        return None;
    };
    let path = (*path).clone();
    let object = &listed[&path];
    // Where the object is not, GET finds nothing or redirects to where it is.
    for other in candidates.iter().filter(|c| **c != path) {
        let (status, location, _) = api.get(other).await;
        let to_it = location.as_deref() == Some(api.url(&path).as_str());
        if !(status == 404 || (status == 302 && to_it)) {
            failures.push(format!(
                "{} is at {path}; GET {other} expected 404 or a redirect there, found {status} {location:?}",
                doc.id
            ));
        }
    }
    doc.folder = path[1..path.find('/').unwrap()].parse().unwrap();
    doc.uid = object["UID"].as_str().map(str::to_owned);
    let (title, description, text) = tokens_of(object);
    if title != description || title != text || !tokens.contains(&title) {
        failures.push(format!(
            "{path}: expected title, description and text to carry one of {tokens:?}, found {title:?}, \
             {description:?}, {text:?}"
        ));
    }
    doc.token = title;
    let state = object["review_state"].as_str().unwrap_or_default().to_owned();
    if !states.contains(&state) {
        failures.push(format!("{path}: expected review state in {states:?}, found {state:?}"));
    }
    doc.state = state;
    if cfg!(feature = "versioning") {
        match check_versions(api, &path, doc, versions).await {
            Ok(created) => doc.versions = created,
            Err(failure) => failures.push(failure),
        }
    }
    Some(path)
}

/// A create that got no answer: either the object is wholly there, as sent, or it is not
/// there at all. Returns it when it is there.
async fn check_unknown_create(
    api: &Api,
    listed: &BTreeMap<String, Value>,
    mut doc: Doc,
    failures: &mut Vec<String>,
) -> Option<Doc> {
    let path = doc.path();
    let Some(object) = listed.get(&path) else {
        let (status, _, body) = api.get(&path).await;
        if status != 404 {
            failures.push(format!("{path} is not listed; expected GET to answer 404, found {status}: {body}"));
        }
        return None;
    };
    let (title, description, text) = tokens_of(object);
    let state = object["review_state"].as_str().unwrap_or_default();
    if [&title, &description, &text] != [&doc.token; 3] || state != "private" {
        failures.push(format!(
            "{path} (create without an answer): expected {:?} in title, description and text and state \
             private, found {title:?}, {description:?}, {text:?}, {state:?}",
            doc.token
        ));
    }
    doc.uid = object["UID"].as_str().map(str::to_owned);
    if cfg!(feature = "versioning")
        && let Err(failure) = check_versions(api, &path, &doc, 0..=0).await
    {
        failures.push(failure);
    }
    Some(doc)
}

/// Checks the versions of `doc` at `path`: as many created as `created` allows, the newest ten
/// kept with consecutive numbers, each with a title the object had. Returns how many were
/// created.
async fn check_versions(
    api: &Api,
    path: &str,
    doc: &Doc,
    created: std::ops::RangeInclusive<u64>,
) -> Result<u64, String> {
    let (status, _, list) = api.get(&format!("{path}/@versions")).await;
    if status != 200 {
        return Err(format!("GET {path}/@versions: expected 200, found {status}: {list}"));
    }
    let items = list["items"].as_array().cloned().unwrap_or_default();
    let ids: Vec<u64> = items.iter().filter_map(|i| i["id"].as_str().and_then(|id| id.parse().ok())).collect();
    let newest = ids.iter().copied().max().unwrap_or(0);
    let kept: Vec<u64> = (newest.saturating_sub(MAX_VERSIONS) + 1..=newest).rev().collect();
    if !created.contains(&newest) || ids != kept || list["items_total"] != json!(ids.len()) {
        return Err(format!(
            "{path}: expected {created:?} versions created of which the newest (at most {MAX_VERSIONS}) are kept, \
             found ids {ids:?} (items_total {})",
            list["items_total"]
        ));
    }
    for item in &items {
        let title = item["title"].as_str().unwrap_or_default();
        if !doc.tokens.iter().any(|t| title == format!("Probe {t}")) {
            return Err(format!("{path}: version {} has title {title:?}, expected one the object had", item["id"]));
        }
    }
    Ok(newest)
}

/// Waits until the search index holds exactly the stored objects with their current path,
/// title and review state, and a search for each object's token finds it. Returns how long
/// that took, or what still differs when `CONVERGENCE` has passed.
async fn check_search(api: &Api, world: &World) -> Result<Duration, String> {
    let started = Instant::now();
    let mut expected: BTreeMap<String, (String, String, String)> = BTreeMap::new();
    for (folder, uid) in world.folder_uids.iter().enumerate() {
        expected.insert(uid.clone(), (format!("/{SITE}/f{folder}"), format!("Folder {folder}"), "private".into()));
    }
    for doc in world.writers.iter().flat_map(|w| &w.docs) {
        let uid = doc.uid.clone().unwrap_or_default();
        expected.insert(uid, (format!("/{SITE}/{}", doc.path()), format!("Probe {}", doc.token), doc.state.clone()));
    }
    loop {
        let differences = search_differences(api, world, &expected).await;
        if differences.is_empty() {
            return Ok(started.elapsed());
        }
        if started.elapsed() > CONVERGENCE {
            return Err(differences.join("\n"));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn search_differences(
    api: &Api,
    world: &World,
    expected: &BTreeMap<String, (String, String, String)>,
) -> Vec<String> {
    let query = json!({"query": {"match_all": {}}, "size": 1000});
    let response = api.request(Method::POST, "@raw-es-search").json(&query).send().await.expect("@raw-es-search");
    let status = response.status();
    let answer: Value = response.json().await.unwrap_or(Value::Null);
    if status != 200 {
        return vec![format!("@raw-es-search: expected 200, found {status}: {answer}")];
    }
    let mut indexed: BTreeMap<String, (String, String, String)> = BTreeMap::new();
    for hit in answer["hits"]["hits"].as_array().into_iter().flatten() {
        let source = &hit["_source"];
        let path = source["path"].as_str().unwrap_or_default().to_owned();
        if !path.starts_with(&format!("/{SITE}/")) {
            continue;
        }
        let text = |field: &str| source[field].as_str().unwrap_or_default().to_owned();
        indexed.insert(text("UID"), (path, text("title"), text("review_state")));
    }
    let mut differences = Vec::new();
    for (uid, stored) in expected {
        match indexed.get(uid) {
            Some(found) if found == stored => {}
            found => differences.push(format!("index entry of {uid}: expected {stored:?}, found {found:?}")),
        }
    }
    for (uid, found) in &indexed {
        if !expected.contains_key(uid) {
            differences.push(format!("index entry of {uid}: expected none (not stored), found {found:?}"));
        }
    }
    if !differences.is_empty() {
        return differences;
    }
    for doc in world.writers.iter().flat_map(|w| &w.docs) {
        let (status, _, found) = api.get(&format!("@search?SearchableText={}", doc.token)).await;
        let ids: Vec<String> =
            found["items"].as_array().into_iter().flatten().map(|i| api.path_of(&i["@id"])).collect();
        if status != 200 || !ids.contains(&doc.path()) {
            differences.push(format!(
                "@search?SearchableText={}: expected {} among the results, found {status} {ids:?}",
                doc.token,
                doc.path()
            ));
        }
    }
    differences
}

async fn run(backend: Backend) {
    let seed = seed();
    let name = backend.name();
    eprintln!("crash safety on {name}: seed {seed} (WCS_CRASH_SEED={seed} replays it)");
    let started = Instant::now();
    let mut rng = Rng(seed);
    let data = tempfile::tempdir().unwrap();
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("server.log");
    let mut world = World {
        writers: (0..WRITERS)
            .map(|index| Writer { index, docs: Vec::new(), next_id: 0, rng: Rng(seed ^ ((index as u64 + 1) << 32)) })
            .collect(),
        unknown: vec![None; WRITERS],
        folder_uids: Vec::new(),
        resolved: (0, 0),
    };
    let mut totals = Counts::default();
    let mut slowest_convergence = Duration::ZERO;
    for round in 0..=ROUNDS {
        let context = format!("{name}, seed {seed}, after kill {round}");
        let mut server = Server::start(&backend, data.path(), &log).await;
        let api = server.api.clone();
        if round == 0 {
            for folder in 0..FOLDERS {
                let body = json!({"@type": "Folder", "id": format!("f{folder}"), "title": format!("Folder {folder}")});
                let response = api.request(Method::POST, "").json(&body).send().await.unwrap();
                assert_eq!(response.status(), 201, "creating folder f{folder}");
                let created: Value = response.json().await.unwrap();
                world.folder_uids.push(created["UID"].as_str().unwrap().to_owned());
            }
        } else {
            let failures = check_storage(&api, &mut world).await;
            assert!(failures.is_empty(), "{context}:\n{}\nserver log:\n{}", failures.join("\n"), server.log_tail());
            if cfg!(feature = "es-search") {
                match check_search(&api, &world).await {
                    Ok(took) => slowest_convergence = slowest_convergence.max(took),
                    Err(differences) => panic!(
                        "{context}: the search index did not converge with storage within {CONVERGENCE:?}:\n{differences}"
                    ),
                }
            }
        }
        if round == ROUNDS {
            break;
        }

        let response = api.request(Method::GET, "@@authenticator/token").send().await.unwrap();
        assert_eq!(response.status(), 200, "{context}: the CSRF token");
        let csrf = response.text().await.unwrap();
        let writers: Vec<_> = std::mem::take(&mut world.writers)
            .into_iter()
            .map(|writer| tokio::spawn(writer.run(api.clone(), csrf.clone())))
            .collect();
        let delay = Duration::from_millis(200 + rng.below(1300));
        tokio::time::sleep(delay).await;
        if let Some(status) = server.child.try_wait().unwrap() {
            panic!(
                "{context}: the server exited by itself ({status}) while writes ran; its log:\n{}",
                server.log_tail()
            );
        }
        server.kill();
        let mut round_counts = Counts::default();
        let mut failures = Vec::new();
        for writer in writers {
            let outcome = tokio::time::timeout(Duration::from_secs(60), writer)
                .await
                .expect("a writer stops once the server is gone")
                .unwrap();
            round_counts.add(&outcome.counts);
            failures.extend(outcome.failures);
            world.unknown[outcome.writer.index] = outcome.unknown;
            world.writers.push(outcome.writer);
        }
        world.writers.sort_by_key(|w| w.index);
        assert!(
            failures.is_empty(),
            "{context}: writes answered what they should not:\n{}\nserver log:\n{}",
            failures.join("\n"),
            server.log_tail()
        );
        eprintln!(
            "{name} round {}: killed after {delay:?}, {} writes acknowledged, {} unknown, {} conflicts",
            round + 1,
            round_counts.acknowledged(),
            round_counts.unknown,
            round_counts.conflicts
        );
        totals.add(&round_counts);
    }
    let objects: usize = world.writers.iter().map(|w| w.docs.len()).sum();
    let capped = world.writers.iter().flat_map(|w| &w.docs).filter(|d| d.versions > MAX_VERSIONS).count();
    let search = if cfg!(feature = "es-search") {
        format!("the search index converged within {slowest_convergence:?} at the slowest")
    } else {
        "no search index (es-search is off)".to_owned()
    };
    eprintln!(
        "crash safety on {name}: {ROUNDS} kills in {:.1?}; {} writes acknowledged ({} creates, {} edits, {} moves, \
         {} version creates, {} workflow changes), {} unknown ({} took effect, {} did not), {} conflicts; {objects} \
         objects, {capped} past the version cap; {search}",
        started.elapsed(),
        totals.acknowledged(),
        totals.creates,
        totals.edits,
        totals.moves,
        totals.versions,
        totals.transitions,
        totals.unknown,
        world.resolved.0,
        world.resolved.1,
        totals.conflicts,
    );
    assert!(totals.acknowledged() >= 10 * ROUNDS as u64, "expected the writers to get work done, found {totals:?}");
    if cfg!(feature = "versioning") {
        assert!(
            capped > 0,
            "expected objects past the version cap (else the cap went unchecked), found none: {totals:?}"
        );
    }
}
