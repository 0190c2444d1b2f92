//! `@controlpanels`: Site Setup's forms, read and saved through the records they show.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

#[tokio::test]
async fn panels_are_listed_for_managers_only() {
    let server = TestServer::start().await;
    let (status, panels) = server.get_json("@controlpanels").await;
    assert_eq!(status, 200, "{panels}");
    let ids: Vec<&str> =
        panels.as_array().unwrap().iter().map(|p| p["@id"].as_str().unwrap().rsplit('/').next().unwrap()).collect();
    for id in ["site", "language", "date-and-time", "dexterity-types", "security", "usergroup", "mail"] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    // As Plone lists them: by group in Site Setup's order, then by title.
    let place = |id: &str| ids.iter().position(|i| *i == id).unwrap_or(usize::MAX);
    assert!(place("date-and-time") < place("site") && place("site") < place("dexterity-types"), "{ids:?}");
    assert!(place("dexterity-types") < place("usergroup") && place("usergroup") < place("security"), "{ids:?}");
    let date_and_time = panels.as_array().unwrap().iter().find(|p| p["title"] == "Date and Time").unwrap();
    let words = date_and_time["searchable_text"].as_array().unwrap();
    assert_eq!((&words[0], &words[1]), (&json!("Date and Time"), &json!("General")));
    assert!(words.len() > 2, "the fields' labels: {words:?}");
    #[cfg(feature = "es-search")]
    assert!(ids.contains(&"search"));
    assert!(ids.contains(&"mail"));
    #[cfg(feature = "navigation")]
    assert!(ids.contains(&"navigation"));
    assert!(panels[0]["title"].is_string() && panels[0]["group"].is_string());
    let response = server.anonymous(Method::GET, "@controlpanels").send().await.unwrap();
    assert_eq!(response.status(), 401);
    server.user("editor", &["Editor"], &[]).await;
    let response = server.as_user("editor", Method::GET, "@controlpanels/site").send().await.unwrap();
    assert_eq!(response.status(), 403, "editors cannot read the settings");
    assert_error(server.admin(Method::GET, "@controlpanels/nope").send().await.unwrap(), 404, "not_found").await;
}

#[tokio::test]
async fn the_site_panel_reads_and_saves_the_title_and_records() {
    let server = TestServer::start().await;
    let (status, panel) = server.get_json("@controlpanels/site").await;
    assert_eq!(status, 200, "{panel}");
    assert_eq!(panel["@id"], json!(server.url("@controlpanels/site")));
    assert_eq!(panel["schema"]["fieldsets"][0]["fields"], json!(["site_title", "site_logo", "robots_txt"]));
    assert_eq!(panel["schema"]["properties"]["site_logo"]["type"], "string");
    assert_eq!(panel["schema"]["properties"]["robots_txt"]["widget"], "textarea", "several lines");
    assert!(panel["data"]["robots_txt"].as_str().unwrap().contains("User-agent"), "defaults: {panel}");

    let body = json!({"site_title": "Gemeinde Beispiel", "site_logo": "/logo.svg"});
    let response = server.admin(Method::PATCH, "@controlpanels/site").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, panel) = server.get_json("@controlpanels/site").await;
    assert_eq!(
        (&panel["data"]["site_title"], &panel["data"]["site_logo"]),
        (&json!("Gemeinde Beispiel"), &json!("/logo.svg"))
    );
    let (_, site) = server.get_json("").await;
    assert_eq!(site["title"], "Gemeinde Beispiel", "the site root's title");
    let (_, registry) = server.get_json("@registry/plone.site_logo").await;
    assert_eq!(registry, json!("/logo.svg"), "the record behind the field");
}

#[tokio::test]
async fn bad_values_change_nothing() {
    let server = TestServer::start().await;
    for body in [
        json!({"site_logo": 5, "site_title": "Neu"}),
        json!({"site_title": ""}),
        json!({"site_title": "Neu", "no_such_field": 1}),
    ] {
        let response = server.admin(Method::PATCH, "@controlpanels/site").json(&body).send().await.unwrap();
        assert_error(response, 400, "validation_failed").await;
    }
    let (_, site) = server.get_json("").await;
    assert_ne!(site["title"], "Neu", "all or nothing");
    let response = server.admin(Method::PATCH, "@controlpanels").json(&json!({})).send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;
    let (status, _) = read(
        server.anonymous(Method::PATCH, "@controlpanels/site").json(&json!({"site_title": "x"})).send().await.unwrap(),
    )
    .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn the_content_types_panel_lists_the_types() {
    let server = TestServer::start().await;
    let (_, panel) = server.get_json("@controlpanels/dexterity-types").await;
    let page =
        panel["items"].as_array().unwrap().iter().find(|t| t["id"] == "Document").cloned().unwrap_or(Value::Null);
    assert_eq!(
        (&page["title"], &page["meta_type"], &page["count"]),
        (&json!("Page"), &json!("Dexterity FTI"), &json!(0)),
        "{panel}"
    );
    let (_, settings) = server.get_json("@controlpanels/dexterity-types/Document").await;
    assert_eq!(settings["data"]["plone.versioning"], true, "Page has the versioning fields: {settings}");
    assert_eq!(settings["data"]["plone.leadimage"], false, "and no lead image: {settings}");
    let ids: Vec<&str> = panel["items"].as_array().unwrap().iter().filter_map(|t| t["id"].as_str()).collect();
    assert_eq!(ids[..4], ["Plone Site", "Collection", "Document", "Folder"], "Plone's installation order: {ids:?}");
    assert_eq!(panel["items"][0]["count"], 1, "the site root is the one object of its type");
}

#[cfg(feature = "versioning")]
#[tokio::test]
async fn the_versioning_panel_lists_the_versioned_types() {
    let server = TestServer::start().await;
    let (status, panel) = server.get_json("@controlpanels/versioning").await;
    assert_eq!(status, 200, "{panel}");
    let ids: Vec<&str> = panel["items"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"Document") && !ids.contains(&"Folder"), "{ids:?}");
    assert_eq!(ids.contains(&"ContentPage"), cfg!(feature = "site-profile"), "{ids:?}");
    assert_eq!(panel["items"][0]["max_versions"], 10);
}

