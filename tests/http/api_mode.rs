//! Content negotiation (`Accept`, `++api++`), the theming header, HTML pages, CORS and the
//! OpenAPI document.

use crate::support::{ADMIN_PASSWORD, TestServer, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn api_responses_disable_theming_and_html_is_served_otherwise() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "title": "Seite <1>", "text": "<p>Inhalt</p>"})).await;
    server.admin(Method::POST, "seite-1/@workflow/publish").send().await.unwrap();
    let response = server.admin(Method::GET, "seite-1").send().await.unwrap();
    assert_eq!(response.headers()["x-theme-disabled"], "True");
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("application/json"));

    let api_url = format!("{}/Plone/++api++/seite-1", server.base);
    let response = server.raw(Method::GET, &api_url).send().await.unwrap();
    assert_eq!(response.headers()["x-theme-disabled"], "True");
    let (status, body) = read(response).await;
    assert_eq!(status, 200);
    assert_eq!(body["@id"], server.url("seite-1").as_str(), "@id never carries ++api++");

    let response = server.raw(Method::GET, &server.url("seite-1")).send().await.unwrap();
    assert!(response.headers().get("x-theme-disabled").is_none());
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let html = response.text().await.unwrap();
    assert!(html.contains("<h1>Seite &lt;1&gt;</h1>"), "titles are escaped: {html}");
    assert!(html.contains("<p>Inhalt</p>"));
}

#[tokio::test]
async fn cors_preflight_is_answered_on_every_api_path() {
    let server = TestServer::start().await;
    for path in ["/Plone", "/Plone/++api++/anything/@search", "/Plone/doc/@move"] {
        let response = server
            .raw(Method::OPTIONS, &format!("{}{path}", server.base))
            .header("Origin", "https://editor.example")
            .header("Access-Control-Request-Method", "PATCH")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 204, "{path}");
        assert_eq!(response.headers()["access-control-allow-origin"], "https://editor.example");
        assert!(response.headers()["access-control-allow-methods"].to_str().unwrap().contains("PATCH"));
        assert!(response.headers()["access-control-allow-headers"].to_str().unwrap().contains("Authorization"));
    }
    let response = server.anonymous(Method::GET, "").header("Origin", "https://editor.example").send().await.unwrap();
    assert_eq!(response.headers()["access-control-allow-origin"], "https://editor.example");
    let response = server.anonymous(Method::GET, "").header("Origin", "https://evil.example").send().await.unwrap();
    assert!(response.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn urls_follow_the_forwarded_host() {
    let server = TestServer::start().await;
    let response = server
        .anonymous(Method::GET, "")
        .header("X-Forwarded-Host", "www.example.org")
        .header("X-Forwarded-Proto", "https")
        .send()
        .await
        .unwrap();
    let (_, body) = read(response).await;
    assert_eq!(body["@id"], "https://www.example.org/Plone");
    let response =
        server.anonymous(Method::GET, "").header("X-Forwarded-Host", "evil\"><script>").send().await.unwrap();
    let (_, body) = read(response).await;
    assert_eq!(body["@id"], "http://localhost/Plone", "malformed hosts are not echoed");
}

#[tokio::test]
async fn components_expand_inline() {
    let server = TestServer::start().await;
    let (_, site) = server.get_json("").await;
    assert_eq!(site["@components"]["types"]["@id"], format!("{}/@types", server.site));
    let (_, site) = server.get_json("?expand=types").await;
    let types = site["@components"]["types"].as_array().unwrap();
    let document = types.iter().find(|t| t["id"] == "Document").unwrap();
    assert_eq!(document["addable"], true);
    assert!(types.iter().all(|t| t["id"] != "Plone Site"));
}

#[tokio::test]
async fn the_openapi_document_lists_content_paths_and_plugin_services() {
    let server = TestServer::start().await;
    let (status, doc) =
        read(server.raw(Method::GET, &format!("{}/openapi.json", server.base)).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.0.3");
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths["/{site}/{path}"].get("patch").is_some());
    assert!(paths["/{site}/{path}/@move"].get("post").is_some());
    // Services only the site root answers have no `{path}`.
    assert!(paths["/{site}/@users"].get("post").is_some());
    assert!(paths.get("/{site}/{path}/@users").is_none());
    assert_eq!(paths["/{site}/{path}/@hello"]["get"]["tags"][0], "example-hello");
    let codes = doc["components"]["schemas"]["Error"]["properties"]["code"]["enum"].as_array().unwrap();
    assert!(codes.iter().any(|c| c == "validation_failed"));
    let types = doc["components"]["schemas"]["Error"]["properties"]["type"]["enum"].as_array().unwrap();
    assert!(types.iter().any(|t| t == "BadRequest"));
    if cfg!(feature = "versioning") {
        // Success statuses and bodies come from the handlers' reply types.
        let versions = &paths["/{site}/{path}/@versions"];
        assert_eq!(
            versions["post"]["responses"]["201"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/VersionItem"
        );
        assert!(versions["post"]["responses"].get("200").is_none());
        let one = &paths["/{site}/{path}/@versions/{version_id}"];
        assert_eq!(
            one["delete"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/VersionList"
        );
        let comparison = &paths["/{site}/{path}/@versions/{version_id}/comparison"]["get"];
        let names: Vec<&str> =
            comparison["parameters"].as_array().unwrap().iter().filter_map(|p| p["name"].as_str()).collect();
        assert_eq!(names, ["site", "path", "version_id"]);
        let item = &doc["components"]["schemas"]["VersionItem"];
        assert_eq!(item["properties"]["@id"]["type"], "string");
        assert!(item["required"].as_array().unwrap().contains(&json!("can_restore")));
    }
}

/// The snapshot is of the default build (every shipped plugin on).
#[cfg(all(
    feature = "comments",
    feature = "directdownload",
    feature = "easyform",
    feature = "es-search",
    feature = "multilingual",
    feature = "navigation",
    feature = "versioning"
))]
#[test]
fn the_openapi_document_matches_the_committed_snapshot() {
    let registry = wcs_core::plugin::Registry::build(&Default::default()).unwrap();
    let document = serde_json::to_string_pretty(&wcs_openapi::document(&registry)).unwrap() + "\n";
    let snapshot = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/snapshot.json");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot, &document).unwrap();
    }
    let committed = std::fs::read_to_string(&snapshot).unwrap_or_default();
    assert!(committed == document, "openapi/snapshot.json is stale; rerun with UPDATE_SNAPSHOTS=1 and review the diff");
}

