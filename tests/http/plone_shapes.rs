//! Answers whose shape Volto depends on: `@roles`, groups with their members, a 404's `context`, and a failed `@login`'s
//! `{"error": {type, message}}` envelope (besides the catalogue's keys).

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};

#[tokio::test]
async fn roles_are_listed_in_plone_restapis_shape_and_order() {
    let server = TestServer::start().await;
    let (status, roles) = server.get_json("@roles").await;
    assert_eq!(status, 200, "{roles}");
    let ids: Vec<&str> = roles.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["Contributor", "Editor", "Member", "Reader", "Reviewer", "Site Administrator", "Manager"]);
    assert_eq!(
        roles[0],
        json!({"@id": format!("{}/@roles/Contributor", server.site), "@type": "role", "id": "Contributor", "title": "Contributor"})
    );
}

#[tokio::test]
async fn a_404_names_where_to_go_instead() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let (status, missing) = server.get_json("gibt-es-nicht/auch-nicht").await;
    assert_eq!((status, &missing["type"]), (404, &json!("NotFound")), "{missing}");
    assert_eq!(missing["context"], Value::from(server.site.clone()));
    let (status, unknown) = server.get_json("seite/@gibt-es-nicht").await;
    assert_eq!(status, 404);
    assert_eq!(unknown["context"], Value::from(format!("{}/seite", server.site)), "{unknown}");
}

#[tokio::test]
async fn a_failed_login_answers_in_plone_restapis_envelope() {
    let server = TestServer::start().await;
    let wrong = json!({"login": "admin", "password": "falsch"});
    let (status, refused) = read(server.anonymous(Method::POST, "@login").json(&wrong).send().await.unwrap()).await;
    assert_eq!(status, 401);
    assert_eq!(refused["error"], json!({"type": "Invalid credentials", "message": "Wrong login and/or password."}));
    assert_eq!(refused["code"], "unauthorized", "the catalogue's keys stay: {refused}");
    let (status, missing) =
        read(server.anonymous(Method::POST, "@login").json(&json!({"login": "admin"})).send().await.unwrap()).await;
    assert_eq!((status, &missing["error"]["type"]), (400, &json!("Missing credentials")), "{missing}");
}

/// Plone 6.2's `@components` on a page and on the site root (plone.volto distribution).
#[cfg(feature = "navigation")]
#[tokio::test]
async fn components_carry_every_entry_plone_has() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let plone =
        ["actions", "aliases", "breadcrumbs", "contextnavigation", "navigation", "navroot", "types", "workflow"];
    for path in ["seite", ""] {
        let (_, object) = server.get_json(path).await;
        for name in plone {
            let url = format!("{}/{path}", server.site);
            let expected = format!("{}/@{name}", url.trim_end_matches('/'));
            assert_eq!(object["@components"][name]["@id"], Value::from(expected), "{name} on /{path}");
        }
    }
}

#[tokio::test]
async fn components_carry_workflow_and_translations() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let (_, plain) = server.get_json("seite").await;
    let components = &plain["@components"];
    let mut names = vec!["actions", "workflow", "breadcrumbs", "types"];
    if cfg!(feature = "multilingual") {
        names.push("translations");
    }
    for name in names {
        assert_eq!(
            components[name]["@id"],
            Value::from(format!("{}/seite/@{name}", server.site)),
            "{name}: {components}"
        );
    }
    let (_, expanded) = server.get_json("seite?expand=workflow,translations").await;
    let (_, workflow) = server.get_json("seite/@workflow").await;
    assert_eq!(expanded["@components"]["workflow"], workflow);
    assert_eq!(workflow["state"]["id"], "private");
    assert!(!workflow["transitions"].as_array().unwrap().is_empty(), "{workflow}");
    if cfg!(feature = "multilingual") {
        let (status, translations) = server.get_json("seite/@translations").await;
        assert_eq!((status, &translations["items"]), (200, &json!([])));
        assert_eq!(expanded["@components"]["translations"], translations);
    }
    // The site root has no workflow, and says so in the same shape.
    let (_, root) = server.get_json("@workflow").await;
    assert_eq!((&root["transitions"], &root["history"]), (&json!([]), &json!([])));
}

