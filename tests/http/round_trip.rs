//! A GET followed by a PUT of the same body changes nothing, for every type: the keys
//! serializer layers add (core's, plugins', the example plugin's `greeting`) are read-only and
//! ignored, never refused.

use crate::images::png;
use crate::support::{TestServer, read, site_path};
use reqwest::Method;
use serde_json::{Value, json};

/// An object of every shipped type (and the example plugin's), created with more than the
/// required fields.
async fn one_of_each(server: &TestServer) -> Vec<String> {
    let related = server.create("", json!({"@type": "Folder", "title": "Bezug", "subjects": ["a", "b"]})).await;
    let file = json!({"data": "aGFsbG8=", "encoding": "base64", "filename": "a.txt", "content-type": "text/plain"});
    let image = json!({"data": png(20, 10), "filename": "a.png", "content-type": "image/png"});
    let mut bodies = vec![
        (
            "",
            json!({"@type": "Document", "title": "Seite", "text": "<p>Hallo <b>Welt</b></p>", "relatedItems": [related["UID"]]}),
        ),
        ("", json!({"@type": "File", "title": "Datei", "file": file})),
        ("", json!({"@type": "Image", "title": "Bild", "image": image})),
        ("", json!({"@type": "Link", "title": "Verweis", "remoteUrl": "https://example.org/"})),
        ("", json!({"@type": "News Item", "title": "Meldung", "image": image.clone(), "image_caption": "Das Rathaus"})),
        (
            "",
            json!({"@type": "Collection", "title": "Sammlung", "sort_on": "effective", "sort_reversed": true, "limit": 5,
                   "query": [{"i": "portal_type", "o": "plone.app.querystring.operation.selection.any", "v": ["Document"]}]}),
        ),
        (
            "",
            json!({"@type": "Event", "title": "Fest", "start": "2027-07-12T18:00:00+02:00",
                   "end": "2027-07-12T23:00:00+02:00", "location": "Marktplatz", "attendees": ["Rat"],
                   "recurrence": "RRULE:FREQ=WEEKLY;COUNT=3"}),
        ),
        ("", json!({"@type": "Greeting", "title": "Karte", "recipient": "Anna", "color": "#F80"})),
    ];
    if cfg!(feature = "easyform") {
        let fields = json!([{"name": "mail", "type": "Email", "title": "E-Mail", "required": true},
                            {"name": "thema", "type": "Choice", "title": "Thema", "items": [{"token": "a", "title": "A"}]}]);
        let form = json!({"@type": "EasyForm", "title": "Formular", "fields_model": fields,
                          "recipients": ["info@example.org"], "submitLabel": "Senden"});
        bodies.push(("", form));
    }
    let mut paths = vec![site_path(&related["@id"])];
    if cfg!(feature = "multilingual") {
        // Two languages make a root folder for each (and move what is there into German).
        let languages = json!({"default_language": "de", "available_languages": ["de", "fr"]});
        let response = server.admin(Method::PATCH, "@controlpanels/language").json(&languages).send().await.unwrap();
        assert_eq!(response.status(), 204);
        paths = vec!["de/bezug".to_owned(), "fr".to_owned()];
    }
    for (parent, body) in bodies {
        paths.push(site_path(&server.create(parent, body).await["@id"]));
    }
    if cfg!(feature = "site-profile") {
        paths.extend(one_of_each_of_the_site_profile(server).await);
    }
    paths
}

/// The site profile's types: topics, block pages with every block type, news.
async fn one_of_each_of_the_site_profile(server: &TestServer) -> Vec<String> {
    let topic = server.create("", json!({"@type": "Topic", "title": "Thema", "subjects": ["a", "b"]})).await;
    let mut paths = vec![site_path(&topic["@id"])];
    for (parent, body) in [
        ("", json!({"@type": "SubTopic", "title": "Unterthema", "main_topics": [topic["UID"]]})),
        ("", json!({"@type": "ContentPage", "title": "Inhaltsseite"})),
        ("inhaltsseite", json!({"@type": "Chapter", "title": "Kapitel"})),
        ("", json!({"@type": "NewsFolder", "title": "News"})),
    ] {
        paths.push(site_path(&server.create(parent, body).await["@id"]));
    }
    let news = json!({"@type": "News", "title": "Meldung", "news_date": "2026-11-24T10:00:00+00:00"});
    paths.push(site_path(&server.create("news", news).await["@id"]));
    for block in [
        json!({"@type": "TextBlock", "title": "Text", "text": "<p>Block</p>", "image": {"data": png(8, 8), "filename": "b.png"}}),
        json!({"@type": "FileListingBlock", "title": "Dateien"}),
        json!({"@type": "GalleryBlock", "title": "Galerie"}),
        json!({"@type": "VideoBlock", "title": "Video", "video_url": "https://youtu.be/abc"}),
    ] {
        paths.push(site_path(&server.create("inhaltsseite", block).await["@id"]));
    }
    let listing = json!({"@type": "NewsListingBlock", "title": "Neuigkeiten"});
    paths.push(site_path(&server.create("news", listing).await["@id"]));
    paths
}

/// The serialization without what a write changes by itself: the modification time and the
/// cache-busting `_t` it puts in download and scale URLs.
fn stable(mut body: Value) -> String {
    if let Some(map) = body.as_object_mut() {
        map.remove("modified");
    }
    let text = body.to_string();
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("_t=") {
        out.push_str(&rest[..at + 3]);
        rest = rest[at + 3..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn a_get_followed_by_a_put_round_trips_for_every_type() {
    let server = TestServer::start().await;
    let paths = one_of_each(&server).await;
    let mut types = Vec::new();
    for path in paths {
        let (status, before) = server.get_json(&path).await;
        assert_eq!(status, 200, "{path}");
        types.push(before["@type"].as_str().unwrap().to_owned());
        let response = server.admin(Method::PUT, &path).json(&before).send().await.unwrap();
        let (status, error) = read(response).await;
        assert_eq!(status, 204, "PUT of what GET gave for {path}: {error}");
        let (_, after) = server.get_json(&path).await;
        assert_eq!(stable(after), stable(before), "{path} changed");
    }
    types.sort();
    let mut expected: Vec<String> =
        server.app.types.all().map(|t| t.id.clone()).filter(|t| t != "Plone Site").collect();
    expected.sort();
    assert_eq!(types, expected, "every type is tried");
}
