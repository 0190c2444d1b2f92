//! Mail from the site: `@email-send` for Managers and `@email-notification`, the contact form
//! for visitors (limited per client); both go through the outbox and out over SMTP as the mail
//! panel says.

use crate::support::{TestServer, assert_error, read, smtp_sink};
use reqwest::Method;
use serde_json::json;
use sqlx::Row;

async fn queued(server: &TestServer) -> Vec<(String, String, Option<String>, String)> {
    let rows = sqlx::query("SELECT source, recipients, reply_to, subject FROM mail_outbox ORDER BY id")
        .fetch_all(server.app.store.pool())
        .await
        .unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1), r.get(2), r.get(3))).collect()
}

#[tokio::test]
async fn managers_send_mail_through_the_panels_smtp_server() {
    let server = TestServer::start().await;
    let mail = json!({"to": "buerger@example.org", "from": "amt@gemeinde.example", "name": "Das Amt",
                      "subject": "Ihr Antrag", "message": "Er ist da."});
    let response = server.anonymous(Method::POST, "@email-send").json(&mail).send().await.unwrap();
    assert_eq!(response.status(), 401);
    let (port, received) = smtp_sink().await;
    let panel = json!({"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_security": "none",
                       "email_from_address": "site@gemeinde.example"});
    let response = server.admin(Method::PATCH, "@controlpanels/mail").json(&panel).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let response = server.admin(Method::POST, "@email-send").json(&mail).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let data = tokio::time::timeout(std::time::Duration::from_secs(15), received).await.unwrap().unwrap();
    assert!(data.contains("To: buerger@example.org") && data.contains("Reply-To: amt@gemeinde.example"), "{data}");
    assert!(data.contains("From: site@gemeinde.example") && data.contains("Subject: Ihr Antrag"), "{data}");
    assert!(data.contains("Er ist da.") && data.contains("Das Amt"), "{data}");

    for bad in [
        json!({"to": "nobody", "subject": "x", "message": "y"}),
        json!({"to": "a@b.example", "subject": "a\nBcc: x@y.example", "message": "y"}),
    ] {
        let response = server.admin(Method::POST, "@email-send").json(&bad).send().await.unwrap();
        assert_error(response, 400, "validation_failed").await;
    }
}

#[tokio::test]
async fn visitors_write_to_the_site_within_a_limit() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    server.transition("seite", "publish").await;
    let registry = json!({"wcs.backend.mail.sender": "info@gemeinde.example"});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&registry).send().await.unwrap().status(), 204);
    let message = json!({"name": "Anna", "from": "anna@example.org", "message": "Eine Frage."});
    let response = server.anonymous(Method::POST, "seite/@email-notification").json(&message).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let sent = queued(&server).await;
    assert_eq!(
        sent,
        [(
            "email-notification".to_owned(),
            "info@gemeinde.example".to_owned(),
            Some("anna@example.org".to_owned()),
            "Message from Seite".to_owned()
        )]
    );
    let body: String =
        sqlx::query("SELECT body FROM mail_outbox").fetch_one(server.app.store.pool()).await.unwrap().get(0);
    assert!(body.contains(&server.url("seite")) && body.contains("Eine Frage."), "{body}");

    let response = server.anonymous(Method::POST, "seite/@email-notification").json(&json!({"from": "x"})).send();
    assert_error(response.await.unwrap(), 400, "validation_failed").await;
    let (status, _) =
        read(server.anonymous(Method::POST, "@email-notification").json(&message).send().await.unwrap()).await;
    assert_eq!(status, 204, "the third message within the minute");
    let response = server.anonymous(Method::POST, "@email-notification").json(&message).send().await.unwrap();
    assert_eq!(response.status(), 429, "the limit (3 per minute by default)");
    assert!(response.headers().contains_key("retry-after"));
    assert_eq!(queued(&server).await.len(), 2, "refused messages are not queued");
}
