//! The multilingual plugin over HTTP: switching a site to several languages in the language
//! panel (root folders, content moved with redirects), `@translations`,
//! `@translation-locator`, `translation_of`, language roots as navigation roots, the
//! `Language` criterion, and what callers who may not view a translation see.

use crate::support::{TestServer, assert_error, read, uid};
use reqwest::Method;
use serde_json::{Value, json};

async fn choose_languages(server: &TestServer, default: &str, available: &[&str]) -> reqwest::Response {
    let body = json!({"default_language": default, "available_languages": available});
    server.admin(Method::PATCH, "@controlpanels/language").json(&body).send().await.unwrap()
}

/// A site in German, French and English, German first.
async fn multilingual_site() -> TestServer {
    let server = TestServer::start().await;
    let (status, body) = read(choose_languages(&server, "de", &["de", "fr", "en"]).await).await;
    assert_eq!(status, 204, "{body}");
    server
}

async fn translations(server: &TestServer, path: &str) -> Value {
    let (status, body) = server.get_json(&format!("{path}/@translations")).await;
    assert_eq!(status, 200, "{body}");
    body
}

fn languages(translations: &Value) -> Vec<(String, String)> {
    translations["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["language"].as_str().unwrap().to_owned(), t["@id"].as_str().unwrap().to_owned()))
        .collect()
}

async fn link(server: &TestServer, path: &str, id: Value) -> reqwest::Response {
    server.admin(Method::POST, &format!("{path}/@translations")).json(&json!({"id": id})).send().await.unwrap()
}

#[tokio::test]
async fn a_single_language_site_is_unchanged() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "page", "title": "Page", "language": "en"})).await;
    let (_, site) = server.get_json("@site").await;
    assert_eq!(site["features"]["multilingual"], false);
    assert_eq!(
        translations(&server, "page").await,
        json!({"@id": server.url("page/@translations"), "items": [], "root": {}})
    );
    let (_, crumbs) = server.get_json("page/@breadcrumbs").await;
    assert_eq!(crumbs["root"], server.site);
    let (status, _) = server.get_json("en").await;
    assert_eq!(status, 404, "no language root folders on a site of one language");
    let response = server.admin(Method::GET, "page/@translation-locator?target_language=fr").send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;
}

