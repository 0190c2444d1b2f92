//! Content types edited through the web: fields and fieldsets added, changed and removed with
//! `@types`, types made and deleted in Site Setup's Content Types panel, the edits stored in
//! the database and served at once here and by another instance sharing it, and the checks
//! that keep stored content valid.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

async fn post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    read(server.admin(Method::POST, path).json(&body).send().await.unwrap()).await
}

async fn patch(server: &TestServer, path: &str, body: Value) -> u16 {
    let (status, answer) = read(server.admin(Method::PATCH, path).json(&body).send().await.unwrap()).await;
    assert!(status == 204 || status >= 400, "{status} {answer}");
    status
}

async fn add_field(server: &TestServer, type_name: &str, body: Value) -> Value {
    let (status, field) = post(server, &format!("@types/{type_name}"), body).await;
    assert_eq!(status, 201, "{field}");
    field
}

fn fieldset<'a>(schema: &'a Value, id: &str) -> Option<&'a Value> {
    schema["fieldsets"].as_array().unwrap().iter().find(|f| f["id"] == id)
}

#[tokio::test]
async fn a_field_added_to_page_is_in_its_schema_checks_its_values_and_is_stored() {
    let server = TestServer::start().await;
    let field = add_field(
        &server,
        "Document",
        json!({"factory": "Email", "title": "Author email", "description": "Who wrote it"}),
    )
    .await;
    assert_eq!(field["factory"], "Email");
    assert_eq!(field["widget"], "email");
    assert_eq!(field["description"], "Who wrote it");

    let (_, schema) = server.get_json("@types/Document").await;
    assert_eq!(schema["properties"]["author_email"]["factory"], "Email");
    let first_tab = fieldset(&schema, "default").unwrap();
    assert!(first_tab["fields"].as_array().unwrap().contains(&json!("author_email")), "{first_tab}");
    let (status, one) = server.get_json("@types/Document/author_email").await;
    assert_eq!((status, &one["title"]), (200, &json!("Author email")));

    let bad = json!({"@type": "Document", "id": "bad", "title": "Bad", "author_email": "nobody"});
    assert_error(server.admin(Method::POST, "").json(&bad).send().await.unwrap(), 400, "validation_failed").await;
    let good = server
        .create("", json!({"@type": "Document", "id": "page", "title": "Page", "author_email": "anna@example.org"}))
        .await;
    assert_eq!(good["author_email"], "anna@example.org");

    let stored: (String,) = sqlx::query_as("SELECT definition FROM content_type_edit WHERE id = 'Document'")
        .fetch_one(server.app.store.pool())
        .await
        .unwrap();
    assert!(stored.0.contains("author_email"), "the edit is stored data: {}", stored.0);

    let document: Value =
        server.raw(Method::GET, &format!("{}/openapi.json", server.base)).send().await.unwrap().json().await.unwrap();
    let page = &document["components"]["schemas"]["ContentType_Document"];
    assert_eq!(page["properties"]["author_email"]["type"], "string", "{page}");
}

#[tokio::test]
async fn field_settings_limits_and_choices_change_and_apply_to_new_values() {
    let server = TestServer::start().await;
    add_field(&server, "Document", json!({"factory": "Text line (String)", "title": "Kürzel"})).await;
    assert_eq!(
        patch(
            &server,
            "@types/Document/kuerzel",
            json!({"title": "Code", "minLength": 2, "maxLength": 4, "required": true})
        )
        .await,
        204
    );
    let (_, field) = server.get_json("@types/Document/kuerzel").await;
    assert_eq!((field["minLength"].clone(), field["maxLength"].clone()), (json!(2), json!(4)));
    let (_, schema) = server.get_json("@types/Document").await;
    assert!(schema["required"].as_array().unwrap().contains(&json!("kuerzel")));
    let long = json!({"@type": "Document", "title": "X", "kuerzel": "ABCDE"});
    assert_error(server.admin(Method::POST, "").json(&long).send().await.unwrap(), 400, "validation_failed").await;

    add_field(
        &server,
        "Document",
        json!({"factory": "Multiple Choice", "title": "Zielgruppe", "values": ["Presse", "Bürger"]}),
    )
    .await;
    let (_, schema) = server.get_json("@types/Document/zielgruppe").await;
    assert_eq!(schema["factory"], "Multiple Choice");
    assert_eq!(schema["items"]["enum"], json!(["Presse", "Bürger"]));
    let wrong = json!({"@type": "Document", "title": "Y", "kuerzel": "AB", "zielgruppe": ["Kinder"]});
    assert_error(server.admin(Method::POST, "").json(&wrong).send().await.unwrap(), 400, "validation_failed").await;
    let (_, terms) = server.get_json("@vocabularies/Document.zielgruppe").await;
    assert_eq!(terms["items_total"], 2, "{terms}");

    let unknown = json!({"factory": "Hologram", "title": "X"});
    assert_error(
        server.admin(Method::POST, "@types/Document").json(&unknown).send().await.unwrap(),
        400,
        "invalid_parameter",
    )
    .await;
    let taken = json!({"factory": "Text", "title": "Title"});
    assert_error(
        server.admin(Method::POST, "@types/Document").json(&taken).send().await.unwrap(),
        400,
        "invalid_parameter",
    )
    .await;
}

