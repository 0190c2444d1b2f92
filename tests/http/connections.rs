//! Connections cannot hold the server: stalled headers, stalled bodies and idle keep-alive
//! connections are closed, slow bodies get 408, and oversized URLs and headers get the
//! catalogue's JSON errors. A graceful stop lets the request in progress finish.

use crate::support::TestServer;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn server() -> TestServer {
    TestServer::start_with(|config| {
        config.edge.timeouts.idle = Duration::from_secs(2);
        config.edge.timeouts.body = Duration::from_secs(1);
    })
    .await
}

async fn connect(server: &TestServer) -> TcpStream {
    let url = reqwest::Url::parse(&server.url("")).unwrap();
    TcpStream::connect((url.host_str().unwrap(), url.port().unwrap())).await.unwrap()
}

/// Reads until the server closes the connection (or 15 s pass): what it sent, and how long
/// it took.
async fn read_until_closed(stream: &mut TcpStream) -> (String, Duration) {
    let started = Instant::now();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout(Duration::from_secs(15), stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => answer.extend_from_slice(&buffer[..n]),
            Err(_) => panic!("the server kept the connection open for 15 s"),
        }
    }
    (String::from_utf8_lossy(&answer).into_owned(), started.elapsed())
}

#[tokio::test]
async fn stalled_headers_are_closed() {
    let server = server().await;
    let mut stream = connect(&server).await;
    stream.write_all(b"GET /Plone HTTP/1.1\r\nHost: localhost\r\n").await.unwrap();
    let (answer, _) = read_until_closed(&mut stream).await;
    assert!(!answer.contains("200 OK"), "no request was completed: {answer}");
}

#[tokio::test]
async fn silent_connections_are_closed() {
    let server = server().await;
    let mut stream = connect(&server).await;
    let (answer, _) = read_until_closed(&mut stream).await;
    assert!(answer.is_empty(), "nothing was asked, nothing answered: {answer}");
}

#[tokio::test]
async fn a_body_that_stops_gets_408_and_the_connection_closes() {
    let server = server().await;
    let mut stream = connect(&server).await;
    let head = "POST /Plone HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\
                Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"title\":";
    stream.write_all(head.as_bytes()).await.unwrap();
    let (answer, _) = read_until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\""), "{answer}");
}

#[tokio::test]
async fn idle_keep_alive_connections_are_closed() {
    let server = server().await;
    let mut stream = connect(&server).await;
    stream.write_all(b"GET /Plone HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n").await.unwrap();
    let (answer, _) = read_until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "the request is answered, then the idle connection closed: {answer}");
}

#[tokio::test]
async fn oversized_urls_and_headers_get_json_errors() {
    let server = TestServer::start().await;
    let long = server.anonymous(reqwest::Method::GET, &format!("?q={}", "x".repeat(9000)));
    let response = long.send().await.unwrap();
    assert_eq!(response.status(), 414);
    assert_eq!(response.json::<serde_json::Value>().await.unwrap()["code"], "uri_too_long");
    let mut many = server.anonymous(reqwest::Method::GET, "");
    for n in 0..70 {
        many = many.header(format!("x-filler-{n}"), "1");
    }
    let response = many.send().await.unwrap();
    assert_eq!(response.status(), 431);
    assert_eq!(response.json::<serde_json::Value>().await.unwrap()["code"], "header_fields_too_large");
}

#[tokio::test]
async fn what_the_http_library_refuses_itself_gets_a_json_error_too() {
    let server = server().await;
    let huge_path = format!("GET /Plone/{} HTTP/1.1\r\nHost: localhost\r\n\r\n", "x".repeat(100_000));
    let not_http = "NOT HTTP AT ALL\r\n\r\n".to_owned();
    for (request, status, code) in [(huge_path, "414", "uri_too_long"), (not_http, "400", "bad_request")] {
        let mut stream = connect(&server).await;
        stream.write_all(request.as_bytes()).await.unwrap();
        let (answer, _) = read_until_closed(&mut stream).await;
        assert!(answer.starts_with(&format!("HTTP/1.1 {status}")), "{answer}");
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(body["code"], code, "{body}");
    }
}

#[tokio::test]
async fn a_graceful_stop_finishes_the_request_in_progress_and_takes_no_new_one() {
    let mut server = server().await;
    let mut stream = connect(&server).await;
    let body = r#"{"@type": "Document", "id": "late", "title": "Late"}"#;
    let (first, rest) = body.split_at(10);
    let head = format!(
        "POST /Plone HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nContent-Type: application/json\r\n\
         Authorization: Basic YWRtaW46c2VjcmV0\r\nContent-Length: {}\r\n\r\n{first}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // Time for the server to accept the connection and start on the request: a connection it
    // has not accepted yet is refused when it stops.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let finish_request = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        stream.write_all(rest.as_bytes()).await.unwrap();
        read_until_closed(&mut stream).await
    };
    let ((answer, _), ()) = tokio::join!(finish_request, server.stop());
    assert!(answer.starts_with("HTTP/1.1 201"), "the request in progress was answered: {answer}");
    let url = reqwest::Url::parse(&server.url("")).unwrap();
    assert!(
        TcpStream::connect((url.host_str().unwrap(), url.port().unwrap())).await.is_err(),
        "a stopped server took a new connection"
    );
}
