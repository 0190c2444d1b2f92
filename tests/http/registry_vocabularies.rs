//! `@registry` (declared records only, Manage portal) and `@vocabularies`.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

const GREETING: &str = "wcs.example.hello.greeting";

#[tokio::test]
async fn registry_lists_declared_records_and_never_secrets() {
    let server = TestServer::start().await;
    // One page of every record (the default page holds 25).
    let (status, body) = server.get_json("@registry?b_size=1000").await;
    assert_eq!(status, 200, "{body}");
    let names: Vec<&str> = body["items"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap()).collect();
    assert!(names.contains(&GREETING), "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with("wcs.secret")), "secrets never listed: {names:?}");
    let greeting = body["items"].as_array().unwrap().iter().find(|i| i["name"] == GREETING).unwrap();
    assert_eq!(greeting["value"], "Hello");
    assert_eq!(greeting["schema"]["properties"]["type"], "string");
    assert_eq!(body["items_total"], names.len());

    let (_, filtered) = server.get_json("@registry?q=wcs.example.").await;
    assert_eq!(filtered["items_total"], 1);
    let (status, value) = server.get_json(&format!("@registry/{GREETING}")).await;
    assert_eq!((status, value), (200, json!("Hello")));
    for secret in ["wcs.secret.jwt", "wcs.secret.csrf"] {
        assert_error(server.admin(Method::GET, &format!("@registry/{secret}")).send().await.unwrap(), 404, "not_found")
            .await;
        let patch = json!({secret: "stolen"});
        let error = assert_error(
            server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap(),
            400,
            "validation_failed",
        )
        .await;
        assert_eq!(error["errors"][0]["field"], secret);
    }
}

#[tokio::test]
async fn registry_changes_are_typed_all_or_nothing_and_take_effect() {
    let server = TestServer::start().await;
    let bad = json!({GREETING: "Moin", "no.such.record": 1});
    assert_error(server.admin(Method::PATCH, "@registry").json(&bad).send().await.unwrap(), 400, "validation_failed")
        .await;
    let wrong_type = json!({GREETING: 5});
    assert_error(
        server.admin(Method::PATCH, "@registry").json(&wrong_type).send().await.unwrap(),
        400,
        "validation_failed",
    )
    .await;
    let (_, value) = server.get_json(&format!("@registry/{GREETING}")).await;
    assert_eq!(value, "Hello", "nothing written when one value is wrong");
    let (_, hello) = server.get_json("@hello").await;
    assert_eq!(hello["message"], "Hello admin, this is Site.", "read (and remembered) before the change");

    let good = json!({GREETING: "Moin"});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&good).send().await.unwrap().status(), 204);
    let (_, hello) = server.get_json("@hello").await;
    assert_eq!(hello["message"], "Moin admin, this is Site.");

    server.user("member", &["Member"], &[]).await;
    assert_error(server.as_user("member", Method::GET, "@registry").send().await.unwrap(), 403, "forbidden").await;
    assert_error(server.anonymous(Method::GET, "@registry").send().await.unwrap(), 401, "unauthorized").await;
    let response = server.as_user("member", Method::PATCH, "@registry").json(&good).send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
}