#[tokio::test]
async fn types_describe_their_fields_as_json_schema() {
    let server = TestServer::start().await;
    let response = server.admin(Method::GET, "@types/Document").send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json+schema");
    let schema: serde_json::Value = response.json().await.unwrap();
    assert_eq!(schema["title"], "Page");
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["title"]));
    assert_eq!(schema["layouts"], json!(["document_view"]));
    assert_eq!(schema["properties"]["text"]["widget"], "richtext");
    assert_eq!(
        schema["properties"]["exclude_from_nav"],
        json!({"type": "boolean", "title": "Exclude from navigation",
        "description": "If selected, this item will not appear in the navigation tree",
        "factory": "Yes/No", "behavior": "plone.excludefromnavigation", "default": false})
    );
    assert_eq!(schema["properties"]["text"]["behavior"], "Document", "a type's own field");
    // Plone 6's tabs, in its order, each standard field on its own.
    let tabs: Vec<(&str, Vec<&str>)> = schema["fieldsets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let fields = f["fields"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
            (f["id"].as_str().unwrap(), fields)
        })
        .collect();
    let ids: Vec<&str> = tabs.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, ["default", "preview_image", "categorization", "dates", "ownership", "settings", "layout"]);
    let tab = |id: &str| tabs.iter().find(|(t, _)| *t == id).map(|(_, f)| f.clone()).unwrap_or_default();
    assert!(tab("categorization").contains(&"subjects") && tab("ownership") == ["rights"]);
    assert!(tab("dates").contains(&"effective") && tab("dates").contains(&"expires"));
    assert!(tab("settings").contains(&"exclude_from_nav") && tab("default").contains(&"title"));
    let (status, field) = read(server.admin(Method::GET, "@types/Link/remoteUrl").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(field["widget"], "LinkFieldWidget");
    let (status, error) = read(server.admin(Method::GET, "@types/Nope").send().await.unwrap()).await;
    assert_eq!((status, error["message"].as_str()), (404, Some("Type 'Nope' could not be found.")));
    let (status, _) = read(server.admin(Method::GET, "@types/Document/nofield").send().await.unwrap()).await;
    assert_eq!(status, 404);
}

/// Every service, request hook and component the plugins registered appears in the document.
#[tokio::test]
async fn the_document_lists_every_service_hook_and_component() {
    let server = TestServer::start().await;
    let document = wcs_openapi::document(&server.app.registry);
    let registry = &server.app.registry;
    for (_, service) in registry.services() {
        for route in service.routes {
            let path = wcs_openapi::path_of(service, route);
            let method = service.method.as_str().to_ascii_lowercase();
            let operation = &document["paths"][&path][&method];
            assert!(operation.is_object(), "{method} {path}");
            let responses = operation["responses"].as_object().unwrap();
            let succeeds = responses.keys().any(|status| status.starts_with('2') || status.starts_with('3'));
            assert!(succeeds || operation["x-wcs-always-refused"] == true, "{method} {path}");
        }
    }
    let hooks = document["x-wcs-request-hooks"].to_string();
    for (_, hook) in registry.request_hooks() {
        assert!(hooks.contains(&format!("\"{}\"", hook.name)), "request hook {}", hook.name);
    }
    let parameters = document["paths"]["/{site}/{path}"]["get"]["parameters"].as_array().unwrap();
    let expand = parameters.iter().find(|p| p["name"] == "expand").unwrap();
    let components = &expand["x-wcs-components"];
    for (_, component) in registry.all_components() {
        assert!(components.as_array().unwrap().contains(&serde_json::json!(component.name)), "{}", component.name);
    }
    assert!(components.as_array().unwrap().contains(&serde_json::json!("workflow")));
}

