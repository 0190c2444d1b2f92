//! Portraits: set through `PATCH @users`, served by `@portrait`, named wherever users are.

use crate::images::png;
use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

/// A 1×1 GIF, as plone.restapi's documentation uploads it.
const GIF: &str = "R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=";

fn upload(data: &str, scale: bool) -> Value {
    json!({"portrait": {"data": data, "encoding": "base64", "filename": "me.png", "content-type": "image/png", "scale": scale}})
}

async fn patch(server: &TestServer, user: &str, target: &str, body: &Value) -> reqwest::Response {
    server.as_user(user, Method::PATCH, &format!("@users/{target}")).json(body).send().await.unwrap()
}

async fn portrait(server: &TestServer, path: &str) -> (u16, Option<String>, Vec<u8>) {
    let response = server.anonymous(Method::GET, path).send().await.unwrap();
    let status = response.status().as_u16();
    let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned());
    (status, kind, response.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn users_set_replace_and_remove_their_portrait_and_everyone_sees_it() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    server.user("ben", &["Member"], &[]).await;
    let (_, anna) = read(server.as_user("anna", Method::GET, "@users/anna").send().await.unwrap()).await;
    assert_eq!(anna["portrait"], Value::Null, "no portrait yet");
    assert_eq!(portrait(&server, "@portrait/anna").await.0, 404);

    assert_eq!(patch(&server, "anna", "anna", &upload(GIF, false)).await.status(), 204);
    let (_, anna) = read(server.as_user("anna", Method::GET, "@users/anna").send().await.unwrap()).await;
    let url = format!("{}/@portrait/anna", server.site);
    assert_eq!(anna["portrait"], url.as_str());
    let (status, kind, bytes) = portrait(&server, "@portrait/anna").await;
    assert_eq!((status, kind.as_deref()), (200, Some("image/gif")), "the type is the bytes', not the one named");
    assert_eq!(image::load_from_memory(&bytes).map(|i| (i.width(), i.height())).ok(), Some((1, 1)));
    let own = server.as_user("anna", Method::GET, "@portrait").send().await.unwrap();
    assert_eq!(own.status(), 200, "@portrait alone is the caller's own");
    assert_eq!(server.anonymous(Method::GET, "@portrait").send().await.unwrap().status(), 404);

    // Sending back what GET answered keeps the portrait; a large one is scaled when asked.
    let unchanged = json!({"fullname": "Anna", "portrait": url});
    assert_eq!(patch(&server, "anna", "anna", &unchanged).await.status(), 204);
    assert_eq!(portrait(&server, "@portrait/anna").await.0, 200);
    assert_eq!(patch(&server, "anna", "anna", &upload(&png(800, 400), true)).await.status(), 204);
    let (_, _, bytes) = portrait(&server, "@portrait/anna").await;
    assert_eq!(image::load_from_memory(&bytes).map(|i| (i.width(), i.height())).ok(), Some((200, 100)));

    // Listings, searches and comments name it too.
    let (_, users) = server.get_json("@users").await;
    let listed: Vec<(&str, &Value)> =
        users["items"].as_array().unwrap().iter().map(|u| (u["id"].as_str().unwrap(), &u["portrait"])).collect();
    assert!(listed.contains(&("anna", &json!(url))) && listed.contains(&("ben", &Value::Null)), "{listed:?}");
    let (_, found) = server.get_json("@principals?search=anna").await;
    assert_eq!(found["users"][0]["portrait"], url.as_str());

    // Others may not change it; managers may; null removes it.
    assert_error(patch(&server, "ben", "anna", &upload(GIF, false)).await, 403, "forbidden").await;
    let remove = server.admin(Method::PATCH, "@users/anna").json(&json!({"portrait": null})).send().await.unwrap();
    assert_eq!(remove.status(), 204);
    assert_eq!(portrait(&server, "@portrait/anna").await.0, 404);
    let (_, anna) = read(server.as_user("anna", Method::GET, "@users/anna").send().await.unwrap()).await;
    assert_eq!(anna["portrait"], Value::Null);

    // Deleting the user deletes the portrait.
    assert_eq!(patch(&server, "ben", "ben", &upload(GIF, false)).await.status(), 204);
    assert_eq!(server.admin(Method::DELETE, "@users/ben").send().await.unwrap().status(), 204);
    server.user("ben", &["Member"], &[]).await;
    assert_eq!(portrait(&server, "@portrait/ben").await.0, 404, "a new ben does not inherit the old one's face");
}

#[tokio::test]
async fn only_raster_images_of_bounded_size_are_taken() {
    // A body large enough to carry more than a portrait may have.
    let server = TestServer::start_with(|config| config.edge.max_body_bytes = 8 * 1024 * 1024).await;
    server.user("anna", &["Member"], &[]).await;
    let b64 = |bytes: &[u8]| base64::Engine::encode(&base64::engine::general_purpose::STANDARD, bytes);
    let svg = b64(b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>");
    let too_big = "A".repeat(3 * 1024 * 1024);
    for (body, why) in [
        (upload(&svg, false), "an SVG could carry script"),
        (upload(&b64(b"not an image at all"), false), "not an image"),
        (upload("***", false), "not base64"),
        (upload(&too_big, false), "more than 2 MiB"),
        (json!({"portrait": {"data": GIF, "encoding": "quoted-printable"}}), "another encoding"),
        (json!({"portrait": {"filename": "x.gif"}}), "no data"),
        (json!({"portrait": 7}), "not an upload"),
        (json!({"portrait": "https://elsewhere.example/face.png"}), "a URL that is not its own"),
    ] {
        let error = assert_error(patch(&server, "anna", "anna", &body).await, 400, "validation_failed").await;
        assert_eq!(error["errors"][0]["field"], "portrait", "{why}: {error}");
    }
    assert_eq!(portrait(&server, "@portrait/anna").await.0, 404, "nothing was kept");
}

#[tokio::test]
async fn the_user_schema_offers_the_portrait() {
    let server = TestServer::start().await;
    let (status, schema) = server.get_json("@userschema").await;
    assert_eq!(status, 200);
    assert_eq!(schema["fieldsets"][0]["fields"].as_array().unwrap().last(), Some(&json!("portrait")));
    assert_eq!(schema["properties"]["portrait"]["factory"], "Image");
    assert_eq!(schema["properties"]["portrait"]["type"], "object");
}
