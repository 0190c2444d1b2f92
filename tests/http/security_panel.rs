//! The security panel: self-registration and logging in with the e-mail address.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

async fn panel(server: &TestServer, body: serde_json::Value) {
    let response = server.admin(Method::PATCH, "@controlpanels/security").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
}

#[tokio::test]
async fn visitors_register_only_while_the_panel_allows_it() {
    let server = TestServer::start().await;
    let account = json!({"username": "neu", "email": "neu@example.org", "password": "ein-gutes-passwort"});
    let response = server.anonymous(Method::POST, "@users").json(&account).send().await.unwrap();
    assert_eq!(response.status(), 401, "off by default");
    panel(&server, json!({"enable_self_reg": true})).await;
    let (status, created) = read(server.anonymous(Method::POST, "@users").json(&account).send().await.unwrap()).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["roles"], json!(["Member"]));
    let greedy =
        json!({"username": "gierig", "email": "g@example.org", "password": "ein-gutes-passwort", "roles": ["Manager"]});
    let response = server.anonymous(Method::POST, "@users").json(&greedy).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    let (_, panel_now) = server.get_json("@controlpanels/security").await;
    assert_eq!(panel_now["data"]["enable_self_reg"], true);
}

#[tokio::test]
async fn the_registration_form_is_described_and_its_fields_are_taken() {
    let server = TestServer::start().await;
    let (status, schema) = read(server.anonymous(Method::GET, "@userschema/registration").send().await.unwrap()).await;
    assert_eq!(status, 200, "{schema}");
    let fields: Vec<&str> =
        schema["fieldsets"][0]["fields"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(fields, ["fullname", "email", "username", "password", "password_ctl", "mail_me"]);
    assert_eq!(schema["properties"]["mail_me"]["type"], "boolean");
    assert_eq!(schema["required"], json!(["email", "username", "password", "password_ctl"]));

    panel(&server, json!({"enable_self_reg": true})).await;
    let mistyped = json!({"username": "neu", "email": "neu@example.org", "password": "ein-gutes-passwort",
                          "password_ctl": "ein-gutes-paswort"});
    let error = assert_error(
        server.anonymous(Method::POST, "@users").json(&mistyped).send().await.unwrap(),
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(error["errors"][0]["field"], "password_ctl");
    let mail_me = json!({"username": "neu", "email": "neu@example.org", "fullname": "Neu", "mail_me": true});
    let response = server.anonymous(Method::POST, "@users").json(&mail_me).send().await.unwrap();
    assert_eq!(response.status(), 201, "mail_me stands for a password: a link to set one is mailed");
    let matching = json!({"username": "zwei", "email": "zwei@example.org", "password": "ein-gutes-passwort",
                          "password_ctl": "ein-gutes-passwort"});
    assert_eq!(server.anonymous(Method::POST, "@users").json(&matching).send().await.unwrap().status(), 201);
}

#[tokio::test]
async fn users_log_in_with_their_address_when_the_panel_says_so() {
    let server = TestServer::start().await;
    server.user("maria", &["Member"], &[]).await;
    let by_address =
        || server.anonymous(Method::GET, "@users/maria").basic_auth("MARIA@example.org", Some("secret-maria")).send();
    assert_eq!(by_address().await.unwrap().status(), 401, "off by default");
    panel(&server, json!({"use_email_as_login": true})).await;
    assert_eq!(by_address().await.unwrap().status(), 200);
    let login = json!({"login": "maria@example.org", "password": "secret-maria"});
    let (status, token) = read(server.anonymous(Method::POST, "@login").json(&login).send().await.unwrap()).await;
    assert_eq!(status, 200, "{token}");
    server.user("zwilling", &["Member"], &[]).await;
    let twin = json!({"email": "maria@example.org"});
    assert_eq!(server.admin(Method::PATCH, "@users/zwilling").json(&twin).send().await.unwrap().status(), 204);
    assert_eq!(by_address().await.unwrap().status(), 401, "an address two accounts share names neither");
}
