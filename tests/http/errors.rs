//! Bad input gets a clear 4xx with a JSON error body, never a 500 or a panic.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};

#[tokio::test]
async fn a_battery_of_malformed_requests_gets_4xx_json_errors() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "F"})).await;
    server.create("", json!({"@type": "Document", "title": "D"})).await;
    server.create("", json!({"@type": "File", "title": "Bin", "file": {"data": "aGk=", "filename": "hi.txt"}})).await;
    let long_id = "a".repeat(500);
    let cases: Vec<(Method, String, Option<&str>, Option<&str>)> = vec![
        (Method::POST, "".into(), Some("{not json"), None),
        (Method::POST, "".into(), Some("[1, 2]"), None),
        (Method::POST, "".into(), Some("\"string\""), None),
        (Method::POST, "".into(), Some(""), None),
        (Method::POST, "".into(), Some("{\"@type\": 42}"), None),
        (Method::POST, "".into(), Some("{\"@type\": \"Document\"}"), None),
        (Method::POST, "".into(), Some("{\"@type\": \"Document\", \"title\": [\"x\"]}"), None),
        (Method::POST, "".into(), Some("{\"@type\": \"Document\", \"title\": \"x\", \"bogus\": 1}"), None),
        (Method::POST, "".into(), Some("{\"@type\": \"Document\", \"title\": \"line\\nbreak\"}"), None),
        (
            Method::POST,
            "".into(),
            Some("{\"@type\": \"Document\", \"title\": \"x\", \"effective\": \"next tuesday\"}"),
            None,
        ),
        (
            Method::POST,
            "".into(),
            Some("{\"@type\": \"Document\", \"title\": \"x\", \"subjects\": \"notalist\"}"),
            None,
        ),
        (Method::POST, "".into(), Some("{\"@type\": \"Document\", \"title\": \"x\", \"text\": 5}"), None),
        (
            Method::POST,
            "".into(),
            Some("{\"@type\": \"Document\", \"title\": \"x\", \"exclude_from_nav\": \"true\"}"),
            None,
        ),
        (Method::POST, "".into(), Some("{\"@type\": \"Document\", \"title\": \"x\", \"UID\": \"short\"}"), None),
        (Method::POST, "".into(), Some("{\"@type\": \"Document\", \"title\": \"x\", \"id\": 7}"), None),
        (
            Method::POST,
            "".into(),
            Some(Box::leak(
                format!("{{\"@type\": \"Document\", \"title\": \"x\", \"id\": \"{long_id}\"}}").into_boxed_str(),
            )),
            None,
        ),
        (
            Method::POST,
            "".into(),
            Some(Box::leak(
                format!("{{\"@type\": \"Document\", \"title\": \"{}\"}}", "t".repeat(5000)).into_boxed_str(),
            )),
            None,
        ),
        (Method::PATCH, "d".into(), Some("{\"title\": null}"), None),
        (Method::PATCH, "d".into(), Some("nope"), None),
        (Method::PATCH, "d".into(), Some("{\"id\": \"../x\"}"), None),
        (Method::PATCH, "d".into(), Some("{\"layout\": 3}"), None),
        (Method::PATCH, "f".into(), Some("{\"ordering\": \"top\"}"), None),
        (Method::PATCH, "f".into(), Some("{\"ordering\": {\"obj_id\": 3, \"delta\": 1}}"), None),
        (Method::PUT, "d".into(), Some("{}"), None),
        (Method::POST, "f/@move".into(), Some("{\"source\": {}}"), None),
        (Method::POST, "f/@copy".into(), Some("{\"source\": []}"), None),
        (Method::POST, "f/@copy".into(), Some("{\"source\": [\"http://x\"]}"), None),
        (Method::GET, "f?b_size=abc".into(), None, None),
        (Method::GET, "f?b_size=-1".into(), None, None),
        (Method::GET, "f?b_start=1e9".into(), None, None),
        (Method::GET, "f?b_size=99999999999999999999999".into(), None, None),
        (Method::GET, "f?fullobjects=maybe".into(), None, None),
        (Method::GET, "f?include_items=2".into(), None, None),
        (Method::GET, "nope/nothing".into(), None, None),
        (Method::GET, "%ff%fe".into(), None, None),
        (Method::GET, "f/@@download".into(), None, None),
        (Method::GET, "bin/@@download/file".into(), None, Some("bytes=999-")),
        (Method::GET, "@unknown-service".into(), None, None),
        (Method::DELETE, "@move".into(), None, None),
        (Method::GET, Box::leak("a/".repeat(100).into_boxed_str()).to_owned(), None, None),
        (Method::POST, "d".into(), Some("{}"), None),
    ];
    for (method, path, body, range) in cases {
        let mut request = server.admin(method.clone(), &path).header("Content-Type", "application/json");
        if let Some(body) = body {
            request = request.body(body.to_owned());
        }
        if let Some(range) = range {
            request = request.header("Range", range);
        }
        let (status, error) = read(request.send().await.unwrap()).await;
        let shown: String = path.chars().take(60).collect();
        assert!((400..500).contains(&status), "{method} {shown} {body:?} → {status} {error}");
        assert!(
            error["type"].is_string() && error["code"].is_string() && error["message"].is_string(),
            "{method} {shown}: {error}"
        );
        let code = error["code"].as_str().unwrap();
        assert!(wcs_core::http::ErrorCode::ALL.iter().any(|c| c.code() == code), "code {code} not in the catalogue");
        if status == 400 && matches!(code, "validation_failed" | "invalid_parameter") {
            assert!(
                error["errors"].as_array().is_some_and(|e| !e.is_empty() && e.iter().all(|e| e["field"].is_string())),
                "{error}"
            );
        }
    }
    let (status, _) = server.get_json("").await;
    assert_eq!(status, 200, "the server survived");
}

#[tokio::test]
async fn error_bodies_follow_the_catalogue() {
    let server = TestServer::start().await;
    let (status, body) =
        read(server.admin(Method::POST, "").body("{").header("Content-Type", "application/json").send().await.unwrap())
            .await;
    assert_eq!(status, 400);
    assert_eq!(body["type"], "DeserializationError");
    assert_eq!(body["code"], "invalid_json");
    let (status, body) = read(
        server
            .admin(Method::POST, "")
            .json(&json!({"@type": "Document", "title": "x", "colour": 1}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["type"], "BadRequest");
    assert_eq!(
        body["errors"],
        json!([{"field": "colour", "message": "'colour' is not a field of Document.", "error": "ValidationError"}])
    );
    let (_, body) = read(server.admin(Method::GET, "missing").send().await.unwrap()).await;
    assert_eq!(body["message"], Value::from(format!("Resource not found: {}", server.url("missing"))));
}
