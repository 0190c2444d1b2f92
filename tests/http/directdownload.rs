//! The directdownload plugin: while `wcs.backend.api.directdownload` is true, an anonymous API
//! GET of a File answers the file itself (streamed, with its headers, Range and conditional
//! GET); audio and video, `?json=true`, logged-in callers and other types get the JSON.

use crate::support::{ADMIN_PASSWORD, TestServer, assert_error, read};
use base64::Engine;
use reqwest::Method;
use serde_json::json;

const RECORD: &str = "wcs.backend.api.directdownload";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";

fn file(id: &str, filename: &str, content_type: &str, bytes: &[u8]) -> serde_json::Value {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    json!({"@type": "File", "id": id, "title": id,
           "file": {"data": data, "encoding": "base64", "filename": filename, "content-type": content_type}})
}

async fn switch(server: &TestServer, on: bool) {
    let patch = json!({RECORD: on});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap().status(), 204);
}

#[tokio::test]
async fn anonymous_api_gets_of_a_file_answer_the_file_while_the_record_is_on() {
    let server = TestServer::start().await;
    server.create("", file("bericht", "Jahresbericht ä.pdf", "application/pdf", PDF)).await;
    server.create("", file("clip", "clip.mp4", "video/mp4", b"....ftypmp42")).await;
    server.create("", file("song", "song.mp3", "audio/mpeg", b"ID3")).await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    server.transition("seite", "publish").await;

    let (status, value) = server.get_json(&format!("@registry/{RECORD}")).await;
    assert_eq!((status, value), (200, json!(false)), "off by default");
    let (status, body) = read(server.anonymous(Method::GET, "bericht").send().await.unwrap()).await;
    assert_eq!((status, &body["@type"]), (200, &json!("File")), "off: the JSON object");

    switch(&server, true).await;
    let response = server.anonymous(Method::GET, "bericht").send().await.unwrap();
    assert_eq!(response.status(), 200, "on: takes effect on the next request");
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "application/pdf");
    assert_eq!(headers["content-length"], PDF.len().to_string().as_str());
    let disposition = headers["content-disposition"].to_str().unwrap();
    assert!(disposition.starts_with("attachment;") && disposition.contains("UTF-8''Jahresbericht%20%C3%A4.pdf"));
    let etag = headers["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with('"') && etag.len() == 66, "{etag}");
    let last_modified = headers["last-modified"].to_str().unwrap().to_owned();
    assert!(last_modified.ends_with(" GMT"), "{last_modified}");
    assert_eq!(response.bytes().await.unwrap().as_ref(), PDF);

    // The ++api++ form of an API request is the same request.
    let api = server.raw(Method::GET, &format!("{}/++api++/bericht", server.site)).send().await.unwrap();
    assert_eq!((api.status().as_u16(), api.bytes().await.unwrap().as_ref()), (200, PDF));

    let cached = server.anonymous(Method::GET, "bericht").header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(cached.status(), 304);
    assert_eq!(cached.headers()["etag"], etag.as_str());
    assert!(cached.bytes().await.unwrap().is_empty());
    let since = server.anonymous(Method::GET, "bericht").header("If-Modified-Since", &last_modified);
    assert_eq!(since.send().await.unwrap().status(), 304);
    let stale = server.anonymous(Method::GET, "bericht").header("If-None-Match", "\"other\"").send().await.unwrap();
    assert_eq!(stale.status(), 200, "another version's tag gets the file");

    let range = server.anonymous(Method::GET, "bericht").header("Range", "bytes=0-3").send().await.unwrap();
    assert_eq!(range.status(), 206);
    assert_eq!(range.headers()["content-range"], format!("bytes 0-3/{}", PDF.len()).as_str());
    assert_eq!(range.bytes().await.unwrap().as_ref(), b"%PDF");
    let outside = server.anonymous(Method::GET, "bericht").header("Range", "bytes=9999-").send().await.unwrap();
    assert_error(outside, 416, "range_not_satisfiable").await;

    for json_wanted in ["bericht?json=true", "bericht?json=1"] {
        let (status, body) = read(server.anonymous(Method::GET, json_wanted).send().await.unwrap()).await;
        assert_eq!((status, &body["@type"]), (200, &json!("File")), "{json_wanted} forces JSON");
    }
    let not_forced = server.anonymous(Method::GET, "bericht?json=false").send().await.unwrap();
    assert_eq!(not_forced.bytes().await.unwrap().as_ref(), PDF, "json=false forces nothing");
    assert_error(
        server.anonymous(Method::GET, "bericht?json=vielleicht").send().await.unwrap(),
        400,
        "invalid_parameter",
    )
    .await;
    for media in ["clip", "song"] {
        let (status, body) = read(server.anonymous(Method::GET, media).send().await.unwrap()).await;
        assert_eq!((status, &body["@type"]), (200, &json!("File")), "{media}: streaming players keep the JSON");
    }
    let (status, body) = server.get_json("bericht").await;
    assert_eq!((status, &body["@type"]), (200, &json!("File")), "logged-in callers get the JSON");
    let (status, body) = read(server.anonymous(Method::GET, "seite").send().await.unwrap()).await;
    assert_eq!((status, &body["@type"]), (200, &json!("Document")), "other types are untouched");
    let (status, _) = read(server.anonymous(Method::GET, "bericht/@breadcrumbs").send().await.unwrap()).await;
    assert_eq!(status, 200, "services of a File are untouched");
    let page = server.raw(Method::GET, &server.url("bericht")).header("Accept", "text/html").send().await.unwrap();
    assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"), "browsers get the page");

    switch(&server, false).await;
    let (status, body) = read(server.anonymous(Method::GET, "bericht").send().await.unwrap()).await;
    assert_eq!((status, &body["@type"]), (200, &json!("File")), "off again from the next request");
}

#[tokio::test]
async fn a_file_anonymous_callers_may_not_see_is_never_handed_out() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "intern", "title": "Intern"})).await;
    server.create("intern", file("geheim", "geheim.pdf", "application/pdf", PDF)).await;
    switch(&server, true).await;
    let hidden = server.anonymous(Method::GET, "intern/geheim").send().await.unwrap();
    assert_eq!(hidden.status(), 401);
    assert!(!hidden.bytes().await.unwrap().windows(4).any(|w| w == b"%PDF"), "no byte of the file");
    let admin = server
        .raw(Method::GET, &server.url("intern/geheim"))
        .header("Accept", "application/json")
        .basic_auth("admin", Some(ADMIN_PASSWORD));
    let (status, body) = read(admin.send().await.unwrap()).await;
    assert_eq!((status, &body["@type"]), (200, &json!("File")));
}
