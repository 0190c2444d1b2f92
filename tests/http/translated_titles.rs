//! The titles plone.restapi answers in the caller's language: types and workflow states and
//! transitions, by `Accept-Language`, else the site's language.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};

async fn get(server: &TestServer, path: &str, language: Option<&str>) -> Value {
    let mut request = server.admin(Method::GET, path);
    if let Some(language) = language {
        request = request.header("Accept-Language", language);
    }
    let (status, body) = read(request.send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    body
}

fn type_title<'a>(types: &'a Value, id: &str) -> &'a Value {
    types.as_array().unwrap().iter().find(|t| t["id"] == id).map(|t| &t["title"]).unwrap_or(&Value::Null)
}

#[tokio::test]
async fn types_and_workflow_titles_follow_the_callers_language() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "page", "title": "Page"})).await;

    let german = get(&server, "@types", Some("de-CH, en;q=0.5")).await;
    assert_eq!(type_title(&german, "Document"), "Seite");
    let titles: Vec<&str> = german.as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap()).collect();
    let mut sorted = titles.clone();
    sorted.sort_unstable();
    assert_eq!(titles, sorted, "sorted by the translated title, as Plone sorts them");
    let workflow = get(&server, "page/@workflow", Some("de")).await;
    assert_eq!(workflow["state"]["title"], "Privat");
    assert_eq!(workflow["history"][0]["title"], "Privat");
    let transitions: Vec<&str> =
        workflow["transitions"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap()).collect();
    assert_eq!(transitions, ["Veröffentlichen", "Zur Veröffentlichung einreichen"]);
    let response =
        server.admin(Method::POST, "page/@workflow/publish").header("Accept-Language", "es").send().await.unwrap();
    assert_eq!(read(response).await.1["title"], "Publicado");

    // A language without messages falls back to the site's, here English.
    assert_eq!(type_title(&get(&server, "@types", Some("fi")).await, "Document"), "Page");
    assert_eq!(get(&server, "page/@workflow", None).await["state"]["title"], "Published");
    // The site's language applies when the client names none.
    let to_german = json!({"plone.default_language": "de"});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&to_german).send().await.unwrap().status(), 204);
    assert_eq!(get(&server, "page/@workflow", None).await["state"]["title"], "Veröffentlicht");
}
