//! Resumable uploads (TUS 1.0.0, as plone.restapi speaks it): starting, sending chunks,
//! resuming, finishing into a new object or a replaced file, the protocol's refusals, and an
//! upload that goes on after a restart.

use crate::support::{ADMIN_PASSWORD, TestServer, assert_error, read};
use base64::Engine;
use reqwest::{Method, RequestBuilder, Response};
use serde_json::json;

fn b64(text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(text)
}

fn header(response: &Response, name: &str) -> String {
    response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

/// A TUS request as admin to `url` (absolute: uploads are addressed by their `Location`).
fn tus(server: &TestServer, method: Method, url: &str) -> RequestBuilder {
    server.raw(method, url).basic_auth("admin", Some(ADMIN_PASSWORD)).header("Tus-Resumable", "1.0.0")
}

/// Starts an upload of `length` bytes on `path`; its URL.
async fn start(server: &TestServer, path: &str, length: usize, metadata: &str) -> String {
    let response = tus(server, Method::POST, &server.url(path))
        .header("Upload-Length", length.to_string())
        .header("Upload-Metadata", metadata)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201, "starting on {path}");
    assert_eq!(header(&response, "tus-resumable"), "1.0.0");
    assert!(header(&response, "upload-expires").ends_with(" GMT"), "an HTTP date");
    header(&response, "location")
}

async fn send(server: &TestServer, upload: &str, offset: usize, chunk: &[u8]) -> Response {
    tus(server, Method::PATCH, upload)
        .header("Upload-Offset", offset.to_string())
        .header("Content-Type", "application/offset+octet-stream")
        .body(chunk.to_vec())
        .send()
        .await
        .unwrap()
}

async fn offset(server: &TestServer, upload: &str) -> String {
    let response = tus(server, Method::HEAD, upload).send().await.unwrap();
    assert_eq!(response.status(), 200);
    header(&response, "upload-offset")
}

#[tokio::test]
async fn the_endpoint_advertises_the_protocol() {
    let server = TestServer::start().await;
    let response = server.raw(Method::OPTIONS, &server.url("@tus-upload")).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(header(&response, "tus-resumable"), "1.0.0");
    assert_eq!(header(&response, "tus-version"), "1.0.0");
    assert_eq!(header(&response, "tus-extension"), "creation,expiration");
    assert!(header(&response, "tus-max-size").parse::<u64>().is_ok_and(|n| n >= 100 * 1024 * 1024));
    let preflight = server
        .raw(Method::OPTIONS, &server.url("ordner/@tus-upload"))
        .header("Origin", "https://editor.example")
        .header("Access-Control-Request-Method", "PATCH")
        .send()
        .await
        .unwrap();
    assert!(header(&preflight, "access-control-allow-headers").contains("Upload-Offset"));
    let elsewhere = server.raw(Method::OPTIONS, &server.url("")).send().await.unwrap();
    assert_eq!(header(&elsewhere, "tus-resumable"), "", "only the upload endpoints advertise it");
}

#[tokio::test]
async fn chunks_make_a_file_and_the_upload_can_be_resumed_from_where_it_stands() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "ordner", "title": "Ordner"})).await;
    let metadata = format!("filename {},content-type {}", b64("test.txt"), b64("text/plain"));
    let upload = start(&server, "ordner/@tus-upload", 8, &metadata).await;
    assert!(upload.starts_with(&server.url("ordner/@tus-upload/")), "{upload}");
    assert_eq!(offset(&server, &upload).await, "0");

    let response = send(&server, &upload, 0, b"abc").await;
    assert_eq!(response.status(), 204);
    assert_eq!(header(&response, "upload-offset"), "3");
    assert_eq!(header(&response, "location"), "", "not finished");
    assert_eq!(offset(&server, &upload).await, "3", "a client that lost the answer asks, and goes on from 3");

    let response = send(&server, &upload, 3, b"defgh").await;
    assert_eq!(response.status(), 204);
    assert_eq!(header(&response, "upload-offset"), "8");
    let location = header(&response, "location");
    assert_eq!(location, server.url("ordner/test.txt"));
    let (_, file) = read(
        server
            .raw(Method::GET, &location)
            .basic_auth("admin", Some(ADMIN_PASSWORD))
            .header("Accept", "application/json")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((file["@type"].as_str(), file["title"].as_str()), (Some("File"), Some("test.txt")));
    assert_eq!(file["file"]["size"], 8);
    assert_eq!(file["file"]["content-type"], "text/plain");
    let bytes =
        server.admin(Method::GET, "ordner/test.txt/@@download/file").send().await.unwrap().bytes().await.unwrap();
    assert_eq!(&bytes[..], b"abcdefgh");
    let gone = tus(&server, Method::HEAD, &upload).send().await.unwrap();
    assert_eq!(gone.status(), 404, "a finished upload is forgotten");
}