#[tokio::test]
async fn fieldsets_gather_fields_and_removing_one_puts_them_back_on_the_first_tab() {
    let server = TestServer::start().await;
    add_field(&server, "Document", json!({"factory": "Email", "title": "Author email"})).await;
    let (status, tab) = post(&server, "@types/Document", json!({"factory": "fieldset", "title": "Contact Info"})).await;
    assert_eq!((status, &tab["id"]), (201, &json!("contact_info")));
    assert_eq!(patch(&server, "@types/Document/contact_info", json!({"fields": ["author_email"]})).await, 204);
    let (_, schema) = server.get_json("@types/Document").await;
    assert_eq!(fieldset(&schema, "contact_info").unwrap()["fields"], json!(["author_email"]));
    assert!(!fieldset(&schema, "default").unwrap()["fields"].as_array().unwrap().contains(&json!("author_email")));
    let (_, one) = server.get_json("@types/Document/contact_info").await;
    assert_eq!(one["title"], "Contact Info");

    let order = json!({"fieldsets": [{"id": "contact_info", "title": "Kontakt", "fields": ["author_email"]}]});
    assert_eq!(patch(&server, "@types/Document", order).await, 204);
    let (_, schema) = server.get_json("@types/Document").await;
    assert_eq!(fieldset(&schema, "contact_info").unwrap()["title"], "Kontakt");

    assert_eq!(server.admin(Method::DELETE, "@types/Document/contact_info").send().await.unwrap().status(), 204);
    let (_, schema) = server.get_json("@types/Document").await;
    assert!(fieldset(&schema, "contact_info").is_none());
    assert!(fieldset(&schema, "default").unwrap()["fields"].as_array().unwrap().contains(&json!("author_email")));
    let gone = server.admin(Method::DELETE, "@types/Document/contact_info").send().await.unwrap();
    assert_error(gone, 404, "not_found").await;
}

#[tokio::test]
async fn a_removed_field_keeps_its_values_until_the_object_is_saved_and_profile_fields_stay() {
    let server = TestServer::start().await;
    add_field(&server, "Document", json!({"factory": "Text", "title": "Notiz"})).await;
    server.create("", json!({"@type": "Document", "id": "page", "title": "Page", "notiz": "intern"})).await;
    assert_eq!(server.admin(Method::DELETE, "@types/Document/notiz").send().await.unwrap().status(), 204);
    let stored = || async {
        let (fields,): (String,) = sqlx::query_as("SELECT fields FROM content WHERE id = 'page'")
            .fetch_one(server.app.store.pool())
            .await
            .unwrap();
        serde_json::from_str::<Value>(&fields).unwrap()["notiz"].clone()
    };
    assert_eq!(stored().await, "intern", "the value is kept");
    let (_, page) = server.get_json("page").await;
    assert!(page.get("notiz").is_none(), "but no longer served: {page}");
    assert_eq!(patch(&server, "page", json!({"title": "Saved"})).await, 204);
    assert_eq!(stored().await, Value::Null, "saving drops it");

    let title = server.admin(Method::DELETE, "@types/Document/title").send().await.unwrap();
    assert_error(title, 400, "bad_request").await;
    let kind = server.admin(Method::PATCH, "@types/Document/title").json(&json!({"factory": "Integer"})).send();
    assert_error(kind.await.unwrap(), 400, "invalid_parameter").await;
}