fn tokens(body: &Value) -> Vec<String> {
    body["items"].as_array().unwrap().iter().map(|i| i["token"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn vocabularies_list_terms_with_filters_and_batching() {
    let server = TestServer::start().await;
    let (status, list) = server.get_json("@vocabularies").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = list.as_array().unwrap().iter().map(|v| v["title"].as_str().unwrap()).collect();
    assert!(names.contains(&"plone.app.vocabularies.PortalTypes") && names.contains(&"plone.app.vocabularies.Catalog"));

    let (_, types) = server.get_json("@vocabularies/plone.app.vocabularies.PortalTypes?b_size=-1").await;
    assert!(tokens(&types).contains(&"Document".to_owned()));
    assert!(types.get("batching").is_none());
    let (_, page) = server.get_json("@vocabularies/plone.app.vocabularies.PortalTypes?b_size=2").await;
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    assert!(page["batching"]["next"].as_str().unwrap().contains("b_size=2"));
    let (_, by_title) = server.get_json("@vocabularies/plone.app.vocabularies.PortalTypes?title=PAGE").await;
    let pages = if cfg!(feature = "site-profile") { vec!["ContentPage", "Document"] } else { vec!["Document"] };
    assert_eq!(tokens(&by_title), pages);
    let (_, by_token) = server.get_json("@vocabularies/plone.app.vocabularies.ReviewStates?token=PUBLISHED").await;
    assert_eq!(tokens(&by_token), vec!["published"]);
    let (_, several) =
        server.get_json("@vocabularies/plone.app.vocabularies.PortalTypes?tokens=File&tokens=Folder").await;
    assert_eq!(tokens(&several), vec!["File", "Folder"]);
    let both = server.admin(Method::GET, "@vocabularies/plone.app.vocabularies.PortalTypes?title=a&token=b");
    assert_error(both.send().await.unwrap(), 400, "bad_request").await;
    assert_error(server.admin(Method::GET, "@vocabularies/nothing.here").send().await.unwrap(), 404, "not_found").await;

    // The types editors add, by title: not the site root, not layout blocks.
    let friendly = "@vocabularies/plone.app.vocabularies.ReallyUserFriendlyTypes";
    let (_, types) = server.get_json(&format!("{friendly}?b_size=-1")).await;
    let titles: Vec<&str> = types["items"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap()).collect();
    let mut sorted = titles.clone();
    sorted.sort_by_key(|t| t.to_lowercase());
    assert_eq!(titles, sorted);
    assert!(tokens(&types).contains(&"Document".to_owned()) && !tokens(&types).contains(&"Plone Site".to_owned()));
    assert!(!tokens(&types).contains(&"TextBlock".to_owned()), "layout blocks are not added by editors");
    let (_, page) = server.get_json(&format!("{friendly}?token=Document")).await;
    assert_eq!(page["items"], json!([{"title": "Page", "token": "Document"}]));
    let (_, by_title) =
        server.get_json("@vocabularies/plone.app.vocabularies.ReviewStates?sort_on=title&b_size=-1").await;
    let titles: Vec<&str> =
        by_title["items"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap()).collect();
    assert!(titles.windows(2).all(|w| w[0].to_lowercase() <= w[1].to_lowercase()), "{titles:?}");
    let bad = server.admin(Method::GET, &format!("{friendly}?sort_on=token")).send().await.unwrap();
    assert_error(bad, 400, "invalid_parameter").await;
}

#[tokio::test]
async fn choice_fields_point_at_their_vocabulary_and_the_catalog_respects_security() {
    let server = TestServer::start().await;
    #[cfg(feature = "site-profile")]
    {
        let (_, schema) = server.get_json("@types/SubTopic").await;
        let vocabulary = schema["properties"]["main_topics"]["items"]["vocabulary"]["@id"].as_str().unwrap().to_owned();
        assert!(vocabulary.ends_with("/@vocabularies/plone.app.vocabularies.Catalog"), "{vocabulary}");
    }

    let public = server.create("", json!({"@type": "Folder", "title": "Energie", "id": "energie"})).await;
    server.create("", json!({"@type": "Folder", "title": "Energie intern", "id": "intern"})).await;
    server.transition("energie", "publish").await;
    let (_, mine) = server.get_json("@vocabularies/plone.app.vocabularies.Catalog?title=energie").await;
    assert_eq!(mine["items_total"], 2);
    let anonymous =
        server.anonymous(Method::GET, "@vocabularies/plone.app.vocabularies.Catalog?title=energie").send().await;
    let (status, theirs) = read(anonymous.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(tokens(&theirs), vec![public["UID"].as_str().unwrap().to_owned()], "private content stays hidden");
}

#[tokio::test]
async fn several_records_are_read_in_one_statement_with_their_defaults() {
    let server = TestServer::start_uncached().await;
    let patch = json!({"plone.default_language": "de"});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap().status(), 204);
    let before = server.app.store.query_count();
    let values =
        server.app.record_values(&[&wcs_core::i18n::SITE_LANGUAGE, &wcs_example_hello::GREETING_WORD]).await.unwrap();
    assert_eq!(server.app.store.query_count() - before, 1);
    assert_eq!(values, [json!("de"), json!("Hello")], "the stored value, then a default");

    // Remembered: on SQLite this server is the database's only user, and on PostgreSQL it
    // listens for the other instances' commits (from shortly after it starts).
    let started = std::time::Instant::now();
    while !server.app.store.remembers() {
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "the server never listens");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    server.app.record_values(&[&wcs_core::i18n::SITE_LANGUAGE, &wcs_example_hello::GREETING_WORD]).await.unwrap();
    let before = server.app.store.query_count();
    let again =
        server.app.record_values(&[&wcs_core::i18n::SITE_LANGUAGE, &wcs_example_hello::GREETING_WORD]).await.unwrap();
    assert_eq!(server.app.store.query_count() - before, 0);
    assert_eq!(again, values);
    let patch = json!({"plone.default_language": "fr"});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap().status(), 204);
    let changed = server.app.record_value(&wcs_core::i18n::SITE_LANGUAGE).await.unwrap();
    assert_eq!(changed, json!("fr"), "a committed change is read at once");
}

/// Tag widgets offer the tags in use on what the caller may see; `@types` points them there.
#[tokio::test]
async fn keywords_are_the_tags_in_use() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "a", "title": "A", "subjects": ["Umwelt", "Energie"]})).await;
    server.create("", json!({"@type": "Folder", "id": "b", "title": "B", "subjects": ["Umwelt", "Geheim"]})).await;
    server.create("", json!({"@type": "Document", "id": "c", "title": "C"})).await;
    server.transition("a", "publish").await;
    let (status, all) = server.get_json("@vocabularies/plone.app.vocabularies.Keywords").await;
    assert_eq!(status, 200, "{all}");
    let tokens: Vec<&str> = all["items"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(tokens, ["Energie", "Geheim", "Umwelt"]);
    let response = server.anonymous(Method::GET, "@vocabularies/plone.app.vocabularies.Keywords").send();
    let (_, anonymous) = crate::support::read(response.await.unwrap()).await;
    assert_eq!(anonymous["items_total"], 2, "private tags stay hidden: {anonymous}");
    let (_, filtered) = server.get_json("@vocabularies/plone.app.vocabularies.Keywords?title=umw").await;
    assert_eq!(filtered["items"], json!([{"token": "Umwelt", "title": "Umwelt"}]));
    let (_, schema) = server.get_json("@types/Document").await;
    let vocabulary = &schema["properties"]["subjects"]["widgetOptions"]["vocabulary"]["@id"];
    assert_eq!(vocabulary, &json!(server.url("@vocabularies/plone.app.vocabularies.Keywords")));
}
