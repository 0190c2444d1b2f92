//! Guessing passwords is throttled, unknown and known users answer alike, and tokens end with
//! logout, a new password and the account they were issued for.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

async fn login(server: &TestServer, login: &str, password: &str) -> reqwest::Response {
    let body = json!({"login": login, "password": password});
    server.anonymous(Method::POST, "@login").json(&body).send().await.unwrap()
}

async fn token(server: &TestServer, user: &str) -> String {
    let (status, body) = read(login(server, user, &format!("secret-{user}")).await).await;
    assert_eq!(status, 200, "{body}");
    body["token"].as_str().unwrap().to_owned()
}

async fn status_with(server: &TestServer, token: &str) -> u16 {
    server.anonymous(Method::GET, "@users/anna").bearer_auth(token).send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn failed_logins_make_the_account_wait() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    server.user("ben", &["Member"], &[]).await;
    let unknown = assert_error(login(&server, "nobody", "guess").await, 401, "unauthorized").await;
    let wrong = assert_error(login(&server, "anna", "guess").await, 401, "unauthorized").await;
    assert_eq!(unknown, wrong, "an unknown user and a wrong password answer alike");
    for _ in 1..10 {
        assert_error(login(&server, "anna", "guess").await, 401, "unauthorized").await;
    }
    let response = login(&server, "anna", "secret-anna").await;
    let retry: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=900).contains(&retry), "{retry}");
    assert_error(response, 429, "too_many_requests").await;
    let basic = server.as_user("anna", Method::GET, "@users/anna").send().await.unwrap();
    assert_eq!(basic.status(), 429, "Basic credentials count against the same account");
    assert_eq!(read(login(&server, "ben", "secret-ben").await).await.0, 200, "other accounts do not wait");
}

#[tokio::test]
async fn tokens_end_with_logout_a_new_password_and_the_account() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    let first = token(&server, "anna").await;
    let second = token(&server, "anna").await;
    assert_eq!(status_with(&server, &first).await, 200);
    let logout = server.anonymous(Method::POST, "@logout").bearer_auth(&first).send().await.unwrap();
    assert_eq!(logout.status(), 204);
    assert_eq!(status_with(&server, &first).await, 401, "logged out");
    assert_eq!(status_with(&server, &second).await, 401, "every token of the user ends");

    let third = token(&server, "anna").await;
    assert_eq!(status_with(&server, &third).await, 200);
    let change = json!({"password": "secret-anna-2"});
    let response = server.admin(Method::PATCH, "@users/anna").json(&change).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(status_with(&server, &third).await, 401, "a new password ends the old tokens");
    let renamed = json!({"fullname": "Anna A."});
    let response = server.admin(Method::PATCH, "@users/anna").json(&renamed).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let body = json!({"login": "anna", "password": "secret-anna-2"});
    let (_, fresh) = read(server.anonymous(Method::POST, "@login").json(&body).send().await.unwrap()).await;
    let fresh = fresh["token"].as_str().unwrap().to_owned();
    let response =
        server.admin(Method::PATCH, "@users/anna").json(&json!({"fullname": "Anna B."})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(status_with(&server, &fresh).await, 200, "other changes leave tokens alone");

    assert_eq!(server.admin(Method::DELETE, "@users/anna").send().await.unwrap().status(), 204);
    server.user("anna", &["Member"], &[]).await;
    assert_eq!(status_with(&server, &fresh).await, 401, "a new account under the same id is not the old one");
}

/// The password hashes checked so far, as `/metrics` counts them.
async fn password_checks(server: &TestServer) -> u64 {
    let text = server.raw(Method::GET, &format!("{}/metrics", server.base)).send().await.unwrap().text().await.unwrap();
    let line = text.lines().find(|line| line.starts_with("wcs_password_checks_total ")).expect("the counter");
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

/// An unknown user costs one password-hash check against a stand-in hash, exactly like a wrong
/// password, so the answer's timing does not tell which accounts exist. Counted, not timed:
/// the check is what takes the time (argon2, tens of milliseconds), a lookup does not.
#[tokio::test]
async fn unknown_users_cost_a_hash_check_like_wrong_passwords() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    let start = password_checks(&server).await;
    assert_error(login(&server, "nobody", "guess").await, 401, "unauthorized").await;
    assert_eq!(password_checks(&server).await, start + 1, "an unknown user's login checked a hash");
    assert_error(login(&server, "anna", "guess").await, 401, "unauthorized").await;
    assert_eq!(password_checks(&server).await, start + 2, "a wrong password checked one hash");
    let basic = server.anonymous(Method::GET, "@users/anna").basic_auth("ghost", Some("guess")).send().await.unwrap();
    assert_eq!(basic.status(), 401);
    assert_eq!(password_checks(&server).await, start + 3, "unknown Basic credentials checked a hash too");
}

/// Credentials nobody remembers yet, presented by many requests at once, are hashed once: the
/// others wait for that check and take its answer, instead of each hashing in turn (which
/// made every request wait for all the hashes before it when remembered credentials lapsed).
#[tokio::test]
async fn concurrent_requests_with_new_credentials_check_the_password_once() {
    let server = TestServer::start().await;
    server.user("carl", &["Member"], &[]).await;
    let start = password_checks(&server).await;
    let request = || async { server.as_user("carl", Method::GET, "@users/carl").send().await.unwrap().status() };
    let statuses = tokio::join!(request(), request(), request(), request(), request(), request());
    assert_eq!(<[_; 6]>::from(statuses), [reqwest::StatusCode::OK; 6]);
    assert_eq!(password_checks(&server).await, start + 1, "six requests, one password check");
    let wrong = server.anonymous(Method::GET, "@users/carl").basic_auth("carl", Some("guess")).send().await.unwrap();
    assert_eq!(wrong.status(), 401, "a wrong password is still checked and refused");
    assert_eq!(password_checks(&server).await, start + 2);
}

#[tokio::test]
async fn guessing_the_old_password_is_throttled_like_logins() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    let change = |old: &str| json!({"password": "brand-new-password", "old_password": old});
    // Through a token, so every guess reaches the old-password check itself.
    let token = token(&server, "anna").await;
    for n in 0..10 {
        let guess =
            server.anonymous(Method::PATCH, "@users/anna").bearer_auth(&token).json(&change(&format!("guess{n}")));
        assert_error(guess.send().await.unwrap(), 403, "forbidden").await;
    }
    let right = server.anonymous(Method::PATCH, "@users/anna").bearer_auth(&token).json(&change("secret-anna"));
    let response = right.send().await.unwrap();
    assert!(response.headers().contains_key("retry-after"));
    assert_error(response, 429, "too_many_requests").await;
    let reset = json!({"old_password": "secret-anna", "new_password": "brand-new-password"});
    let response = server.anonymous(Method::POST, "@users/anna/reset-password").bearer_auth(&token).json(&reset);
    assert_error(response.send().await.unwrap(), 429, "too_many_requests").await;
    assert_eq!(status_with(&server, &token).await, 200, "the password did not change");
}
