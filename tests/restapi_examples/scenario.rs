//! The scenarios: the content each of plone.restapi's documentation tests builds, and the
//! examples it records, in their order (`scenarios.toml`).

use crate::compare::{self, Differences, RECORDED_BASE};
use crate::example::{self, Response};
use crate::support::TestServer;
use base64::Engine;
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::Path;

#[derive(Deserialize)]
pub struct Scenarios {
    pub scenario: Vec<Scenario>,
}

#[derive(Deserialize)]
pub struct Scenario {
    /// plone.restapi's test (`Class.method`).
    pub test: String,
    /// Whether the test class's setUp creates `/front-page`.
    #[serde(default)]
    pub front_page: bool,
    /// Why the whole scenario cannot be replayed.
    pub not_applicable: Option<String>,
    /// The languages of a multilingual test layer, the site language first: chosen in the
    /// language panel before the steps, and each object created then takes two static UIDs
    /// (plone.app.multilingual gives it a translation group's as well).
    #[serde(default)]
    pub languages: Vec<String>,
    #[serde(default)]
    pub step: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub enum Step {
    Example {
        example: String,
    },
    Create {
        create: String,
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        fields: serde_json::Map<String, Value>,
    },
    Request {
        request: String,
        body: Option<Value>,
        user: Option<String>,
        /// The value the recording shows for the last segment of this request's `Location`
        /// (a comment's id): later requests get ours in its place.
        location_as: Option<String>,
        /// The id the recording shows for the object whose URL this request's answer gives
        /// as `@id` (a working copy's): later requests get ours in its place, and our
        /// answers show the recorded one, as ids chosen by another rule.
        id_as: Option<String>,
    },
}

/// What a setup request's answer tells later steps.
#[derive(Default)]
struct Captures<'a> {
    location_as: Option<&'a str>,
    id_as: Option<&'a str>,
}

impl Scenario {
    pub fn examples(&self) -> impl Iterator<Item = &str> {
        self.step.iter().filter_map(|step| match step {
            Step::Example { example } => Some(example.as_str()),
            _ => None,
        })
    }
}

/// What replaying one example showed.
pub struct Outcome {
    pub example: String,
    /// Whether Plone's answer was recorded (some examples document only the request).
    pub recorded: bool,
    pub differences: Differences,
}

/// A scenario's state while it runs: the objects it created, in order (plone.restapi's static
/// UIDs count them: `SomeUUID…0003` is the third), and recorded values our answers replaced
/// (lock tokens, upload URLs), to be replaced in the requests that follow.
struct Replay<'a> {
    test: &'a str,
    server: &'a TestServer,
    examples: &'a Path,
    uids: Vec<String>,
    replaced: Vec<(String, String)>,
    /// Ids our server chose by another rule than Plone (ours, recorded), written back as the
    /// recording's in our answers.
    renamed: Vec<(String, String)>,
    setup_failure: Option<String>,
    /// Whether each object takes a second static UID, for its translation group.
    translation_groups: bool,
}

const PNG: &[u8] = include_bytes!("image.png");
const PDF: &[u8] = include_bytes!("file.pdf");

/// `"@image.png"` and `"@file.pdf"` in a field become an uploaded file.
fn with_files(value: Value) -> Value {
    let file = |bytes: &[u8], name: &str, media_type: &str| {
        json!({"data": base64::engine::general_purpose::STANDARD.encode(bytes), "encoding": "base64",
               "filename": name, "content-type": media_type})
    };
    match value {
        Value::String(s) if s == "@image.png" => file(PNG, "image.png", "image/png"),
        Value::String(s) if s == "@file.pdf" => file(PDF, "file.pdf", "application/pdf"),
        Value::Array(items) => Value::Array(items.into_iter().map(with_files).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, with_files(v))).collect()),
        other => other,
    }
}

/// plone.app.testing's test user, whom plone.restapi's documentation tests make a Manager and
/// as whom they create content: its login name and password.
const TEST_USER: (&str, &str) = ("test-user", "secret-test-user");
/// The test user's id.
const TEST_USER_ID: &str = "test_user_1_";