#[tokio::test]
async fn choosing_languages_makes_root_folders_and_moves_the_content_into_the_site_language() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "about", "title": "About"})).await;
    server.create("about", json!({"@type": "Document", "id": "team", "title": "Team"})).await;
    assert_eq!(choose_languages(&server, "de", &["de", "fr", "en"]).await.status(), 204);

    let (_, site) = server.get_json("@site").await;
    assert_eq!(site["features"]["multilingual"], true);
    assert_eq!(site["plone.available_languages"], json!(["de", "fr", "en"]));
    for (code, title) in [("de", "Deutsch"), ("fr", "Français"), ("en", "English")] {
        let (status, root) = read(server.anonymous(Method::GET, code).send().await.unwrap()).await;
        assert_eq!(status, 200, "the {code} root folder is published: {root}");
        assert_eq!((root["@type"].as_str(), root["title"].as_str()), (Some("LRF"), Some(title)));
        assert_eq!(root["language"]["token"], code);
        assert_eq!(root["exclude_from_nav"], true);
        // A title block, from which Volto shows the folder's heading.
        let first = &root["blocks_layout"]["items"][0];
        assert_eq!(root["blocks"][first.as_str().unwrap()]["@type"], "title", "{root}");
    }
    let (_, de) = server.get_json("de").await;
    let mut roots = languages(&translations(&server, "de").await);
    roots.sort();
    assert_eq!(roots, [("en".to_owned(), server.url("en")), ("fr".to_owned(), server.url("fr"))]);
    assert_eq!(
        translations(&server, "de").await["root"],
        json!({"de": server.url("de"), "en": server.url("en"), "fr": server.url("fr")})
    );
    assert_eq!(de["items"].as_array().unwrap().len(), 1, "the site's content is in the German root: {de}");

    let response = server.admin(Method::GET, "about/team").send().await.unwrap();
    assert_eq!(response.status(), 302, "old paths redirect");
    assert_eq!(response.headers()["location"].to_str().unwrap(), server.url("de/about/team"));

    // The language root is the navigation root of what is inside it.
    let (_, navroot) = server.get_json("de/about/team/@navroot").await;
    assert_eq!(navroot["navroot"]["@id"], server.url("de"));
    let (_, crumbs) = server.get_json("de/about/team/@breadcrumbs").await;
    assert_eq!(crumbs["root"], server.url("de"));
    let crumb_ids: Vec<&str> = crumbs["items"].as_array().unwrap().iter().map(|c| c["@id"].as_str().unwrap()).collect();
    assert_eq!(crumb_ids, [server.url("de/about"), server.url("de/about/team")]);
    let (_, navigation) = server.get_json("de/about/team/@navigation").await;
    let entries: Vec<&str> =
        navigation["items"].as_array().unwrap().iter().map(|i| i["@id"].as_str().unwrap()).collect();
    assert_eq!(entries, [server.url("de"), server.url("de/about")], "Home is the language root");
    let (_, site_navroot) = server.get_json("@navroot").await;
    assert_eq!(site_navroot["navroot"]["@id"], server.site, "the site root is its own navigation root");
    assert_eq!(site_navroot["navroot"]["layout"], "language-switcher");

    // A browser opening the site root goes on to its language's root folder.
    let page = |accept_language: &'static str| {
        server.raw(Method::GET, &server.site).header("Accept-Language", accept_language)
    };
    let response = page("fr-CH, en;q=0.5").send().await.unwrap();
    assert_eq!(response.status(), 302);
    assert_eq!(response.headers()["location"].to_str().unwrap(), server.url("fr"));
    let response = page("ja").send().await.unwrap();
    assert_eq!(response.headers()["location"].to_str().unwrap(), server.url("de"), "else the site language");

    // Adding a language later adds its root folder; the others stay as they are.
    assert_eq!(choose_languages(&server, "de", &["de", "fr", "en", "it"]).await.status(), 204);
    let (status, _) = server.get_json("it").await;
    assert_eq!(status, 200);
    let (_, de_again) = server.get_json("de").await;
    assert_eq!(de_again["UID"], de["UID"]);
}

#[tokio::test]
async fn a_language_whose_place_is_taken_is_refused_and_nothing_changes() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "fr", "title": "Fromages"})).await;
    let response = choose_languages(&server, "de", &["de", "fr"]).await;
    let body = assert_error(response, 400, "validation_failed").await;
    assert!(body.to_string().contains("Fromages"), "{body}");
    let (_, site) = server.get_json("@site").await;
    assert_eq!(
        (site["features"]["multilingual"].clone(), site["plone.available_languages"].clone()),
        (json!(false), json!(["en"]))
    );
    let response = choose_languages(&server, "it", &["de", "en"]).await;
    assert_error(response, 400, "validation_failed").await;
}

