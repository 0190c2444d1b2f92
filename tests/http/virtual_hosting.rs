//! Zope's virtual hosting, as Volto's proxy uses it: `/VirtualHostBase/http/localhost:3000/Plone/
//! ++api++/VirtualHostRoot/<path>` answers for `/Plone/<path>` with every URL on the virtual
//! base, links sent in the virtual form are stored as the objects they name, and only trusted
//! proxies may ask for it (or send `X-Forwarded-*`).

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Row;

const VOLTO: &str = "/VirtualHostBase/http/localhost:3000/Plone/++api++/VirtualHostRoot";

fn through(server: &TestServer, method: Method, path: &str) -> reqwest::RequestBuilder {
    server.raw(method, &format!("{}{path}", server.base)).basic_auth("admin", Some(crate::support::ADMIN_PASSWORD))
}

#[tokio::test]
async fn volto_proxy_paths_answer_with_urls_on_the_virtual_base() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "ueber-uns", "title": "Über uns"})).await;
    server.create("ueber-uns", json!({"@type": "Document", "id": "team", "title": "Team"})).await;

    let root = format!("{VOLTO}/?expand=breadcrumbs");
    let (status, body) = read(through(&server, Method::GET, &root).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["@id"], "http://localhost:3000");
    assert_eq!(body["@components"]["breadcrumbs"]["@id"], "http://localhost:3000/@breadcrumbs");
    let text = body.to_string();
    assert!(!text.contains("localhost:3000/Plone"), "no physical URL is left: {text}");
    assert!(!text.contains("127.0.0.1"), "no URL of the server's own address: {text}");

    let response = through(&server, Method::GET, &format!("{VOLTO}/ueber-uns/team")).send().await.unwrap();
    assert_eq!(response.headers().get("x-theme-disabled").map(|v| v.to_str().unwrap()), Some("True"));
    let (status, team) = read(response).await;
    assert_eq!(status, 200, "{team}");
    assert_eq!(team["@id"], "http://localhost:3000/ueber-uns/team");
    assert_eq!(team["parent"]["@id"], "http://localhost:3000/ueber-uns");
}

#[tokio::test]
async fn vh_segments_default_ports_writes_and_links_sent_in_the_virtual_form() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "ziel", "title": "Ziel"})).await;
    let site = "/VirtualHostBase/https/cms.example.org:443/Plone/VirtualHostRoot/_vh_de";
    let get = |path: &str| format!("{site}{path}");
    let (status, ziel) =
        read(through(&server, Method::GET, &get("/ziel")).header("Accept", "application/json").send().await.unwrap())
            .await;
    assert_eq!(status, 200, "{ziel}");
    assert_eq!(ziel["@id"], "https://cms.example.org/de/ziel");

    let created = through(&server, Method::POST, &get(""))
        .header("Accept", "application/json")
        .json(&json!({"@type": "Document", "id": "quelle", "title": "Quelle", "relatedItems": ["https://cms.example.org/de/ziel"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 201);
    assert_eq!(
        created.headers().get("location").map(|v| v.to_str().unwrap()),
        Some("https://cms.example.org/de/quelle")
    );
    let (_, quelle) = read(created).await;
    assert_eq!(quelle["@id"], "https://cms.example.org/de/quelle");
    assert_eq!(quelle["relatedItems"][0]["@id"], "https://cms.example.org/de/ziel", "{quelle}");
    // Stored as the object it names: without virtual hosting it is the physical URL.
    let (_, direct) = server.get_json("quelle").await;
    assert_eq!(direct["relatedItems"][0]["@id"], Value::from(format!("{}/ziel", server.site)));

    let (status, malformed) =
        read(server.raw(Method::GET, &format!("{}/VirtualHostBase/ftp/x/Plone", server.base)).send().await.unwrap())
            .await;
    assert_eq!((status, &malformed["code"]), (400, &json!("bad_request")), "{malformed}");
}

#[tokio::test]
async fn only_trusted_proxies_choose_the_urls() {
    let server = TestServer::start_with(|config| config.edge.trusted_proxies = Some(vec!["10.20.30.40".into()])).await;
    let (status, _) = read(through(&server, Method::GET, &format!("{VOLTO}/")).send().await.unwrap()).await;
    assert_eq!(status, 404, "a virtual-hosting path from an untrusted peer is just a path");
    let forged =
        server.admin(Method::GET, "").header("X-Forwarded-Host", "evil.example").header("X-Forwarded-Proto", "https");
    let (_, root) = read(forged.send().await.unwrap()).await;
    assert_eq!(root["@id"], Value::from(server.site.clone()), "forwarded headers of an untrusted peer are ignored");

    // The default trusts the loopback proxy (Volto's on the same machine).
    let local = TestServer::start().await;
    let forwarded =
        local.admin(Method::GET, "").header("X-Forwarded-Host", "www.example.org").header("X-Forwarded-Proto", "https");
    let (_, root) = read(forwarded.send().await.unwrap()).await;
    assert_eq!(root["@id"], "https://www.example.org/Plone");
}

#[tokio::test]
async fn a_client_that_is_no_proxy_cannot_poison_links() {
    let server = TestServer::start_with(|config| config.edge.trusted_proxies = Some(vec!["10.20.30.40".into()])).await;
    server.user("anna", &["Member"], &[]).await;
    let (_, root) = read(server.admin(Method::GET, "").header("Host", "evil.example").send().await.unwrap()).await;
    assert_eq!(root["@id"], Value::from(server.site.clone()), "links are on the address the connection came in on");
    // Not kept for the next caller either: the honest request gets the honest links.
    let (_, again) = read(server.admin(Method::GET, "").send().await.unwrap()).await;
    assert_eq!(again["@id"], Value::from(server.site.clone()));

    let reset = server.anonymous(Method::POST, "@users/anna/reset-password").header("Host", "evil.example");
    assert_eq!(reset.send().await.unwrap().status(), 204);
    let body: String = sqlx::query("SELECT body FROM mail_outbox WHERE source = 'reset-password'")
        .fetch_one(server.app.store.pool())
        .await
        .unwrap()
        .get(0);
    assert!(!body.contains("evil.example"), "{body}");
    assert!(body.contains(&format!("{}/passwordreset/", server.site)), "{body}");
}

#[tokio::test]
async fn a_configured_public_url_builds_every_link() {
    let server =
        TestServer::start_with(|config| config.edge.public_url = Some("https://www.example.org/".into())).await;
    let forwarded =
        server.admin(Method::GET, "").header("Host", "evil.example").header("X-Forwarded-Host", "evil.example");
    let (_, root) = read(forwarded.send().await.unwrap()).await;
    assert_eq!(root["@id"], "https://www.example.org/Plone", "even a trusted proxy's headers do not choose it");
    for bad in ["www.example.org", "ftp://example.org", "https://example.org/cms", "https://exa mple.org"] {
        let config = wcs_core::http::EdgeConfig { public_url: Some(bad.into()), ..crate::support::edge_config() };
        let refused = wcs_core::http::Edge::new(&config).err();
        assert!(refused.as_deref().is_some_and(|e| e.contains("--public-url")), "{bad}: {refused:?}");
    }
}