#[cfg(feature = "navigation")]
#[tokio::test]
async fn plugin_panels_save_their_records() {
    let server = TestServer::start().await;
    let body = json!({"displayed_types": ["Folder", "Document"]});
    let response = server.admin(Method::PATCH, "@controlpanels/navigation").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, record) = server.get_json("@registry/wcs.backend.navigation.displayed_types").await;
    assert_eq!(record, json!(["Folder", "Document"]));
    let response =
        server.admin(Method::PATCH, "@controlpanels/navigation").json(&json!({"displayed_types": "Folder"})).send();
    assert_error(response.await.unwrap(), 400, "validation_failed").await;
}

/// Volto's number fields send what was typed, as text: whole numbers count as numbers.
#[tokio::test]
async fn number_fields_take_the_text_volto_sends() {
    let server = TestServer::start().await;
    let response = server.admin(Method::PATCH, "@controlpanels/mail").json(&json!({"smtp_port": "2525"})).send();
    assert_eq!(response.await.unwrap().status(), 204);
    let (_, record) = server.get_json("@registry/wcs.backend.mail.smtp_port").await;
    assert_eq!(record, json!(2525));
    let response = server.admin(Method::PATCH, "@controlpanels/mail").json(&json!({"smtp_port": "viele"})).send();
    assert_error(response.await.unwrap(), 400, "validation_failed").await;
}

#[tokio::test]
async fn every_field_is_checked_as_its_setting_needs_and_named_when_refused() {
    let server = TestServer::start().await;
    server.user("siteadm", &["Site Administrator"], &[]).await;
    let refused = [
        ("date-and-time", json!({"portal_timezone": "Mars/Olympus"}), "portal_timezone"),
        ("mail", json!({"smtp_port": -1}), "smtp_port"),
        ("mail", json!({"smtp_port": 70000}), "smtp_port"),
        ("mail", json!({"email_from_address": "info@example.org\r\nBcc: victim@example.org"}), "email_from_address"),
        ("mail", json!({"email_from_address": "not an address"}), "email_from_address"),
        ("mail", json!({"smtp_host": "smtp.example.org\r\nRCPT TO:<x@y>"}), "smtp_host"),
        ("mail", json!({"smtp_security": "ssl3"}), "smtp_security"),
        ("site", json!({"site_logo": "javascript:alert(1)"}), "site_logo"),
        ("site", json!({"site_logo": "filenameb64:bG9nbw==;datab64:not base64!"}), "site_logo"),
        ("language", json!({"available_languages": []}), "available_languages"),
    ];
    for (panel, body, field) in refused {
        let response = server.as_user("siteadm", Method::PATCH, &format!("@controlpanels/{panel}")).json(&body).send();
        let error = assert_error(response.await.unwrap(), 400, "validation_failed").await;
        assert_eq!(error["errors"][0]["field"], field, "{body}: {error}");
    }
    let (_, mail) = server.get_json("@controlpanels/mail").await;
    assert_eq!(mail["data"]["smtp_port"], 587, "nothing was stored");
    assert_eq!(mail["data"]["email_from_address"], "noreply@localhost");
    let good = json!({"portal_timezone": "Europe/Berlin"});
    let response = server.as_user("siteadm", Method::PATCH, "@controlpanels/date-and-time").json(&good).send();
    assert_eq!(response.await.unwrap().status(), 204);
}

#[tokio::test]
async fn the_smtp_password_is_written_but_never_read_back() {
    let server = TestServer::start().await;
    server.user("siteadm", &["Site Administrator"], &[]).await;
    let save = json!({"smtp_host": "smtp.example.org", "smtp_pass": "s3cret-pass"});
    let response = server.as_user("siteadm", Method::PATCH, "@controlpanels/mail").json(&save).send();
    assert_eq!(response.await.unwrap().status(), 204);
    for reader in ["siteadm", "admin"] {
        let get = |path: &str| {
            if reader == "admin" { server.admin(Method::GET, path) } else { server.as_user(reader, Method::GET, path) }
        };
        let (_, panel) = read(get("@controlpanels/mail").send().await.unwrap()).await;
        assert_eq!(panel["data"]["smtp_pass"], "", "{reader}");
        assert_eq!(panel["schema"]["properties"]["smtp_pass"]["widget"], "password");
        let (_, record) = read(get("@registry/wcs.backend.mail.smtp_password").send().await.unwrap()).await;
        assert_eq!(record, json!(""), "{reader}");
        let (_, listing) = read(get("@registry?q=wcs.backend.mail").send().await.unwrap()).await;
        assert!(!listing.to_string().contains("s3cret-pass"), "{reader}: {listing}");
    }
    // Saving the form as it was shown keeps the password; the mail sender still has it.
    let (_, panel) = server.get_json("@controlpanels/mail").await;
    let response = server.admin(Method::PATCH, "@controlpanels/mail").json(&panel["data"]).send();
    assert_eq!(response.await.unwrap().status(), 204);
    let stored = server.app.store.record("wcs.backend.mail.smtp_password").await.unwrap();
    assert_eq!(stored.as_deref(), Some("\"s3cret-pass\""));
}