/// Plone's standard behaviour fields on a page, with Plone's empty values, and a preview image
/// that must be an image.
#[tokio::test]
async fn pages_carry_the_standard_behaviour_fields() {
    let server = TestServer::start().await;
    let page = server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    for (key, empty) in [
        ("language", json!("")),
        ("rights", json!("")),
        ("subjects", json!([])),
        ("relatedItems", json!([])),
        ("changeNote", json!("")),
        ("preview_image_link", Value::Null),
        ("preview_caption_link", Value::Null),
        ("versioning_enabled", json!(true)),
    ] {
        assert_eq!(page[key], empty, "{key}: {page}");
    }
    let image = json!({"@type": "Image", "id": "bild", "title": "Bild",
                       "image": {"data": crate::images::png(8, 8), "encoding": "base64", "filename": "b.png"}});
    let image = server.create("", image).await;
    let body = json!({"preview_image_link": image["UID"], "preview_caption_link": "Foto: Gemeinde", "rights": "CC BY", "language": "de"});
    let response = server.admin(Method::PATCH, "seite").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, page) = server.get_json("seite").await;
    assert_eq!(page["preview_image_link"]["@id"], Value::from(format!("{}/bild", server.site)), "{page}");
    // The language as Plone sends it, the vocabulary's term; the term is taken back as sent.
    let german = json!({"title": "Deutsch", "token": "de"});
    assert_eq!((&page["rights"], &page["language"]), (&json!("CC BY"), &german));
    let response = server.admin(Method::PATCH, "seite").json(&json!({"language": german})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(server.get_json("seite").await.1["language"], german);
    let (_, site) = server.get_json("").await;
    assert_eq!(site["language"], json!({"title": "English", "token": "en"}), "the site's language");
    let response = server.admin(Method::PATCH, "seite").json(&json!({"preview_image_link": page["UID"]})).send();
    let (status, refused) = read(response.await.unwrap()).await;
    assert_eq!((status, &refused["code"]), (400, &json!("validation_failed")), "only images: {refused}");
}

/// `@userschema` offers exactly what `@users` keeps: every property it lists round-trips.
#[tokio::test]
async fn the_user_schema_lists_what_users_keep() {
    let server = TestServer::start().await;
    let (status, schema) = read(server.anonymous(Method::GET, "@userschema").send().await.unwrap()).await;
    assert_eq!(status, 200, "{schema}");
    assert_eq!(schema["required"], json!(["email"]));
    assert_eq!(schema["properties"]["email"]["widget"], "email");
    let fields: Vec<String> =
        schema["fieldsets"][0]["fields"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_owned()).collect();
    server.user("maria", &["Member"], &[]).await;
    // Every text property; the portrait is an upload, kept as tests/http/portraits.rs shows.
    let values: serde_json::Map<String, Value> = fields
        .iter()
        .filter(|f| *f != "portrait")
        .map(|f| {
            (
                f.clone(),
                json!(if f == "email" {
                    "maria@example.org"
                } else if f == "home_page" {
                    "https://example.org"
                } else {
                    "Wert"
                }),
            )
        })
        .collect();
    let response = server.admin(Method::PATCH, "@users/maria").json(&values).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, user) = server.get_json("@users/maria").await;
    for (field, value) in &values {
        assert_eq!(&user[field], value, "{field} is kept: {user}");
    }
}

#[tokio::test]
async fn groups_carry_their_members_and_list_authenticated_among_their_roles() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    let body = json!({"groupname": "redaktion", "title": "Redaktion", "roles": ["Editor"], "users": ["anna"]});
    let (status, created) = read(server.admin(Method::POST, "@groups").json(&body).send().await.unwrap()).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["roles"], json!(["Editor", "Authenticated"]));
    assert_eq!(created["members"]["items"], json!(["anna"]));
    let (_, group) = server.get_json("@groups/redaktion").await;
    assert_eq!((&group["members"]["items"], &group["members"]["items_total"]), (&json!(["anna"]), &json!(1)));
    let (_, listing) = server.get_json("@groups").await;
    let listed = listing.as_array().unwrap().iter().find(|g| g["id"] == "redaktion").cloned().unwrap();
    assert_eq!(listed["members"]["items"], json!(["anna"]), "{listed}");
    // What was listed may be sent back: Authenticated is every member's role anyway.
    let back = json!({"roles": group["roles"].clone()});
    let response = server.admin(Method::PATCH, "@groups/redaktion").json(&back).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, group) = server.get_json("@groups/redaktion").await;
    assert_eq!(group["roles"], json!(["Editor", "Authenticated"]), "stored once, listed once");
    // A user is a member of AuthenticatedUsers; groups are listed by name, as Plone lists them.
    let (_, anna) = server.get_json("@users/anna").await;
    let groups: Vec<&str> =
        anna["groups"]["items"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(groups, vec!["AuthenticatedUsers", "redaktion"]);
}
