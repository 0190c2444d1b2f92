//! Request hooks and the default view: a hook answers before dispatch, in registry order and
//! listed with its plugin; an object's HTML page is the registered service `view` and shows
//! no container the caller may not see.

use crate::support::{ADMIN_PASSWORD, TestServer};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn hooks_are_listed_with_their_plugin_and_answer_before_dispatch() {
    let server = TestServer::start().await;
    let hooks: Vec<(&str, &str)> = server.app.registry.request_hooks().map(|(p, h)| (*p, h.name)).collect();
    let mut expected = Vec::new();
    if cfg!(feature = "directdownload") {
        expected.push(("directdownload", "directdownload"));
    }
    expected.push(("example-hello", "greeting-as-text"));
    if cfg!(feature = "multilingual") {
        expected.push(("multilingual", "multilingual-language-switcher"));
    }
    assert_eq!(hooks, expected);

    server.create("", json!({"@type": "Greeting", "id": "card", "title": "Card", "recipient": "Anna"})).await;
    let as_admin = |path: &str| server.raw(Method::GET, &server.url(path)).basic_auth("admin", Some(ADMIN_PASSWORD));
    let text = as_admin("card").header("Accept", "text/plain").send().await.unwrap();
    assert_eq!(text.status(), 200);
    assert!(text.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    assert_eq!(text.text().await.unwrap(), "Hello, Anna!", "the hook answered");

    let (status, body) = server.get_json("card").await;
    assert_eq!((status, &body["@type"]), (200, &json!("Greeting")), "JSON goes on to the service");
    let hello = as_admin("card/@hello").header("Accept", "text/plain").send().await.unwrap();
    assert!(hello.text().await.unwrap().contains("this is Card"), "a named service is not the object itself");
    let public = server.raw(Method::GET, &server.url("card")).header("Accept", "text/plain").send().await.unwrap();
    assert_eq!(public.text().await.unwrap(), "Hello, Anna!", "without a workflow, as public as the site");
    server.create("", json!({"@type": "Folder", "id": "privat", "title": "Privat"})).await;
    server.create("privat", json!({"@type": "Greeting", "id": "card", "title": "Card", "recipient": "Ben"})).await;
    let hidden = server.raw(Method::GET, &server.url("privat/card")).header("Accept", "text/plain");
    assert_eq!(hidden.send().await.unwrap().status(), 401, "a hook checks what it serves");
}

#[tokio::test]
async fn the_default_page_is_the_view_service_and_hides_private_containers() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "geheim", "title": "Geheimer Ordner"})).await;
    server.create("geheim", json!({"@type": "Document", "id": "doc", "title": "Offene Seite"})).await;
    server.transition("geheim/doc", "publish").await;
    assert!(server.app.registry.services().iter().any(|(plugin, s)| *plugin == "core" && s.name == "view"));

    let page = server.raw(Method::GET, &server.url("geheim/doc")).header("Accept", "text/html").send().await.unwrap();
    assert_eq!(page.status(), 200);
    let page = page.text().await.unwrap();
    assert!(page.contains("Offene Seite"), "{page}");
    assert!(!page.contains("Geheimer Ordner"), "a private container's title must not show: {page}");
    let named = server.raw(Method::GET, &server.url("geheim/doc/view")).send().await.unwrap();
    assert_eq!(named.text().await.unwrap(), page, "the object itself and its view are the same page");

    let admin = server.raw(Method::GET, &server.url("geheim/doc")).basic_auth("admin", Some(ADMIN_PASSWORD));
    let admin_page = admin.send().await.unwrap().text().await.unwrap();
    assert!(admin_page.contains("Geheimer Ordner"), "who may see the container sees it in the breadcrumbs");
    let private = server.raw(Method::GET, &server.url("geheim")).header("Accept", "text/html").send().await.unwrap();
    assert_eq!(private.status(), 302, "anonymous browsers are sent to log in");
}
