//! `@querystring` and `@querystring-search`: the queries of Volto's listing and search blocks,
//! with plone.app.querystring's operations, answered as `@search` answers.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};

const OP: &str = "plone.app.querystring.operation.";

fn titles(body: &Value) -> Vec<String> {
    body["items"].as_array().unwrap().iter().map(|i| i["title"].as_str().unwrap().to_owned()).collect()
}

async fn site(server: &TestServer) {
    server.create("", json!({"@type": "Folder", "id": "news", "title": "News"})).await;
    server.create("news", json!({"@type": "Document", "id": "a", "title": "Alpha", "subjects": ["rot"]})).await;
    server.create("news", json!({"@type": "Document", "id": "b", "title": "Beta", "subjects": ["rot", "blau"]})).await;
    server.create("news", json!({"@type": "Folder", "id": "c", "title": "Gamma"})).await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "Delta"})).await;
    for path in ["news", "news/a"] {
        assert!(
            server
                .admin(Method::POST, &format!("{path}/@workflow/publish"))
                .send()
                .await
                .unwrap()
                .status()
                .is_success()
        );
    }
}

#[tokio::test]
async fn listing_queries_select_sort_and_page_like_plone() {
    let server = TestServer::start().await;
    site(&server).await;
    let query = |criteria: Value, extra: Value| {
        let mut body = json!({"query": criteria});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let documents = json!([{"i": "portal_type", "o": format!("{OP}selection.any"), "v": ["Document"]}]);
    let post =
        |path: &str, body: Value| server.admin(Method::POST, &format!("{path}@querystring-search")).json(&body).send();
    let (status, all) =
        read(post("", query(documents.clone(), json!({"sort_on": "sortable_title"}))).await.unwrap()).await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(titles(&all), ["Alpha", "Beta", "Delta"]);
    assert_eq!(all["items_total"], 3);
    assert!(all["@id"].as_str().unwrap().ends_with("/@querystring-search"));

    // Descending, paged, limited.
    let (_, page) = read(
        post(
            "",
            query(documents.clone(), json!({"sort_on": "sortable_title", "sort_order": "descending", "b_size": 2})),
        )
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(titles(&page), ["Delta", "Beta"]);
    assert_eq!(page["items_total"], 3);
    let next = page["batching"]["next"].as_str().unwrap_or_default();
    assert!(next.contains("/@querystring-search?") && next.contains("b_start=2"), "{page}");
    // Relative path below a page: the page itself is left out; the whole site otherwise.
    let here = json!([{"i": "path", "o": format!("{OP}string.relativePath"), "v": "."}]);
    let (_, below) = read(post("news/", query(here, json!({"sort_on": "sortable_title"}))).await.unwrap()).await;
    assert_eq!(titles(&below), ["Alpha", "Beta", "Gamma"]);
    let (_, site_wide) =
        read(post("news/a/", query(documents.clone(), json!({"sort_on": "sortable_title"}))).await.unwrap()).await;
    assert_eq!(titles(&site_wide), ["Beta", "Delta"], "site-wide, without the context itself");
    // Keywords: all of / none of; states.
    let both = json!([{"i": "Subject", "o": format!("{OP}selection.all"), "v": ["rot", "blau"]}]);
    assert_eq!(titles(&read(post("", query(both, json!({}))).await.unwrap()).await.1), ["Beta"]);
    let published = json!([{"i": "review_state", "o": format!("{OP}selection.any"), "v": ["published"]},
                           {"i": "portal_type", "o": format!("{OP}selection.none"), "v": ["Folder"]}]);
    assert_eq!(titles(&read(post("", query(published, json!({}))).await.unwrap()).await.1), ["Alpha"]);

    // The GET form, with the JSON encoded once more, as Volto sends it.
    let body = query(documents, json!({"sort_on": "sortable_title", "b_size": 1}));
    let encoded: String = url_encode(&url_encode(&body.to_string()));
    let (status, got) =
        read(server.admin(Method::GET, &format!("@querystring-search?query={encoded}")).send().await.unwrap()).await;
    assert_eq!((status, titles(&got)), (200, vec!["Alpha".to_owned()]), "{got}");

    // Anonymous visitors get only what they may see.
    let any = json!({"query": [{"i": "portal_type", "o": format!("{OP}selection.any"), "v": ["Document", "Folder"]}]});
    let (_, anonymous) =
        read(server.anonymous(Method::POST, "@querystring-search").json(&any).send().await.unwrap()).await;
    let mut seen = titles(&anonymous);
    seen.sort();
    assert_eq!(seen, ["Alpha", "News"]);

    // Refusals.
    for bad in [
        json!({}),
        // Deliberately not run: no listing widens who sees inactive content.
        json!({"query": [{"i": "show_inactive", "o": format!("{OP}string.showInactive"), "v": ["Manager"]}]}),
        json!({"query": [{"i": "getObjPositionInParent", "o": format!("{OP}int.is"), "v": "first"}]}),
        json!({"query": [{"i": "created", "o": format!("{OP}date.between"), "v": ["2020-01-01"]}]}),
    ] {
        let (status, refused) = read(post("", bad.clone()).await.unwrap()).await;
        assert_eq!((status, &refused["code"]), (400, &json!("bad_request")), "{bad}: {refused}");
    }
}

#[tokio::test]
async fn the_configuration_offers_what_the_search_runs() {
    let server = TestServer::start().await;
    let (status, config) = read(server.anonymous(Method::GET, "@querystring").send().await.unwrap()).await;
    assert_eq!(status, 200, "{config}");
    let portal_type = &config["indexes"]["portal_type"];
    assert_eq!(portal_type["operations"], json!([format!("{OP}selection.any"), format!("{OP}selection.none")]));
    assert_eq!(portal_type["values"]["Document"]["title"], "Page");
    assert_eq!(config["indexes"]["review_state"]["values"]["published"]["title"], "Published [published]");
    assert_eq!(config["indexes"]["Creator"]["vocabulary"], "plone.app.vocabularies.Users");
    assert_eq!(config["indexes"]["isFolderish"]["enabled"], false, "offered as Plone offers it");
    assert!(config["indexes"].get("show_inactive").is_none());
    assert!(config["sortable_indexes"]["sortable_title"].is_object());
    assert!(config["sortable_indexes"]["effective"].is_object());
    assert!(
        config["indexes"]["path"]["operators"][format!("{OP}string.relativePath")]["widget"] == "RelativePathWidget"
    );
}

/// Posts `criteria` (with `extra` keys) as `user`, and answers the titles found, sorted.
async fn found(server: &TestServer, user: &str, criteria: Value) -> Vec<String> {
    let body = json!({"query": criteria, "sort_on": "sortable_title"});
    let request = match user {
        "admin" => server.admin(Method::POST, "@querystring-search"),
        user => server.as_user(user, Method::POST, "@querystring-search"),
    };
    let (status, answer) = read(request.json(&body).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}: {answer}");
    titles(&answer)
}

fn criterion(index: &str, op: &str, value: Value) -> Value {
    json!([{"i": index, "o": format!("{OP}{op}"), "v": value}])
}

#[tokio::test]
async fn plone_indexes_beyond_types_states_and_text_select_as_in_plone() {
    let server = TestServer::start().await;
    site(&server).await;
    server.user("anna", &["Member"], &[]).await;
    server.share("news", "anna", &["Contributor", "Editor", "Reader"]).await;
    let mine = json!({"@type": "Document", "id": "mine", "title": "Annas Seite", "description": "Vom Rathaus"});
    let response = server.as_user("anna", Method::POST, "news").json(&mine).send().await.unwrap();
    assert_eq!(response.status(), 201);
    let (_, alpha) = server.get_json("news/a").await;
    let related = json!({"@type": "Document", "id": "r", "title": "Related", "relatedItems": [alpha["UID"]]});
    server.create("", related).await;
    let response = server.admin(Method::PATCH, "news").json(&json!({"default_page": "a"})).send().await.unwrap();
    assert_eq!(response.status(), 204);

    let current_user = criterion("Creator", "string.currentUser", json!(""));
    assert_eq!(found(&server, "anna", current_user.clone()).await, ["Annas Seite"]);
    assert!(!found(&server, "admin", current_user).await.contains(&"Annas Seite".to_owned()));
    assert_eq!(found(&server, "admin", criterion("Creator", "selection.any", json!(["anna"]))).await, ["Annas Seite"]);
    assert_eq!(
        found(&server, "admin", criterion("Title", "string.contains", json!("seite annas"))).await,
        ["Annas Seite"]
    );
    assert_eq!(
        found(&server, "admin", criterion("Description", "string.contains", json!("rathaus"))).await,
        ["Annas Seite"]
    );
    assert_eq!(found(&server, "admin", criterion("sortable_title", "string.is", json!("delta"))).await, ["Delta"]);
    let not_d = json!([{"i": "getId", "o": format!("{OP}string.isNot"), "v": "d"},
                       {"i": "path", "o": format!("{OP}string.absolutePath"), "v": "/"}]);
    assert!(!found(&server, "admin", not_d).await.contains(&"Delta".to_owned()));
    let folders = criterion("isFolderish", "boolean.isTrue", json!(""));
    assert_eq!(
        found(&server, "admin", folders).await,
        ["Alpha", "Annas Seite", "Beta", "Delta", "Gamma", "News", "Related", "Site"],
        "Documents are folderish, as in Plone 6 with Volto"
    );
    assert_eq!(found(&server, "admin", criterion("isDefaultPage", "boolean.isTrue", json!(""))).await, ["Alpha"]);
    let first_two = json!([{"i": "getObjPositionInParent", "o": format!("{OP}int.lessThan"), "v": "1"},
                           {"i": "path", "o": format!("{OP}string.absolutePath"), "v": "/news::1"}]);
    assert_eq!(found(&server, "admin", first_two).await, ["Alpha", "Beta"]);
    let uid = alpha["UID"].as_str().unwrap();
    for target in [json!(uid), json!("/news/a")] {
        assert_eq!(found(&server, "admin", criterion("getRawRelatedItems", "reference.is", target)).await, ["Related"]);
    }
    // Dates count whole days from today, as plone.app.querystring does.
    let last_week = criterion("created", "date.largerThanRelativeDate", json!("7"));
    assert_eq!(found(&server, "admin", last_week).await.len(), 8);
    assert!(found(&server, "admin", criterion("created", "date.afterRelativeDate", json!("1"))).await.is_empty());
    assert!(found(&server, "admin", criterion("created", "date.beforeRelativeDate", json!("1"))).await.is_empty());
}

#[tokio::test]
async fn upcoming_events_are_found_by_their_start() {
    let server = TestServer::start().await;
    let soon = (chrono::Utc::now() + chrono::Duration::days(3)).to_rfc3339();
    let past = (chrono::Utc::now() - chrono::Duration::days(3)).to_rfc3339();
    for (id, start) in [("fest", &soon), ("markt", &past)] {
        let event = json!({"@type": "Event", "id": id, "title": id, "start": start, "end": start});
        server.create("", event).await;
    }
    let upcoming = json!({"query": criterion("start", "date.afterToday", json!("")), "sort_on": "start"});
    let (status, answer) =
        read(server.admin(Method::POST, "@querystring-search").json(&upcoming).send().await.unwrap()).await;
    assert_eq!((status, titles(&answer)), (200, vec!["fest".to_owned()]), "{answer}");
    let (_, by_end) = server.get_json("@search?end.query=2000-01-01&end.range=min&sort_on=end").await;
    assert_eq!(titles(&by_end), ["markt", "fest"]);
}

#[tokio::test]
async fn site_owners_shape_the_query_widget_through_the_registry() {
    let server = TestServer::start().await;
    let change = json!({
        "plone.app.querystring.field.Title.title": "Überschrift",
        "plone.app.querystring.field.isFolderish.enabled": true,
        "plone.app.querystring.operation.string.contains.description": "Wörter des Titels",
    });
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&change).send().await.unwrap().status(), 204);
    let (_, config) = server.get_json("@querystring").await;
    assert_eq!(config["indexes"]["Title"]["title"], "Überschrift");
    assert_eq!(config["indexes"]["isFolderish"]["enabled"], true);
    let contains = format!("{OP}string.contains");
    assert_eq!(config["indexes"]["Title"]["operators"][&contains]["description"], "Wörter des Titels");
    let (_, record) = server.get_json("@registry/plone.app.querystring.field.path.title").await;
    assert_eq!(record, "Location");
    // An operation the server does not run cannot be offered.
    let unknown = json!({"plone.app.querystring.field.Title.operations": [format!("{OP}string.showInactive")]});
    let response = server.admin(Method::PATCH, "@registry").json(&unknown).send().await.unwrap();
    assert_eq!(response.status(), 400);
    let (_, listed) = server.get_json("@registry?q=plone.app.querystring.field.Creator").await;
    assert_eq!(listed["items_total"], 8);
}

#[tokio::test]
async fn the_users_vocabulary_is_for_editors() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    server.user("ed", &["Editor"], &[]).await;
    let vocabulary = "@vocabularies/plone.app.vocabularies.Users?title=ann";
    let (status, terms) = read(server.as_user("ed", Method::GET, vocabulary).send().await.unwrap()).await;
    assert_eq!(status, 200, "{terms}");
    let tokens: Vec<&str> = terms["items"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(tokens, ["anna"]);
    assert_eq!(server.as_user("anna", Method::GET, vocabulary).send().await.unwrap().status(), 403);
    assert_eq!(server.anonymous(Method::GET, vocabulary).send().await.unwrap().status(), 401);
    let (_, states) = server.get_json("@vocabularies/plone.app.vocabularies.WorkflowStates").await;
    assert!(states["items"].as_array().unwrap().iter().any(|t| t["title"] == "Private [private]"), "{states}");
}

fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
