//! File and image upload as JSON, their field values, and downloads with Range.

use crate::support::{TestServer, assert_error, read};
use base64::Engine;
use reqwest::Method;
use serde_json::json;

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A 2×3 PNG (signature and IHDR are enough for size detection).
fn tiny_png() -> Vec<u8> {
    let mut png = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, b'I', b'H', b'D', b'R'];
    png.extend_from_slice(&2u32.to_be_bytes());
    png.extend_from_slice(&3u32.to_be_bytes());
    png.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    png
}

#[tokio::test]
async fn file_field_serializes_with_a_cache_busting_download_url() {
    let server = TestServer::start().await;
    let content = b"Hello, file!\n";
    let file = server
        .create("", json!({"@type": "File", "file": {"data": b64(content), "encoding": "base64", "filename": "Bericht ä.txt", "content-type": "text/plain"}}))
        .await;
    assert_eq!(file["title"], "Bericht ä.txt", "title defaults to the file name");
    let value = &file["file"];
    assert_eq!(value["content-type"], "text/plain");
    assert_eq!(value["filename"], "Bericht ä.txt");
    assert_eq!(value["size"], content.len());
    assert!(value.get("sha256").is_none());
    let download = value["download"].as_str().unwrap();
    let object_url = file["@id"].as_str().unwrap();
    let prefix = format!("{object_url}/@@download/file/Bericht%20%C3%A4.txt?_t=");
    assert!(download.starts_with(&prefix), "{download}");
    let stamp: i64 = download[prefix.len()..].parse().unwrap();
    let modified = chrono_ms(file["modified"].as_str().unwrap());
    assert!((stamp - modified).abs() < 1000, "{stamp} vs {modified}");

    let response = server.raw(Method::GET, download).basic_auth("admin", Some("secret")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/plain");
    assert_eq!(response.headers()["content-length"], content.len().to_string().as_str());
    let disposition = response.headers()["content-disposition"].to_str().unwrap().to_owned();
    assert!(
        disposition.starts_with("attachment;") && disposition.contains("UTF-8''Bericht%20%C3%A4.txt"),
        "{disposition}"
    );
    assert_eq!(response.headers()["accept-ranges"], "bytes");
    assert_eq!(response.bytes().await.unwrap().as_ref(), content);
}

fn chrono_ms(iso: &str) -> i64 {
    let date_time = iso.trim_end_matches("+00:00");
    let (date, time) = date_time.split_once('T').unwrap();
    let d: Vec<i64> = date.split('-').map(|x| x.parse().unwrap()).collect();
    let t: Vec<i64> = time.split(':').map(|x| x.parse().unwrap()).collect();
    let days = days_from_civil(d[0], d[1], d[2]);
    ((days * 24 + t[0]) * 60 + t[1]) * 60_000 + t[2] * 1000
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[tokio::test]
async fn ranges_stream_parts_of_the_file() {
    let server = TestServer::start().await;
    let content: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    server.create("", json!({"@type": "File", "title": "Clip", "file": {"data": b64(&content), "filename": "clip.mp4", "content-type": "video/mp4"}})).await;
    let get = |range: &str| server.admin(Method::GET, "clip/@@download/file").header("Range", range.to_owned()).send();
    let response = get("bytes=100-199").await.unwrap();
    assert_eq!(response.status(), 206);
    assert_eq!(response.headers()["content-range"], "bytes 100-199/5000");
    assert_eq!(response.headers()["content-length"], "100");
    assert_eq!(response.bytes().await.unwrap().as_ref(), &content[100..200]);
    let response = get("bytes=-10").await.unwrap();
    assert_eq!(response.status(), 206);
    assert_eq!(response.bytes().await.unwrap().as_ref(), &content[4990..]);
    let response = get("bytes=4990-").await.unwrap();
    assert_eq!(response.headers()["content-range"], "bytes 4990-4999/5000");
    let response = get("bytes=6000-7000").await.unwrap();
    assert_eq!(response.headers()["content-range"], "bytes */5000");
    assert_error(response, 416, "range_not_satisfiable").await;
    let response = server.admin(Method::GET, "clip/@@download").send().await.unwrap();
    assert_eq!(response.status(), 200, "the primary field is the default");
    assert_eq!(response.bytes().await.unwrap().len(), 5000);
    let response = server.admin(Method::GET, "clip/@@download/nofield").send().await.unwrap();
    assert_error(response, 404, "not_found").await;
}

#[tokio::test]
async fn a_stale_if_range_gets_the_whole_new_file() {
    let server = TestServer::start().await;
    let old: Vec<u8> = vec![b'a'; 1000];
    server
        .create("", json!({"@type": "File", "title": "Clip", "file": {"data": b64(&old), "filename": "clip.bin"}}))
        .await;
    let first = server.admin(Method::GET, "clip/@@download/file").send().await.unwrap();
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    let last_modified = first.headers()["last-modified"].to_str().unwrap().to_owned();
    let resume = |validator: &str| {
        server
            .admin(Method::GET, "clip/@@download/file")
            .header("Range", "bytes=500-")
            .header("If-Range", validator.to_owned())
            .send()
    };
    let response = resume(&etag).await.unwrap();
    assert_eq!(response.status(), 206, "the file is unchanged: the range holds");

    let new: Vec<u8> = vec![b'b'; 1200];
    let patch = json!({"file": {"data": b64(&new), "filename": "clip.bin"}});
    assert_eq!(server.admin(Method::PATCH, "clip").json(&patch).send().await.unwrap().status(), 204);
    for validator in [etag.as_str(), last_modified.as_str(), &format!("W/{etag}")] {
        let response = resume(validator).await.unwrap();
        assert_eq!(response.status(), 200, "If-Range: {validator}");
        assert!(response.headers().get("content-range").is_none());
        assert_eq!(response.bytes().await.unwrap().as_ref(), new.as_slice(), "the whole new file, never a splice");
    }
}

#[tokio::test]
async fn large_files_stream_in_chunks() {
    let server = TestServer::start_with(|c| c.edge.max_body_bytes = 8 * 1024 * 1024).await;
    let content: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    server
        .create("", json!({"@type": "File", "title": "Big", "file": {"data": b64(&content), "filename": "big.bin"}}))
        .await;
    let response = server.admin(Method::GET, "big/@@download/file/big.bin").send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/octet-stream");
    let body = response.bytes().await.unwrap();
    assert_eq!(body.len(), content.len());
    assert!(body.as_ref() == content.as_slice());
    let response =
        server.admin(Method::GET, "big/@@download/file").header("Range", "bytes=1048570-2097160").send().await.unwrap();
    assert_eq!(response.status(), 206);
    assert_eq!(response.bytes().await.unwrap().as_ref(), &content[1_048_570..=2_097_160]);
}

#[tokio::test]
async fn images_report_their_size_and_bad_uploads_are_400() {
    let server = TestServer::start().await;
    let image = server.create("", json!({"@type": "Image", "title": "Pic", "image": {"data": b64(&tiny_png()), "filename": "p.png", "content-type": "image/png"}})).await;
    assert_eq!(image["image"]["width"], 2);
    assert_eq!(image["image"]["height"], 3);
    assert!(image["image"]["download"].as_str().unwrap().contains("/@@download/image/p.png?_t="));
    let bad = [
        json!({"@type": "Image", "title": "x", "image": {"data": b64(b"not an image"), "filename": "x.png"}}),
        json!({"@type": "File", "title": "x", "file": {"data": "%%%", "filename": "x"}}),
        json!({"@type": "File", "title": "x", "file": {"data": "", "encoding": "rot13", "filename": "x"}}),
        json!({"@type": "File", "title": "x", "file": {"data": "", "filename": "../etc/passwd"}}),
        json!({"@type": "File", "title": "x", "file": "plain string"}),
        json!({"@type": "File", "title": "no file"}),
    ];
    for body in bad {
        let response = server.admin(Method::POST, "").json(&body).send().await.unwrap();
        let (status, error) = read(response).await;
        assert_eq!(status, 400, "{body} → {error}");
        assert_eq!(error["code"], "validation_failed");
    }
}

#[tokio::test]
async fn replacing_a_file_and_sending_the_value_back_unchanged() {
    let server = TestServer::start().await;
    let file = server
        .create("", json!({"@type": "File", "title": "F", "file": {"data": b64(b"one"), "filename": "a.txt"}}))
        .await;
    let response =
        server.admin(Method::PATCH, "f").json(&json!({"file": file["file"], "title": "Renamed"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let bytes = server.admin(Method::GET, "f/@@download/file").send().await.unwrap().bytes().await.unwrap();
    assert_eq!(bytes.as_ref(), b"one");
    server
        .admin(Method::PATCH, "f")
        .json(&json!({"file": {"data": b64(b"two!"), "filename": "b.txt"}}))
        .send()
        .await
        .unwrap();
    let (_, after) = server.get_json("f").await;
    assert_eq!(after["file"]["filename"], "b.txt");
    assert_eq!(after["file"]["size"], 4);
    let bytes = server.admin(Method::GET, "f/@@download/file").send().await.unwrap().bytes().await.unwrap();
    assert_eq!(bytes.as_ref(), b"two!");
}

#[tokio::test]
async fn bodies_over_the_limit_are_413() {
    let server = TestServer::start().await;
    let huge = "x".repeat(2 * 1024 * 1024);
    let response = server
        .admin(Method::POST, "")
        .json(&json!({"@type": "Document", "title": "t", "description": huge}))
        .send()
        .await
        .unwrap();
    assert_error(response, 413, "payload_too_large").await;
}