#[tokio::test]
async fn translations_are_linked_by_url_path_or_uid_listed_and_unlinked() {
    let server = multilingual_site().await;
    let de = server.create("de", json!({"@type": "Document", "id": "haus", "title": "Haus", "language": "de"})).await;
    let fr =
        server.create("fr", json!({"@type": "Document", "id": "maison", "title": "Maison", "language": "fr"})).await;
    let en = server.create("en", json!({"@type": "Document", "id": "house", "title": "House", "language": "en"})).await;

    let response = link(&server, "de/haus", json!(server.url("fr/maison"))).await;
    assert_eq!(response.status(), 201);
    assert_eq!(response.headers()["location"].to_str().unwrap(), server.url("de/haus"));
    assert_eq!(response.json::<Value>().await.unwrap(), json!({}));
    assert_eq!(link(&server, "de/haus", json!(uid(&en))).await.status(), 201);
    let listed = translations(&server, "de/haus").await;
    assert_eq!(
        languages(&listed),
        [("en".to_owned(), server.url("en/house")), ("fr".to_owned(), server.url("fr/maison"))]
    );
    assert_eq!(languages(&translations(&server, "fr/maison").await).len(), 2, "a group is seen from each member");
    let (_, expanded) = server.get_json("de/haus?expand=translations").await;
    assert_eq!(expanded["@components"]["translations"], listed);

    // One object per language; both ends need a language.
    let other =
        server.create("fr", json!({"@type": "Document", "id": "autre", "title": "Autre", "language": "fr"})).await;
    let response = link(&server, "de/haus", json!("/fr/autre")).await;
    let body = assert_error(response, 400, "bad_request").await;
    assert!(body.to_string().contains("Already translated into language fr"), "{body}");
    server.create("fr", json!({"@type": "Document", "id": "neutre", "title": "Neutre"})).await;
    assert_error(link(&server, "de/haus", json!("/fr/neutre")).await, 400, "bad_request").await;
    assert_error(link(&server, "de/haus", json!("/nowhere")).await, 400, "validation_failed").await;
    let response = server.admin(Method::POST, "de/haus/@translations").json(&json!({})).send().await.unwrap();
    assert_error(response, 400, "missing_property").await;

    // Unlinking one language leaves both objects and the rest of the group.
    let response =
        server.admin(Method::DELETE, "de/haus/@translations").json(&json!({"language": "fr"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(languages(&translations(&server, "de/haus").await), [("en".to_owned(), server.url("en/house"))]);
    assert_eq!(translations(&server, "fr/maison").await["items"], json!([]));
    let response =
        server.admin(Method::DELETE, "de/haus/@translations").json(&json!({"language": "fr"})).send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
    assert_eq!(link(&server, "de/haus", json!(uid(&other))).await.status(), 201);

    // A language change keeps the group under the new language; a deletion leaves it.
    let response = server.admin(Method::PATCH, "en/house").json(&json!({"language": "it"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let mut listed = languages(&translations(&server, "de/haus").await);
    listed.sort();
    assert_eq!(listed, [("fr".to_owned(), server.url("fr/autre")), ("it".to_owned(), server.url("en/house"))]);
    assert_eq!(server.admin(Method::DELETE, "fr/autre").send().await.unwrap().status(), 204);
    assert_eq!(languages(&translations(&server, "de/haus").await), [("it".to_owned(), server.url("en/house"))]);
    let _ = (de, fr);
}

#[tokio::test]
async fn a_new_object_joins_its_original_and_the_locator_finds_where_it_belongs() {
    let server = multilingual_site().await;
    server.create("de", json!({"@type": "Folder", "id": "amt", "title": "Amt", "language": "de"})).await;
    let haus =
        server.create("de/amt", json!({"@type": "Document", "id": "haus", "title": "Haus", "language": "de"})).await;

    let (status, located) = server.get_json("de/amt/haus/@translation-locator?target_language=fr").await;
    assert_eq!((status, &located), (200, &json!({"@id": server.url("fr")})), "the folder is not translated yet");
    let folder = json!({"@type": "Folder", "id": "office", "title": "Office", "language": "fr", "translation_of": server.url("de/amt")});
    let created = server.create("fr", folder).await;
    assert_eq!(created["@id"], server.url("fr/office"));
    let (_, located) = server.get_json("de/amt/haus/@translation-locator?target_language=fr").await;
    assert_eq!(located, json!({"@id": server.url("fr/office")}), "the container's translation");

    let page = json!({"@type": "Document", "id": "maison", "title": "Maison", "translation_of": uid(&haus)});
    let maison = server.create("fr/office", page).await;
    assert_eq!(maison["language"]["token"], "fr", "what is made in a language's tree takes its language");
    assert_eq!(
        languages(&translations(&server, "de/amt/haus").await),
        [("fr".to_owned(), server.url("fr/office/maison"))]
    );

    // A refused link refuses the object: nothing is created.
    let twice =
        json!({"@type": "Document", "id": "encore", "title": "Encore", "language": "fr", "translation_of": uid(&haus)});
    let response = server.admin(Method::POST, "fr").json(&twice).send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
    let (status, _) = server.get_json("fr/encore").await;
    assert_eq!(status, 404);

    let response = server.admin(Method::GET, "de/amt/haus/@translation-locator").send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;
    let response =
        server.admin(Method::GET, "de/amt/haus/@translation-locator?target_language=xx").send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;
}

#[tokio::test]
async fn callers_see_only_the_translations_they_may_view_and_change_only_their_own() {
    let server = multilingual_site().await;
    server.create("de", json!({"@type": "Document", "id": "haus", "title": "Haus", "language": "de"})).await;
    server.create("fr", json!({"@type": "Document", "id": "maison", "title": "Maison", "language": "fr"})).await;
    server.create("en", json!({"@type": "Document", "id": "house", "title": "House", "language": "en"})).await;
    assert_eq!(link(&server, "de/haus", json!("/fr/maison")).await.status(), 201);
    assert_eq!(link(&server, "de/haus", json!("/en/house")).await.status(), 201);
    server.transition("de/haus", "publish").await;
    server.transition("en/house", "publish").await;

    let (status, anonymous) = read(server.anonymous(Method::GET, "de/haus/@translations").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(languages(&anonymous), [("en".to_owned(), server.url("en/house"))], "the French one is private");

    // A member who may edit only the German page cannot pull another object into its group.
    server.user("anna", &["Member"], &[]).await;
    server.share("de/haus", "anna", &["Editor"]).await;
    server.create("fr", json!({"@type": "Document", "id": "autre", "title": "Autre", "language": "fr"})).await;
    let response = server
        .as_user("anna", Method::DELETE, "de/haus/@translations")
        .json(&json!({"language": "fr"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204, "her page's group is hers to change");
    let response = server
        .as_user("anna", Method::POST, "de/haus/@translations")
        .json(&json!({"id": "/fr/autre"}))
        .send()
        .await
        .unwrap();
    assert_error(response, 400, "validation_failed").await;
    server.share("fr/autre", "anna", &["Reader"]).await;
    let response = server
        .as_user("anna", Method::POST, "de/haus/@translations")
        .json(&json!({"id": "/fr/autre"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403, "seeing the other object is not enough: she must be able to change it");
    let response =
        server.anonymous(Method::POST, "de/haus/@translations").json(&json!({"id": "/en/house"})).send().await.unwrap();
    assert_eq!(response.status(), 401);
}

#[tokio::test]
async fn searches_and_listings_filter_by_language() {
    let server = multilingual_site().await;
    server.create("de", json!({"@type": "Document", "id": "haus", "title": "Haus", "language": "de"})).await;
    server.create("fr", json!({"@type": "Document", "id": "maison", "title": "Maison", "language": "fr"})).await;
    let (_, found) = server.get_json("@search?portal_type=Document&Language=fr").await;
    let titles: Vec<&str> = found["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Maison"]);
    let (_, all) = server.get_json("@search?portal_type=Document&Language=all").await;
    assert_eq!(all["items_total"], 2);
    let query = json!({"query": [
        {"i": "portal_type", "o": "plone.app.querystring.operation.selection.any", "v": ["Document"]},
        {"i": "Language", "o": "plone.app.querystring.operation.selection.any", "v": ["de"]},
    ]});
    let (status, listed) =
        read(server.admin(Method::POST, "@querystring-search").json(&query).send().await.unwrap()).await;
    assert_eq!(status, 200, "{listed}");
    let titles: Vec<&str> = listed["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Haus"]);
}

#[tokio::test]
async fn language_independent_fields_follow_from_one_translation_to_the_others() {
    let server = multilingual_site().await;
    let event = |id: &str, title: &str, location: &str| {
        json!({"@type": "Event", "id": id, "title": title, "location": location,
               "start": "2027-05-01T10:00:00+00:00", "end": "2027-05-01T12:00:00+00:00"})
    };
    let fest = server.create("de", event("fest", "Fest", "Rathaus")).await;
    let fete = json!({"translation_of": uid(&fest), "language": "fr"});
    let mut body = event("fete", "Fête", "Hôtel de ville");
    body.as_object_mut().unwrap().extend(fete.as_object().unwrap().clone());
    server.create("fr", body).await;

    let moved =
        json!({"start": "2027-06-01T10:00:00+00:00", "end": "2027-06-01T12:00:00+00:00", "location": "Marktplatz"});
    assert_eq!(server.admin(Method::PATCH, "de/fest").json(&moved).send().await.unwrap().status(), 204);
    let (_, fete) = server.get_json("fr/fete").await;
    assert_eq!(
        (fete["start"].as_str(), fete["end"].as_str()),
        (Some("2027-06-01T10:00:00+00:00"), Some("2027-06-01T12:00:00+00:00"))
    );
    assert_eq!(fete["location"], "Hôtel de ville", "what is said in words stays each language's own");
    assert_eq!(fete["title"], "Fête");

    // The schema marks them as plone.restapi does; Volto's translation form copies them.
    let (_, schema) = server.get_json("@types/Event").await;
    let marked = |field: &str| schema["properties"][field]["multilingual_options"]["language_independent"] == true;
    assert!(marked("start") && marked("end"), "{}", schema["properties"]["start"]);
    assert!(!marked("location") && !marked("title"), "{}", schema["properties"]["location"]);
}

#[tokio::test]
async fn the_language_field_offers_the_sites_languages_named_in_themselves() {
    let server = multilingual_site().await;
    let (status, vocabulary) = server.get_json("@vocabularies/plone.app.vocabularies.SupportedContentLanguages").await;
    assert_eq!(status, 200, "{vocabulary}");
    assert_eq!(
        vocabulary["items"],
        json!([{"token": "de", "title": "Deutsch"}, {"token": "fr", "title": "Français"}, {"token": "en", "title": "English"}])
    );
    let (_, schema) = server.get_json("@types/Document").await;
    assert_eq!(
        schema["properties"]["language"]["vocabulary"]["@id"],
        server.url("@vocabularies/plone.app.vocabularies.SupportedContentLanguages")
    );
    assert_eq!(schema["properties"]["language"]["factory"], "Choice");
}

#[tokio::test]
async fn saving_the_languages_again_changes_no_content() {
    let server = multilingual_site().await;
    let before = server.recorded_changes(0).await.len();
    // Another site language runs the work again: everything is there already.
    let (status, body) = read(choose_languages(&server, "fr", &["de", "fr", "en"]).await).await;
    assert_eq!(status, 204, "{body}");
    let after = server.recorded_changes(0).await;
    assert_eq!(after.len(), before, "nothing to make, link or move: {:?}", after.last());
}

#[tokio::test]
async fn a_group_left_stays_left_and_a_trashed_translation_gives_its_place_up() {
    let server = multilingual_site().await;
    for (root, id, title) in [("de", "a", "A"), ("fr", "b", "B"), ("en", "c", "C"), ("fr", "d", "D")] {
        server.create(root, json!({"@type": "Document", "id": id, "title": title})).await;
    }
    assert_eq!(link(&server, "de/a", json!("/fr/b")).await.status(), 201);
    let unlink = server.admin(Method::DELETE, "fr/b/@translations").json(&json!({"language": "de"})).send().await;
    assert_eq!(unlink.unwrap().status(), 204);
    assert_eq!(link(&server, "de/a", json!("/en/c")).await.status(), 201);
    assert_eq!(languages(&translations(&server, "de/a").await), [("en".to_owned(), server.url("en/c"))]);
    assert_eq!(translations(&server, "fr/b").await["items"], json!([]), "B left A's group and stays out of it");

    // A French translation in the trash no longer holds French.
    assert_eq!(link(&server, "de/a", json!("/fr/b")).await.status(), 201);
    assert_eq!(server.admin(Method::POST, "fr/b/@trash").send().await.unwrap().status(), 204);
    assert_eq!(link(&server, "de/a", json!("/fr/d")).await.status(), 201);
    let mut listed = languages(&translations(&server, "de/a").await);
    listed.sort();
    assert_eq!(listed, [("en".to_owned(), server.url("en/c")), ("fr".to_owned(), server.url("fr/d"))]);
}

#[tokio::test]
async fn content_made_at_the_site_root_later_stays_there_and_a_trashed_place_is_refused() {
    let server = multilingual_site().await;
    server.create("", json!({"@type": "Folder", "id": "it", "title": "IT-Dienste"})).await;
    assert_eq!(server.admin(Method::POST, "it/@trash").send().await.unwrap().status(), 204);
    let response = choose_languages(&server, "de", &["de", "fr", "en", "it"]).await;
    let body = assert_error(response, 400, "validation_failed").await;
    assert!(body.to_string().contains("trash"), "{body}");
    server.create("", json!({"@type": "Document", "id": "impressum", "title": "Impressum"})).await;
    assert_eq!(choose_languages(&server, "fr", &["de", "fr", "en"]).await.status(), 204);
    let (status, _) = server.get_json("impressum").await;
    assert_eq!(status, 200, "moved only when the site became multilingual");
}
