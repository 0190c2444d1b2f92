//! Authentication (Basic, JWT, cookie), the login form and CSRF tokens.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

async fn private_doc(server: &TestServer) {
    server.create("", json!({"@type": "Document", "title": "Private", "id": "private"})).await;
}

#[tokio::test]
async fn login_returns_a_jwt_that_authenticates_and_renews() {
    let server = TestServer::start().await;
    private_doc(&server).await;
    let (status, body) = read(
        server
            .anonymous(Method::POST, "@login")
            .json(&json!({"login": "admin", "password": "secret"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    let token = body["token"].as_str().unwrap().to_owned();
    assert_eq!(token.split('.').count(), 3, "a JWT");
    let response = server.anonymous(Method::GET, "private").bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let (status, renewed) =
        read(server.anonymous(Method::POST, "@login-renew").bearer_auth(&token).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert!(renewed["token"].as_str().unwrap().len() > 20);
    let response = server.anonymous(Method::GET, "private").bearer_auth(format!("{token}x")).send().await.unwrap();
    assert_eq!(response.status(), 401);
    assert!(response.headers().contains_key("www-authenticate"));
    let response = server.anonymous(Method::POST, "@login-renew").send().await.unwrap();
    assert_error(response, 401, "unauthorized").await;
}

#[tokio::test]
async fn bad_logins_are_401_and_missing_fields_400() {
    let server = TestServer::start().await;
    let response = server
        .anonymous(Method::POST, "@login")
        .json(&json!({"login": "admin", "password": "nope"}))
        .send()
        .await
        .unwrap();
    assert_error(response, 401, "unauthorized").await;
    let response = server.anonymous(Method::POST, "@login").json(&json!({"login": "admin"})).send().await.unwrap();
    assert_error(response, 400, "missing_property").await;
    let response = server
        .anonymous(Method::POST, "@login")
        .json(&json!({"login": "ghost", "password": "secret"}))
        .send()
        .await
        .unwrap();
    assert_error(response, 401, "unauthorized").await;
    let response = server.anonymous(Method::GET, "").header("Authorization", "Digest abc").send().await.unwrap();
    assert_error(response, 401, "unauthorized").await;
}

async fn cookie_login(server: &TestServer, login: &str, password: &str) -> String {
    let response = server
        .raw(Method::POST, &server.url("login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(format!("login={login}&password={password}&came_from=%2FPlone%2Fprivate"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], "/Plone/private");
    let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    cookie.split(';').next().unwrap().to_owned()
}

#[tokio::test]
async fn the_login_form_sets_a_cookie_that_browser_views_use() {
    let server = TestServer::start().await;
    private_doc(&server).await;
    let response = server.raw(Method::GET, &server.url("login")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let html = response.text().await.unwrap();
    assert!(html.contains("<form method=\"post\"") && html.contains("name=\"password\""), "{html}");
    let response = server
        .raw(Method::POST, &server.url("login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("login=admin&password=wrong")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    assert!(response.headers().get("set-cookie").is_none());
    let cookie = cookie_login(&server, "admin", "secret").await;
    let response = server.raw(Method::GET, &server.url("private")).header("Cookie", &cookie).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.text().await.unwrap().contains("<h1>Private</h1>"));
    let response =
        server.raw(Method::GET, &server.url("private")).header("Cookie", "auth_token=garbage").send().await.unwrap();
    assert_eq!(response.status(), 401, "a stale cookie is anonymous, not an error page");
    let response = server.anonymous(Method::POST, "@logout").header("Cookie", &cookie).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert!(response.headers()["set-cookie"].to_str().unwrap().contains("Max-Age=0"));
}

#[tokio::test]
async fn cookie_authenticated_form_posts_need_the_users_csrf_token_and_json_writes_none() {
    let server = TestServer::start().await;
    private_doc(&server).await;
    server.user("anna", &["Manager"], &[]).await;
    let cookie = cookie_login(&server, "admin", "secret").await;
    // What a foreign page can make a browser send without a preflight: a form's POST, here
    // with a JSON-looking text/plain body, the classic way to forge a JSON write.
    let forged = || {
        server
            .anonymous(Method::POST, "")
            .header("Cookie", &cookie)
            .header("Content-Type", "text/plain")
            .body(r#"{"@type": "Document", "title": "Forged"}"#)
    };
    assert_error(forged().send().await.unwrap(), 403, "forbidden").await;
    let form_post = server
        .anonymous(Method::POST, "private/@workflow/publish")
        .header("Cookie", &cookie)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("comment=forged");
    assert_error(form_post.send().await.unwrap(), 403, "forbidden").await;
    assert_eq!(server.get_json("private").await.1["review_state"], "private", "the forged posts changed nothing");

    let token = server.anonymous(Method::GET, "@@authenticator/token").header("Cookie", &cookie).send().await.unwrap();
    assert_eq!(token.headers()["content-type"], "text/plain; charset=utf-8");
    let token = token.text().await.unwrap();
    assert_eq!(token.len(), 64);
    let annas =
        server.as_user("anna", Method::GET, "@@authenticator/token").send().await.unwrap().text().await.unwrap();
    assert_ne!(token, annas, "tokens are bound to their user");
    let publish = || {
        server
            .anonymous(Method::POST, "private/@workflow/publish")
            .header("Cookie", &cookie)
            .header("Content-Type", "application/x-www-form-urlencoded")
    };
    assert_error(publish().header("X-CSRF-TOKEN", &annas).send().await.unwrap(), 403, "forbidden").await;
    assert_eq!(publish().header("X-CSRF-TOKEN", &token).send().await.unwrap().status(), 200);

    // JSON, PATCH and DELETE need a CORS preflight cross-site, so, as in plone.restapi, a
    // cookie alone authenticates them.
    let patch = server.anonymous(Method::PATCH, "private").header("Cookie", &cookie).json(&json!({"title": "Changed"}));
    assert_eq!(patch.send().await.unwrap().status(), 204);
    let create = server
        .anonymous(Method::POST, "")
        .header("Cookie", &cookie)
        .json(&json!({"@type": "Document", "title": "By cookie"}));
    assert_eq!(create.send().await.unwrap().status(), 201);
    assert_eq!(server.get_json("private").await.1["title"], "Changed");
    let response =
        server.admin(Method::PATCH, "private").json(&json!({"title": "Basic needs none"})).send().await.unwrap();
    assert_eq!(response.status(), 204, "Basic credentials cannot be forged cross-site");
    let response = server.anonymous(Method::GET, "@@authenticator/other").send().await.unwrap();
    assert_error(response, 404, "not_found").await;
}

#[tokio::test]
async fn login_sets_the_auth_token_cookie_that_plone_client_relies_on() {
    let server = TestServer::start().await;
    private_doc(&server).await;
    let response = server
        .anonymous(Method::POST, "@login")
        .json(&json!({"login": "admin", "password": "secret"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let set_cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(set_cookie.starts_with("auth_token=ey"), "{set_cookie}");
    for attribute in ["SameSite=Lax", "Path=/"] {
        assert!(set_cookie.contains(attribute), "{attribute} missing: {set_cookie}");
    }
    assert!(!set_cookie.contains("HttpOnly"), "Volto reads and rewrites it from its scripts: {set_cookie}");
    assert!(!set_cookie.contains("Secure"), "plain http: {set_cookie}");
    let body: serde_json::Value = response.json().await.unwrap();
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    assert_eq!(cookie, format!("auth_token={}", body["token"].as_str().unwrap()));
    // Everything after the login runs as the user, as @plone/client expects.
    let response = server.anonymous(Method::GET, "private").header("Cookie", &cookie).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let renewed = server.anonymous(Method::POST, "@login-renew").header("Cookie", &cookie).send().await.unwrap();
    assert_eq!(renewed.status(), 200);
    assert!(renewed.headers()["set-cookie"].to_str().unwrap().starts_with("auth_token=ey"));
    let response = server.anonymous(Method::POST, "@logout").header("Cookie", &cookie).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert!(response.headers()["set-cookie"].to_str().unwrap().starts_with("auth_token=; "));
    let response = server.anonymous(Method::GET, "private").header("Cookie", &cookie).send().await.unwrap();
    assert_eq!(response.status(), 401, "the logout ended the token");
}

#[tokio::test]
async fn the_login_form_returns_only_to_paths_of_this_server() {
    let server = TestServer::start().await;
    for (came_from, location) in [
        ("%2F%09%2Fevil.example", "/Plone"),
        ("%2F%0B%2Fevil.example", "/Plone"),
        ("%2F%0A%2Fevil.example", "/Plone"),
        ("%2F%5Cevil.example", "/Plone"),
        ("%2F%2Fevil.example", "/Plone"),
        ("https%3A%2F%2Fevil.example", "/Plone"),
        ("%2FPlone%2F%C3%BCber", "/Plone/%C3%BCber"),
    ] {
        let response = server
            .raw(Method::POST, &server.url("login"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(format!("login=admin&password=secret&came_from={came_from}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 303, "{came_from}");
        assert_eq!(response.headers().get("location").map(|v| v.to_str().unwrap()), Some(location), "{came_from}");
    }
}

#[tokio::test]
async fn the_session_cookie_is_secure_when_the_site_is_reached_over_https() {
    let server = TestServer::start().await;
    let login = |proto: Option<&str>| {
        let mut request = server
            .raw(Method::POST, &server.url("login"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body("login=admin&password=secret");
        if let Some(proto) = proto {
            request = request.header("X-Forwarded-Proto", proto);
        }
        request.send()
    };
    let cookie = |response: &reqwest::Response| response.headers()["set-cookie"].to_str().unwrap().to_owned();
    let over_https = login(Some("https")).await.unwrap();
    assert!(cookie(&over_https).contains("; Secure"), "{}", cookie(&over_https));
    let over_http = login(None).await.unwrap();
    assert!(!cookie(&over_http).contains("Secure"), "{}", cookie(&over_http));
    let api_login = server
        .anonymous(Method::POST, "@login")
        .header("X-Forwarded-Proto", "https")
        .json(&json!({"login": "admin", "password": "secret"}))
        .send()
        .await
        .unwrap();
    assert!(cookie(&api_login).contains("; Secure"), "{}", cookie(&api_login));
}