pub async fn run(server: &TestServer, scenario: &Scenario, examples: &Path) -> Vec<Outcome> {
    let mut replay = Replay {
        test: &scenario.test,
        server,
        examples,
        uids: Vec::new(),
        replaced: Vec::new(),
        renamed: Vec::new(),
        setup_failure: None,
        translation_groups: false,
    };
    // What plone.restapi's test layer gives every test: the site's title and the test user.
    replay.request("PATCH /", Some(json!({"title": "Plone site"})), None, Captures::default()).await;
    let user = json!({"username": TEST_USER_ID, "password": TEST_USER.1, "roles": ["Manager"]});
    replay.request("POST /@users", Some(user), None, Captures::default()).await;
    let login = json!({"username": TEST_USER.0});
    replay.request(&format!("PATCH /@users/{TEST_USER_ID}"), Some(login), None, Captures::default()).await;
    if scenario.front_page {
        let text = "If you're seeing this instead of the web site you were expecting, the owner of this web site \
                    has just installed Plone. Do not contact the Plone Team or the Plone mailing lists about this.";
        let fields = json!({"title": "Welcome to Plone",
            "description": "Congratulations! You have successfully installed Plone.",
            "text": {"data": text, "content-type": "text/plain", "encoding": "utf-8"}});
        replay.create("front-page", "Document", fields.as_object().cloned().unwrap_or_default()).await;
    }
    if let Some(default) = scenario.languages.first() {
        let body = json!({"default_language": default, "available_languages": scenario.languages});
        replay.request("PATCH /@controlpanels/language", Some(body), None, Captures::default()).await;
        replay.translation_groups = true;
    }
    let mut outcomes = Vec::new();
    for step in &scenario.step {
        match step {
            Step::Create { create, kind, fields } => replay.create(create, kind, fields.clone()).await,
            Step::Request { request, body, user, location_as, id_as } => {
                let captures = Captures { location_as: location_as.as_deref(), id_as: id_as.as_deref() };
                replay.request(request, body.clone(), user.as_deref(), captures).await
            }
            Step::Example { example } => outcomes.push(replay.example(example).await),
        }
    }
    outcomes
}

