//! Image scales: listed by the serializer, rendered on first request, cached, never stale.

use crate::support::{TestServer, assert_error};
use base64::Engine;
use reqwest::Method;
use serde_json::json;

pub fn png(width: u32, height: u32) -> String {
    let image = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgb8(image)
        .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
        .expect("encode PNG");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub async fn fetch_image(server: &TestServer, url: &str, user: Option<&str>) -> (u16, Option<(u32, u32)>) {
    let request = server.raw(Method::GET, url);
    let request = match user {
        Some("admin") => request.basic_auth("admin", Some(crate::support::ADMIN_PASSWORD)),
        _ => request,
    };
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    if status != 200 {
        return (status, None);
    }
    assert_eq!(response.headers()["content-type"], "image/png");
    let bytes = response.bytes().await.unwrap();
    let decoded = image::load_from_memory(&bytes).expect("a decodable scale");
    (status, Some((decoded.width(), decoded.height())))
}

#[tokio::test]
async fn scales_are_listed_rendered_cached_and_follow_replacements() {
    let server = TestServer::start_uncached().await;
    let body = json!({"@type": "Image", "title": "Wide", "id": "wide",
                      "image": {"data": png(300, 150), "filename": "wide.png", "content-type": "image/png"}});
    server.create("", json!({"@type": "Folder", "title": "Private", "id": "private"})).await;
    let image = server.create("private", body).await;
    let scales = &image["image"]["scales"];
    assert_eq!((scales["thumb"]["width"].clone(), scales["thumb"]["height"].clone()), (json!(128), json!(64)));
    assert_eq!(scales["preview"]["width"], 300, "never enlarged");
    let thumb = scales["thumb"]["download"].as_str().unwrap().to_owned();
    assert!(thumb.contains("/private/wide/@@images/image/thumb?_t="), "{thumb}");
    assert!(!thumb.contains("@@download"));

    assert_eq!(fetch_image(&server, &thumb, Some("admin")).await, (200, Some((128, 64))));
    let before = server.app.store.query_count();
    assert_eq!(fetch_image(&server, &thumb, Some("admin")).await, (200, Some((128, 64))));
    let cached_cost = server.app.store.query_count() - before;
    assert!(cached_cost <= 4, "the second request reads the cache ({cached_cost} queries)");
    assert_eq!(
        fetch_image(&server, &server.url("private/wide/@@images/image"), Some("admin")).await,
        (200, Some((300, 150)))
    );

    let replace = json!({"image": {"data": png(100, 200), "filename": "tall.png", "content-type": "image/png"}});
    assert_eq!(server.admin(Method::PATCH, "private/wide").json(&replace).send().await.unwrap().status(), 204);
    assert_eq!(fetch_image(&server, &thumb, Some("admin")).await, (200, Some((64, 128))), "no stale scale");

    assert_eq!(fetch_image(&server, &thumb, None).await.0, 401, "images in private folders need View");
    for missing in
        ["private/wide/@@images/image/gigantic", "private/wide/@@images/title/thumb", "private/wide/@@images"]
    {
        assert_error(server.admin(Method::GET, missing).send().await.unwrap(), 404, "not_found").await;
    }
}