#[tokio::test]
async fn an_image_becomes_an_image_and_a_replace_changes_the_file_in_place() {
    let server = TestServer::start().await;
    let png = base64::engine::general_purpose::STANDARD.decode(crate::images::png(4, 3)).unwrap();
    let metadata = format!("filename {},content-type {}", b64("bild.png"), b64("image/png"));
    let upload = start(&server, "@tus-upload", png.len(), &metadata).await;
    let response = send(&server, &upload, 0, &png).await;
    assert_eq!(header(&response, "location"), server.url("bild.png"));
    let (_, image) = server.get_json("bild.png").await;
    assert_eq!((image["@type"].as_str(), &image["image"]["width"]), (Some("Image"), &json!(4)));

    server.create("", json!({"@type": "File", "id": "datei", "title": "Datei", "file": {"data": b64("old"), "encoding": "base64", "filename": "old.txt"}})).await;
    let metadata = format!("filename {},content-type {}", b64("new.txt"), b64("text/plain"));
    let upload = start(&server, "datei/@tus-replace", 3, &metadata).await;
    assert!(upload.starts_with(&server.url("datei/@tus-upload/")), "continued on @tus-upload: {upload}");
    let response = send(&server, &upload, 0, b"new").await;
    assert_eq!(header(&response, "location"), server.url("datei"));
    let (_, file) = server.get_json("datei").await;
    assert_eq!((file["title"].as_str(), file["file"]["filename"].as_str()), (Some("Datei"), Some("new.txt")));
}

#[tokio::test]
async fn the_protocols_refusals_change_nothing() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    let post = |headers: &[(&str, &str)]| {
        let mut request = server.admin(Method::POST, "@tus-upload");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send()
    };
    let response = post(&[("Upload-Length", "8")]).await.unwrap();
    assert_eq!(header(&response, "tus-version"), "1.0.0");
    assert_error(response, 412, "precondition_failed").await;
    let response = post(&[("Tus-Resumable", "1.0.0"), ("Upload-Length", "acht")]).await.unwrap();
    assert_error(response, 400, "bad_request").await;
    let response = post(&[("Tus-Resumable", "1.0.0"), ("Upload-Length", "99999999999")]).await.unwrap();
    assert_error(response, 413, "payload_too_large").await;
    let response =
        post(&[("Tus-Resumable", "1.0.0"), ("Upload-Length", "8"), ("Upload-Metadata", "filename !!!")]).await;
    assert_error(response.unwrap(), 400, "bad_request").await;
    let type_here = format!("@type {}", b64("NoSuchType"));
    let response = post(&[("Tus-Resumable", "1.0.0"), ("Upload-Length", "8"), ("Upload-Metadata", &type_here)]).await;
    assert_error(response.unwrap(), 400, "unknown_type").await;
    let member = server
        .as_user("anna", Method::POST, "@tus-upload")
        .header("Tus-Resumable", "1.0.0")
        .header("Upload-Length", "8");
    assert_error(member.send().await.unwrap(), 403, "forbidden").await;

    let upload = start(&server, "@tus-upload", 8, &format!("filename {}", b64("a.txt"))).await;
    assert_error(send(&server, &upload, 2, b"abc").await, 409, "conflict").await;
    assert_error(send(&server, &upload, 0, b"abcdefghij").await, 400, "bad_request").await;
    let json = tus(&server, Method::PATCH, &upload).header("Upload-Offset", "0").json(&json!({"a": 1})).send().await;
    assert_error(json.unwrap(), 415, "unsupported_media_type").await;
    let unknown = format!("{}/@tus-upload/{}", server.url(""), "0".repeat(32));
    assert_error(send(&server, &unknown, 0, b"abc").await, 404, "not_found").await;
    assert_error(
        send(&server, &format!("{}/@tus-upload/..%2F..%2Fx", server.url("")), 0, b"a").await,
        404,
        "not_found",
    )
    .await;
    // Someone else's upload is not there for them, even for a Manager.
    server.user("mona", &["Manager"], &[]).await;
    let other = server
        .raw(Method::HEAD, &upload)
        .basic_auth("mona", Some("secret-mona"))
        .header("Tus-Resumable", "1.0.0")
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 404);
    assert_eq!(offset(&server, &upload).await, "0", "nothing was written");
    let (_, root) = server.get_json("").await;
    assert_eq!(root["items_total"], 0, "nothing was created");
}

#[tokio::test]
async fn an_upload_goes_on_after_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let database_url = crate::support::database_url(&data).await;
    let config = |data_dir: std::path::PathBuf| {
        let database_url = database_url.clone();
        move |c: &mut crate::support::ServerConfig| {
            c.database_url = database_url;
            c.data_dir = Some(data_dir);
        }
    };
    let mut first = TestServer::start_with(config(data.path().join("first"))).await;
    let upload = start(&first, "@tus-upload", 6, &format!("filename {}", b64("neu.txt"))).await;
    assert_eq!(send(&first, &upload, 0, b"abc").await.status(), 204);
    first.stop().await;
    // The next process finds the partial upload where the first left it. (It gets a data
    // directory of its own with a copy of the uploads: the first's search index may stay
    // locked a moment after it stopped.)
    let (from, to) = (data.path().join("first/tus-uploads"), data.path().join("second/tus-uploads"));
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
    let again = TestServer::start_with(config(data.path().join("second"))).await;
    let upload = upload.replace(&first.base, &again.base);
    assert_eq!(offset(&again, &upload).await, "3");
    let response = send(&again, &upload, 3, b"def").await;
    assert_eq!(header(&response, "location"), again.url("neu.txt"));
    let bytes = again.admin(Method::GET, "neu.txt/@@download/file").send().await.unwrap().bytes().await.unwrap();
    assert_eq!(&bytes[..], b"abcdef");
}
