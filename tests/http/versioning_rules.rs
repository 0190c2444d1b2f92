//! Versioning rules proven one by one: permission refusals are 401 for everyone (403 only for
//! a bad CSRF token), the creator's real full name, and the positional indexes of the browser
//! views shifting when the oldest version is dropped or a middle one deleted.

use crate::support::{TestServer, assert_error};
use crate::versioning::{Auth, api, create_version, csrf_token, versions};
use reqwest::{Method, RequestBuilder};
use serde_json::json;

/// A browser request (HTML, not the API) as `user`.
fn browser(server: &TestServer, user: &str, method: Method, path: &str) -> RequestBuilder {
    let password = if user == "admin" { crate::support::ADMIN_PASSWORD.to_owned() } else { format!("secret-{user}") };
    server.raw(method, &server.url(path)).basic_auth(user, Some(password)).header("Accept", "text/html")
}

#[tokio::test]
async fn views_and_endpoint_refuse_authenticated_callers_without_the_permission_with_401() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    create_version(&server, "p", None).await;
    server.user("co", &["Contributor"], &[]).await;
    server.user("rd", &["Reader"], &[]).await;

    for view in ["p/list_versions", "p/display_version?version_id=0", "p/compare_version?version_id=0"] {
        let refusal = assert_error(browser(&server, "co", Method::GET, view).send().await.unwrap(), 401, "not_allowed");
        assert_eq!(refusal.await["type"], "Forbidden", "{view}");
    }
    let reader_token = csrf_token(&server, &Auth::user("rd")).await;
    for view in ["p/create_version", "p/restore_version", "p/delete_version"] {
        let form =
            browser(&server, "rd", Method::POST, view).form(&[("version_id", "0"), ("_authenticator", &reader_token)]);
        assert_error(form.send().await.unwrap(), 401, "not_allowed").await;
        let without_token = browser(&server, "rd", Method::POST, view).form(&[("version_id", "0")]);
        assert_error(without_token.send().await.unwrap(), 401, "not_allowed").await;
    }
    let response = api(&server, &Auth::user("co"), Method::GET, "p/@versions/1/comparison").send().await.unwrap();
    let refusal = assert_error(response, 401, "not_allowed").await;
    assert!(refusal["message"].as_str().unwrap().contains("Access versions"), "{refusal}");

    // With the permission, only the token is missing: that alone is a 403.
    let response = api(&server, &Auth::admin(), Method::DELETE, "p/@versions/1").send().await.unwrap();
    assert_eq!(assert_error(response, 403, "forbidden").await["type"], "Forbidden");
    // The rest of the API keeps 403 for authenticated callers without a permission.
    let response = server.as_user("co", Method::PATCH, "p").json(&json!({"title": "x"})).send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
}

#[tokio::test]
async fn the_creator_of_a_version_is_shown_with_the_full_name() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    let body = json!({"username": "anna", "password": "secret-anna", "fullname": "Anna Müller", "roles": ["Editor"]});
    assert_eq!(server.admin(Method::POST, "@users").json(&body).send().await.unwrap().status(), 201);
    let anna = Auth::user("anna");
    let token = csrf_token(&server, &anna).await;
    let response = api(&server, &anna, Method::POST, "p/@versions").header("X-CSRF-TOKEN", token).send().await.unwrap();
    assert_eq!(response.status(), 201);

    let list = versions(&server, "p").await;
    assert_eq!(list["items"][0]["creator"], json!({"id": "anna", "fullname": "Anna Müller"}));
    let html = browser(&server, "admin", Method::GET, "p/list_versions").send().await.unwrap().text().await.unwrap();
    assert!(html.contains("Anna Müller"), "the listing names the author: {html}");
}

/// The text a browser view shows for version `index`, or its status when it is not 200.
async fn shown(server: &TestServer, index: usize) -> Result<String, u16> {
    let response = browser(server, "admin", Method::GET, &format!("p/display_version?version_id={index}"));
    let response = response.send().await.unwrap();
    match response.status().as_u16() {
        200 => Ok(response.text().await.unwrap()),
        status => Err(status),
    }
}

#[tokio::test]
async fn view_indexes_shift_when_the_oldest_is_dropped_and_a_middle_one_deleted() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    server.create("p", json!({"@type": "TextBlock", "id": "t", "title": "T", "text": "<p>Stand 1</p>"})).await;
    for n in 1..=11 {
        let patch = json!({"text": format!("<p>Stand {n}</p>")});
        assert_eq!(server.admin(Method::PATCH, "p/t").json(&patch).send().await.unwrap().status(), 204);
        create_version(&server, "p", None).await;
        if n == 10 {
            assert!(shown(&server, 0).await.unwrap().contains("Stand 1<"), "before the eleventh, 0 is the first");
        }
    }
    // The eleventh dropped the oldest: 0 is now the second, 9 the newest, 10 is gone.
    assert!(shown(&server, 0).await.unwrap().contains("Stand 2<"));
    assert!(shown(&server, 9).await.unwrap().contains("Stand 11<"));
    assert_eq!(shown(&server, 10).await, Err(404));

    let token = csrf_token(&server, &Auth::admin()).await;
    let form = browser(&server, "admin", Method::POST, "p/delete_version")
        .form(&[("version_id", "4"), ("_authenticator", &token)]);
    assert_eq!(form.send().await.unwrap().status(), 303);
    // Index 4 (Stand 6) went: what followed moved down by one.
    assert!(shown(&server, 3).await.unwrap().contains("Stand 5<"));
    assert!(shown(&server, 4).await.unwrap().contains("Stand 7<"));
    assert!(shown(&server, 8).await.unwrap().contains("Stand 11<"));
    assert_eq!(shown(&server, 9).await, Err(404));
    // The REST ids stay what they were.
    let ids: Vec<String> = versions(&server, "p").await["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, ["11", "10", "9", "8", "7", "5", "4", "3", "2"]);
    let list = browser(&server, "admin", Method::GET, "p/list_versions").send().await.unwrap().text().await.unwrap();
    assert!(list.contains("display_version?version_id=8") && !list.contains("display_version?version_id=9"));
}