#[tokio::test]
async fn changing_a_field_kind_is_refused_while_objects_hold_values_that_would_not_fit() {
    let server = TestServer::start().await;
    add_field(&server, "Document", json!({"factory": "Text line (String)", "title": "Rang"})).await;
    server.create("", json!({"@type": "Document", "id": "eins", "title": "Eins", "rang": "ab"})).await;
    server.create("", json!({"@type": "Document", "id": "zwei", "title": "Zwei", "rang": "zweiter"})).await;
    let shorter = server.admin(Method::PATCH, "@types/Document/rang").json(&json!({"maxLength": 3})).send();
    let body = assert_error(shorter.await.unwrap(), 400, "bad_request").await;
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("/zwei") && !message.contains("/eins"), "names the objects in the way: {message}");
    let to_number = json!({"factory": "Integer"});
    let refused = server.admin(Method::PATCH, "@types/Document/rang").json(&to_number).send().await.unwrap();
    let message = assert_error(refused, 400, "bad_request").await["message"].as_str().unwrap().to_owned();
    assert!(message.contains("/zwei") && message.contains("/eins"), "text is no number: {message}");
    let (_, field) = server.get_json("@types/Document/rang").await;
    assert_eq!(
        (field["factory"].clone(), field.get("maxLength")),
        (json!("Text line (String)"), None),
        "nothing changed"
    );

    assert_eq!(patch(&server, "zwei", json!({"rang": null})).await, 204);
    let refused_still = server.admin(Method::PATCH, "@types/Document/rang").json(&to_number).send().await.unwrap();
    assert_error(refused_still, 400, "bad_request").await;
    assert_eq!(patch(&server, "eins", json!({"rang": null})).await, 204);
    assert_eq!(patch(&server, "@types/Document/rang", to_number).await, 204);
    let (_, field) = server.get_json("@types/Document/rang").await;
    assert_eq!(field["factory"], "Integer");
}