impl Replay<'_> {
    /// Counts an object made, for the static UIDs of the recordings.
    fn created(&mut self, uid: &str) {
        self.uids.push(uid.to_owned());
        if self.translation_groups {
            self.uids.push(String::new());
        }
    }

    fn fail_setup(&mut self, what: String) {
        if self.setup_failure.is_none() {
            self.setup_failure = Some(what);
        }
    }

    async fn create(&mut self, path: &str, kind: &str, fields: serde_json::Map<String, Value>) {
        let (parent, id) = path.rsplit_once('/').unwrap_or(("", path));
        // invokeFactory creates without validation; the API requires a title and a File's or
        // an Image's data, so the id and the fixture files stand in.
        let mut body = with_files(Value::Object(fields));
        body["@type"] = kind.into();
        body["id"] = id.into();
        if body.get("title").is_none() {
            body["title"] = id.into();
        }
        match kind {
            "File" if body.get("file").is_none() => body["file"] = with_files("@file.pdf".into()),
            "Image" if body.get("image").is_none() => body["image"] = with_files("@image.png".into()),
            _ => {}
        }
        let response = self
            .server
            .anonymous(Method::POST, parent)
            .basic_auth(TEST_USER.0, Some(TEST_USER.1))
            .json(&body)
            .send()
            .await;
        match response {
            Ok(response) if response.status() == 201 => {
                let created: Value = response.json().await.unwrap_or_default();
                self.created(created["UID"].as_str().unwrap_or_default());
            }
            Ok(response) => {
                let status = response.status();
                let text = response.text().await.unwrap_or_default();
                self.fail_setup(format!("creating {path} ({kind}): {status} {text}"));
            }
            Err(e) => self.fail_setup(format!("creating {path}: {e}")),
        }
    }

    async fn request(&mut self, request: &str, body: Option<Value>, user: Option<&str>, captures: Captures<'_>) {
        let (method, path) = request.split_once(' ').unwrap_or(("GET", request));
        let method = Method::from_bytes(method.as_bytes()).unwrap_or(Method::GET);
        let path = self.replace(path.trim_start_matches('/'));
        let mut builder = match user {
            None => self.server.admin(method, &path),
            Some("anonymous") => self.server.anonymous(method, &path),
            Some(credentials) => {
                let (name, password) = credentials.split_once(':').unwrap_or((credentials, ""));
                self.server.anonymous(method, &path).basic_auth(name, Some(password))
            }
        };
        if let Some(body) = body {
            let text = self.replace(&with_files(body).to_string());
            builder = builder.header("Content-Type", "application/json").body(text);
        }
        match builder.send().await {
            Ok(response) if response.status().is_success() => {
                let location = response.headers().get("location").and_then(|v| v.to_str().ok());
                if let (Some(recorded), Some(ours)) =
                    (captures.location_as, location.and_then(|l| l.rsplit('/').next()))
                {
                    self.replaced.push((recorded.to_owned(), ours.to_owned()));
                }
                let created: Value = response.json().await.unwrap_or_default();
                let id = created["@id"].as_str().and_then(|url| url.rsplit('/').next());
                if let (Some(recorded), Some(ours)) = (captures.id_as, id) {
                    self.replaced.push((recorded.to_owned(), ours.to_owned()));
                    self.renamed.push((ours.to_owned(), recorded.to_owned()));
                }
                if let Some(uid) = created["UID"].as_str() {
                    self.created(uid);
                }
            }
            Ok(response) => {
                let status = response.status();
                let text = response.text().await.unwrap_or_default();
                self.fail_setup(format!("{request}: {status} {}", text.chars().take(200).collect::<String>()));
            }
            Err(e) => self.fail_setup(format!("{request}: {e}")),
        }
    }

    /// A recorded value replaced by ours: static UIDs by the object created in their place,
    /// the recording's base URL by ours, and what earlier answers replaced.
    fn replace(&self, text: &str) -> String {
        let mut text = text.replace(RECORDED_BASE, &self.server.base);
        for (recorded, ours) in &self.replaced {
            text = text.replace(recorded, ours);
        }
        static STATIC_UID: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| regex::Regex::new(r"SomeUUID(\d{24})").expect("pattern"));
        STATIC_UID
            .replace_all(&text, |found: &regex::Captures| {
                let number: usize = found[1].parse().unwrap_or(0);
                number.checked_sub(1).and_then(|i| self.uids.get(i)).cloned().unwrap_or_else(|| found[0].to_owned())
            })
            .into_owned()
    }

    async fn example(&mut self, name: &str) -> Outcome {
        let request = example::read_request(&self.examples.join(format!("{name}.req")));
        let recorded = example::read_response(&self.examples.join(format!("{name}.resp")));
        let mut outcome = Outcome { example: name.to_owned(), recorded: recorded.is_some(), differences: Vec::new() };
        if let Some(failure) = &self.setup_failure {
            outcome.differences.push(("setup".into(), format!("{}: {failure}", self.test)));
        }
        let actual = match self.send(&request).await {
            Ok(actual) => actual,
            Err(e) => {
                outcome.differences.push(("request".into(), e));
                return outcome;
            }
        };
        if let Some(recorded) = &recorded {
            self.learn(recorded, &actual);
            outcome.differences.extend(compare::compare(recorded, &actual));
        }
        if request.method == "POST"
            && actual.status == 201
            && let Ok(created) = serde_json::from_slice::<Value>(&actual.body)
            && let Some(uid) = created["UID"].as_str()
        {
            self.created(uid);
        }
        outcome
    }

    async fn send(&self, request: &example::Request) -> Result<Response, String> {
        let method = Method::from_bytes(request.method.as_bytes()).map_err(|e| e.to_string())?;
        let url = format!("{}{}", self.server.base, self.replace(&request.target));
        let mut builder = self.server.raw(method, &url);
        for (name, value) in &request.headers {
            let value = if name.eq_ignore_ascii_case("authorization") && value.starts_with("Bearer ") {
                format!("Bearer {}", self.admin_token().await?)
            } else {
                self.replace(value)
            };
            builder = builder.header(name.as_str(), value);
        }
        if let Some(body) = &request.body {
            let body = match String::from_utf8(body.clone()) {
                Ok(text) => self.replace(&text).into_bytes(),
                Err(_) => body.clone(),
            };
            builder = builder.body(body);
        }
        let response = builder.send().await.map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_owned(), self.to_recorded(&String::from_utf8_lossy(v.as_bytes()))))
            .collect();
        let body = response.bytes().await.map_err(|e| e.to_string())?;
        let body = match String::from_utf8(body.to_vec()) {
            Ok(text) => self.to_recorded(&text).into_bytes(),
            Err(_) => body.to_vec(),
        };
        Ok(Response { status, headers, body })
    }

    /// Our base URL written as the recording's, and our ids of renamed objects as its.
    fn to_recorded(&self, text: &str) -> String {
        let mut text = text.replace(&self.server.base, RECORDED_BASE);
        for (ours, recorded) in &self.renamed {
            text = text.replace(&format!("/{ours}"), &format!("/{recorded}"));
        }
        text
    }

    async fn admin_token(&self) -> Result<String, String> {
        let body = json!({"login": "admin", "password": crate::support::ADMIN_PASSWORD});
        let response =
            self.server.anonymous(Method::POST, "@login").json(&body).send().await.map_err(|e| e.to_string())?;
        let answer: Value = response.json().await.map_err(|e| e.to_string())?;
        answer["token"].as_str().map(str::to_owned).ok_or_else(|| format!("@login answered {answer}"))
    }

    /// Values of Plone's answer that later requests quote (a lock token, an upload's URL):
    /// where ours differs, later requests get ours.
    fn learn(&mut self, recorded: &Response, actual: &Response) {
        if let (Some(theirs), Some(ours)) = (recorded.header("location"), actual.header("location")) {
            self.remember(theirs, &ours.replace(RECORDED_BASE, &self.server.base));
        }
        let (Ok(theirs), Ok(ours)) =
            (serde_json::from_slice::<Value>(&recorded.body), serde_json::from_slice::<Value>(&actual.body))
        else {
            return;
        };
        for key in ["token", "UID"] {
            if let (Some(a), Some(b)) = (theirs[key].as_str(), ours[key].as_str()) {
                self.remember(a, b);
            }
        }
    }

    fn remember(&mut self, recorded: &str, ours: &str) {
        let recorded = recorded.replace(RECORDED_BASE, "");
        let ours = ours.replace(&self.server.base, "");
        if !recorded.is_empty() && recorded != ours {
            self.replaced.push((recorded, ours));
        }
    }
}
