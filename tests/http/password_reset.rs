//! `POST @users/<id>/reset-password`: a reset link by mail for anyone who asks (without telling
//! which accounts exist), a new password with the link's token (once), and changing one's own
//! password with the old one.

use crate::support::{TestServer, assert_error};
use reqwest::Method;
use serde_json::json;
use sqlx::Row;

async fn reset_mails(server: &TestServer) -> Vec<(String, String)> {
    let sql = "SELECT recipients, body FROM mail_outbox WHERE source = 'reset-password' ORDER BY id";
    let rows = sqlx::query(sql).fetch_all(server.app.store.pool()).await.unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1))).collect()
}

fn token_in(body: &str) -> String {
    let after = body.split("/passwordreset/").nth(1).unwrap_or_default();
    after.split('?').next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_mailed_token_sets_a_new_password_once() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    let response = server.anonymous(Method::POST, "@users/anna/reset-password").send().await.unwrap();
    assert_eq!(response.status(), 204);
    let mails = reset_mails(&server).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].0, "anna@example.org");
    assert!(mails[0].1.contains(&server.url("passwordreset/")) && mails[0].1.contains("userid=anna"), "{}", mails[0].1);
    let token = token_in(&mails[0].1);

    let set = json!({"reset_token": token, "new_password": "ganz-neu-123"});
    let response = server.anonymous(Method::POST, "@users/anna/reset-password").json(&set).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let me = server.anonymous(Method::GET, "@users/anna").basic_auth("anna", Some("ganz-neu-123")).send();
    assert_eq!(me.await.unwrap().status(), 200, "the new password works");
    let again = json!({"reset_token": token, "new_password": "noch-neuer-456"});
    let response = server.anonymous(Method::POST, "@users/anna/reset-password").json(&again).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    let forged = json!({"reset_token": "99999999999.00", "new_password": "noch-neuer-456"});
    let response = server.anonymous(Method::POST, "@users/anna/reset-password").json(&forged).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
}

/// Behind a front end's proxy the link leads to the front end's root, where its reset form is.
#[tokio::test]
async fn the_link_follows_the_virtual_host() {
    let server = TestServer::start().await;
    server.user("vera", &["Member"], &[]).await;
    let url = format!(
        "{}/VirtualHostBase/http/localhost:3000/Plone/++api++/VirtualHostRoot/@users/vera/reset-password",
        server.base
    );
    assert_eq!(server.raw(Method::POST, &url).send().await.unwrap().status(), 204);
    let mails = reset_mails(&server).await;
    assert!(mails[0].1.contains("http://localhost:3000/passwordreset/"), "{}", mails[0].1);
}

#[tokio::test]
async fn unknown_users_get_the_same_answer_and_no_mail() {
    let server = TestServer::start().await;
    let response = server.anonymous(Method::POST, "@users/niemand/reset-password").send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert!(reset_mails(&server).await.is_empty());
    let response =
        server.anonymous(Method::POST, "@users").json(&json!({"username": "x", "password": "12345678"})).send();
    assert_eq!(response.await.unwrap().status(), 401, "creating users still needs Manage users");
}

#[tokio::test]
async fn users_change_their_password_with_the_old_one() {
    let server = TestServer::start().await;
    server.user("bert", &["Member"], &[]).await;
    let as_bert = |body: serde_json::Value| {
        server
            .anonymous(Method::POST, "@users/bert/reset-password")
            .basic_auth("bert", Some("secret-bert"))
            .json(&body)
            .send()
    };
    let wrong = as_bert(json!({"old_password": "falsch", "new_password": "bert-neu-123"})).await.unwrap();
    assert_error(wrong, 400, "validation_failed").await;
    let short = as_bert(json!({"old_password": "secret-bert", "new_password": "kurz"})).await.unwrap();
    assert_error(short, 400, "validation_failed").await;
    let right = as_bert(json!({"old_password": "secret-bert", "new_password": "bert-neu-123"})).await.unwrap();
    assert_eq!(right.status(), 204);
    let me = server.anonymous(Method::GET, "@users/bert").basic_auth("bert", Some("bert-neu-123")).send();
    assert_eq!(me.await.unwrap().status(), 200);
    server.user("carl", &["Member"], &[]).await;
    let other = server
        .anonymous(Method::POST, "@users/bert/reset-password")
        .basic_auth("carl", Some("secret-carl"))
        .json(&json!({"old_password": "bert-neu-123", "new_password": "carl-war-hier"}))
        .send();
    assert_eq!(other.await.unwrap().status(), 403, "only one's own");
}

#[tokio::test]
async fn a_user_created_without_a_password_is_mailed_a_link_to_choose_one() {
    let server = TestServer::start().await;
    let body = json!({"username": "noam", "email": "noam@example.org", "fullname": "Noam", "sendPasswordReset": true});
    let response = server.admin(Method::POST, "@users").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 201);
    let login = |password: &str| {
        server.anonymous(Method::POST, "@login").json(&json!({"login": "noam", "password": password})).send()
    };
    assert_eq!(login("").await.unwrap().status(), 401, "no password: nothing to log in with");
    assert_eq!(login("anything-at-all").await.unwrap().status(), 401);
    let mails = reset_mails(&server).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].0, "noam@example.org");
    let set = json!({"reset_token": token_in(&mails[0].1), "new_password": "selbst-gewaehlt"});
    let response = server.anonymous(Method::POST, "@users/noam/reset-password").json(&set).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(login("selbst-gewaehlt").await.unwrap().status(), 200);

    let without_mail = json!({"username": "anon", "sendPasswordReset": true});
    let response = server.admin(Method::POST, "@users").json(&without_mail).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    let neither = json!({"username": "anon", "email": "a@example.org"});
    let response = server.admin(Method::POST, "@users").json(&neither).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
}