#[tokio::test]
async fn a_type_made_in_the_panel_is_addable_workflowed_searchable_and_deletable_once_empty() {
    let server = TestServer::start().await;
    let (status, made) = post(
        &server,
        "@controlpanels/dexterity-types",
        json!({"title": "Press Release", "description": "Mitteilungen an die Presse"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["data"]["title"], "Press Release");
    assert_eq!(made["data"]["plone.dublincore"], true);
    assert!(made["@id"].as_str().unwrap().ends_with("/@controlpanels/dexterity-types/press_release"));

    let (_, types) = server.get_json("@types").await;
    let entry = types.as_array().unwrap().iter().find(|t| t["id"] == "press_release").cloned();
    assert_eq!(entry.map(|e| e["addable"].clone()), Some(json!(true)), "{types}");
    let (_, schema) = server.get_json("@types/press_release").await;
    assert!(schema["properties"]["title"].is_object() && schema["properties"]["effective"].is_object(), "{schema}");

    assert_eq!(
        patch(&server, "@controlpanels/dexterity-types/press_release", json!({"plone.richtext": true})).await,
        204
    );
    let object = server
        .create(
            "",
            json!({"@type": "press_release", "id": "pm-1", "title": "Neues Rathaus", "text": "<p>Eröffnung</p>"}),
        )
        .await;
    assert_eq!(object["review_state"], "private", "it has the simple publication workflow");
    server.settle().await;
    let (_, found) = server.get_json("@search?SearchableText=Rathaus&portal_type=press_release").await;
    assert_eq!(found["items_total"], 1, "{found}");

    let (_, panel) = server.get_json("@controlpanels/dexterity-types").await;
    let listed = panel["items"].as_array().unwrap().iter().find(|t| t["id"] == "press_release").cloned().unwrap();
    assert_eq!((listed["count"].clone(), listed["meta_type"].clone()), (json!(1), json!("Dexterity FTI")));

    let busy = server.admin(Method::DELETE, "@controlpanels/dexterity-types/press_release").send().await.unwrap();
    assert_error(busy, 409, "conflict").await;
    assert_eq!(server.admin(Method::DELETE, "pm-1").send().await.unwrap().status(), 204);
    assert_eq!(
        server.admin(Method::DELETE, "@controlpanels/dexterity-types/press_release").send().await.unwrap().status(),
        204
    );
    assert_error(server.admin(Method::GET, "@types/press_release").send().await.unwrap(), 404, "not_found").await;

    let profile = server.admin(Method::DELETE, "@controlpanels/dexterity-types/Document").send().await.unwrap();
    assert_error(profile, 400, "bad_request").await;
    let twice = json!({"title": "Page", "id": "Document"});
    assert_error(
        server.admin(Method::POST, "@controlpanels/dexterity-types").json(&twice).send().await.unwrap(),
        409,
        "conflict",
    )
    .await;
}

#[tokio::test]
async fn another_instance_sharing_the_database_serves_an_edit_at_once() {
    let first = TestServer::start().await;
    let url = first.database_url.clone();
    let second = TestServer::start_with(|config| config.database_url = url).await;
    add_field(&first, "Document", json!({"factory": "URL", "title": "Quelle"})).await;
    let mut seen = false;
    for _ in 0..50 {
        let (_, schema) = second.get_json("@types/Document").await;
        if schema["properties"]["quelle"].is_object() {
            seen = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(seen, "the second instance serves the field added through the first");
    let page =
        second.create("", json!({"@type": "Document", "id": "p", "title": "P", "quelle": "https://example.org"})).await;
    assert_eq!(page["quelle"], "https://example.org");
}

#[tokio::test]
async fn editing_types_needs_manage_portal() {
    let server = TestServer::start().await;
    server.user("erika", &["Editor", "Contributor", "Reviewer"], &[]).await;
    let field = json!({"factory": "Text", "title": "Notiz"});
    let attempts = [
        (Method::POST, "@types/Document", field.clone()),
        (Method::PATCH, "@types/Document/title", json!({"title": "Name"})),
        (Method::PUT, "@types/Document", json!({"properties": {}})),
        (Method::DELETE, "@types/Document/title", Value::Null),
        (Method::POST, "@controlpanels/dexterity-types", json!({"title": "Mine"})),
        (Method::PATCH, "@controlpanels/dexterity-types/Document", json!({"title": "Seite"})),
        (Method::GET, "@controlpanels/dexterity-types", Value::Null),
    ];
    for (method, path, body) in attempts {
        let request = server.as_user("erika", method.clone(), path);
        let request = if body.is_null() { request } else { request.json(&body) };
        let status = request.send().await.unwrap().status().as_u16();
        assert!(status == 401 || status == 403, "{method} {path} answered {status}");
    }
    let (_, schema) = server.get_json("@types/Document").await;
    assert!(schema["properties"]["notiz"].is_null() && schema["properties"]["title"]["title"] == "Title");
}

#[tokio::test]
async fn put_replaces_the_schema_as_the_schema_editor_sends_it() {
    let server = TestServer::start().await;
    add_field(&server, "Document", json!({"factory": "Email", "title": "Author email"})).await;
    add_field(&server, "Document", json!({"factory": "Text", "title": "Obsolete"})).await;
    let (_, mut schema) = server.get_json("@types/Document").await;
    let properties = schema["properties"].as_object_mut().unwrap();
    properties.remove("obsolete");
    properties.insert("author_name".into(), json!({"factory": "Text line (String)", "title": "Author name"}));
    properties["author_email"]["title"] = json!("E-Mail");
    schema["fieldsets"] = json!([
        {"id": "default", "title": "Default", "fields": ["title"]},
        {"id": "author", "title": "Author", "fields": ["author_email", "author_name"]},
    ]);
    // As Volto's schema editor sends it: the schema as a JSON text.
    let text = Value::String(schema.to_string());
    let status = server.admin(Method::PUT, "@types/Document").json(&text).send().await.unwrap().status();
    assert_eq!(status, 204);
    let (_, schema) = server.get_json("@types/Document").await;
    assert!(schema["properties"]["obsolete"].is_null(), "left out, removed");
    assert_eq!(schema["properties"]["author_email"]["title"], "E-Mail");
    assert_eq!(schema["properties"]["author_name"]["factory"], "Text line (String)");
    assert_eq!(fieldset(&schema, "author").unwrap()["fields"], json!(["author_email", "author_name"]));
    assert!(schema["properties"]["text"].is_object(), "the profile's fields stay");
}