/// Pages allow no script and JSON loads nothing; every answer says not to sniff its type.
#[tokio::test]
async fn answers_carry_a_content_security_policy() {
    let server = TestServer::start().await;
    let page = server.raw(Method::GET, &server.url("")).send().await.unwrap();
    let policy = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(policy.contains("default-src 'none'") && !policy.contains("script-src"), "{policy}");
    assert_eq!(page.headers()["x-content-type-options"], "nosniff");
    let json = server.admin(Method::GET, "").send().await.unwrap();
    let policy = json.headers()["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("frame-ancestors 'none'") && policy.contains("sandbox"), "{policy}");
    let error = server.anonymous(Method::GET, "nowhere").send().await.unwrap();
    assert_eq!(error.status(), 404);
    assert!(error.headers().contains_key("content-security-policy"));
}

/// A GET's ETag comes back as 304 without a body until the answer changes; bodies of 1 KB or
/// more are compressed as the client asks, small ones are not.
#[tokio::test]
async fn etags_answer_304_and_bodies_are_compressed() {
    let server = TestServer::start().await;
    server
        .create("", json!({"@type": "Document", "id": "d", "title": "Tagged", "description": "x".repeat(2000)}))
        .await;
    let navigation = if cfg!(feature = "navigation") { Some("@navigation") } else { None };
    for path in ["d", "d/@breadcrumbs"].into_iter().chain(navigation) {
        let first = server.admin(Method::GET, path).send().await.unwrap();
        assert_eq!(first.status(), 200, "{path}");
        let tag = first.headers()["etag"].to_str().unwrap().to_owned();
        let again = server.admin(Method::GET, path).header("If-None-Match", &tag).send().await.unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"].to_str().unwrap(), tag);
        assert!(again.bytes().await.unwrap().is_empty());
    }
    let tag = server.admin(Method::GET, "d").send().await.unwrap().headers()["etag"].to_str().unwrap().to_owned();
    let patch = server.admin(Method::PATCH, "d").json(&json!({"title": "Changed"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    let after = server.admin(Method::GET, "d").header("If-None-Match", &tag).send().await.unwrap();
    assert_eq!(after.status(), 200, "a write is visible on the very next read");
    assert_eq!(read(after).await.1["title"], "Changed");

    // Over a bare socket: the test's HTTP client may decode bodies itself.
    let (head, body) = raw_get(&server, "d", "gzip").await;
    assert!(head.contains("content-encoding: gzip") && head.contains("vary: accept-encoding"), "{head}");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&body[..]), &mut text).unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap()["title"], "Changed");
    assert!(raw_get(&server, "d", "br, gzip").await.0.contains("content-encoding: br"));
    assert!(!raw_get(&server, "d/@breadcrumbs", "gzip").await.0.contains("content-encoding"), "under 1 KB stays");
}

/// A GET as admin over a bare HTTP/1.1 connection: the head (lowercase) and the raw body.
async fn raw_get(server: &TestServer, path: &str, encoding: &str) -> (String, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = reqwest::Url::parse(&server.url(path)).unwrap();
    let mut stream = tokio::net::TcpStream::connect((url.host_str().unwrap(), url.port().unwrap())).await.unwrap();
    let auth = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, format!("admin:{ADMIN_PASSWORD}"));
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nAccept-Encoding: {encoding}\r\n\
         Authorization: Basic {auth}\r\nConnection: close\r\n\r\n",
        url.path()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    (String::from_utf8_lossy(&answer[..split]).to_lowercase(), answer[split + 4..].to_vec())
}

/// `/healthz` and `/readyz` answer JSON without authentication; every answer carries the
/// client's request id, or a new one.
#[tokio::test]
async fn probes_answer_and_request_ids_are_echoed() {
    let server = TestServer::start().await;
    for (path, state) in [("/healthz", "ok"), ("/readyz", "ready")] {
        let (status, body) =
            read(server.raw(Method::GET, &format!("{}{path}", server.base)).send().await.unwrap()).await;
        assert_eq!((status, body["status"].as_str()), (200, Some(state)), "{path}");
    }
    let response = server.anonymous(Method::GET, "").header("X-Request-Id", "trace-42").send().await.unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-42");
    let response = server.anonymous(Method::GET, "nowhere").header("X-Request-Id", "has a space").send().await;
    let generated = response.unwrap().headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(generated.len(), 32, "a fresh id replaces one that is not sensible");
}
