//! The easyform plugin over HTTP: forms whose fields are collective.easyform's model (as XML
//! or JSON), `@submit` with validation, stored submissions (`@submissions`, CSV), the mail
//! outbox, the honeypot and the per-client rate limit.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Row;

/// A form as collective.easyform exports it: a fieldset, a multiple choice, an entity.
const PLONE_MODEL: &str = r#"<model xmlns:easyform="http://namespaces.plone.org/supermodel/easyform" xmlns:form="http://namespaces.plone.org/supermodel/form" xmlns="http://namespaces.plone.org/supermodel/schema">
  <schema>
    <field name="name" type="zope.schema.TextLine">
      <title>Name &amp; Vorname</title>
      <max_length>60</max_length>
    </field>
    <field name="replyto" type="zope.schema.TextLine" easyform:validators="isValidEmail">
      <title>E-Mail</title>
    </field>
    <fieldset name="details" label="Details">
      <field name="tage" type="zope.schema.Set">
        <title>Tage</title>
        <required>False</required>
        <value_type type="zope.schema.Choice">
          <values>
            <element>Montag</element>
            <element>Dienstag</element>
          </values>
        </value_type>
      </field>
      <field name="personen" type="zope.schema.Int">
        <title>Personen</title>
        <required>False</required>
        <min>1</min>
        <max>10</max>
      </field>
    </fieldset>
  </schema>
</model>"#;

const ACTIONS_MODEL: &str = r#"<model xmlns="http://namespaces.plone.org/supermodel/schema"><schema><field name="mailer" type="collective.easyform.actions.Mailer"><title>Mailer</title><recipient_email>rathaus@gemeinde.example</recipient_email></field></schema></model>"#;

fn json_form() -> Value {
    json!({"@type": "EasyForm", "id": "kontakt", "title": "Kontakt",
           "recipients": ["info@gemeinde.example"],
           "honeypot_field": "website",
           "fields_model": [
               {"name": "name", "type": "TextLine", "title": "Name", "required": true, "max_length": 40},
               {"name": "mail", "type": "Email", "title": "E-Mail", "required": true},
               {"name": "thema", "type": "Choice", "title": "Thema", "required": true,
                "items": [{"token": "lob", "title": "Lob"}, {"token": "kritik", "title": "Kritik"}]},
               {"name": "nachricht", "type": "Text", "title": "Nachricht"},
               {"name": "rueckruf", "type": "Bool", "title": "Rückruf"},
               {"name": "termin", "type": "Date", "title": "Termin"}]})
}

async fn submissions_of(server: &TestServer, form: &str) -> Value {
    let (status, body) = server.get_json(&format!("{form}/@submissions")).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn a_json_form_shows_its_fields_and_takes_valid_submissions_only() {
    let server = TestServer::start().await;
    let created = server.create("", json_form()).await;
    server.transition("kontakt", "publish").await;
    let (status, form) = read(server.anonymous(Method::GET, "kontakt").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(form["form_action"], format!("{}/@submit", created["@id"].as_str().unwrap()));
    let fields = form["form_fields"].as_array().unwrap();
    let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names[..3], ["form.widgets.name", "form.widgets.mail", "form.widgets.thema"]);
    assert_eq!(
        fields[2],
        json!({"name": "form.widgets.thema", "type": "Choice", "title": "Thema", "description": "", "required": true,
               "items": [{"token": "lob", "title": "Lob"}, {"token": "kritik", "title": "Kritik"}]})
    );
    assert!(fields[1].get("items").is_none(), "items only for vocabulary fields");
    assert!(form["fields_model"].as_str().unwrap().starts_with("<model"), "stored as the model XML");

    // Anonymous, without any CSRF token.
    let bad = json!({"form.widgets.name": "A".repeat(41), "form.widgets.mail": "nicht-mail",
                     "form.widgets.thema": "spam", "form.widgets.termin": "31.12.2026", "form.widgets.x": 1});
    let response = server.anonymous(Method::POST, "kontakt/@submit").json(&bad).send().await.unwrap();
    let error = assert_error(response, 400, "validation_failed").await;
    let fields: Vec<&str> = error["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
    assert_eq!(
        fields,
        ["form.widgets.x", "form.widgets.name", "form.widgets.mail", "form.widgets.thema", "form.widgets.termin"]
    );
    let missing = server.anonymous(Method::POST, "kontakt/@submit").json(&json!({})).send().await.unwrap();
    let error = assert_error(missing, 400, "validation_failed").await;
    assert_eq!(error["errors"].as_array().unwrap().len(), 3, "three required fields: {error}");
    assert_eq!(submissions_of(&server, "kontakt").await["items_total"], 0, "nothing stored");

    let good = json!({"form.widgets.name": "Anna Müller", "form.widgets.mail": "anna@example.org",
                      "form.widgets.thema": "lob", "form.widgets.nachricht": "=1+1 Danke!",
                      "form.widgets.rueckruf": true, "form.widgets.termin": "2026-12-01"});
    let (status, body) =
        read(server.anonymous(Method::POST, "kontakt/@submit").json(&good).send().await.unwrap()).await;
    assert_eq!((status, body), (200, json!({"success": true})));
    let listed = submissions_of(&server, "kontakt").await;
    assert_eq!(listed["items_total"], 1);
    assert_eq!(
        listed["items"][0]["data"],
        json!({"name": "Anna Müller", "mail": "anna@example.org", "thema": "lob", "nachricht": "=1+1 Danke!",
               "rueckruf": true, "termin": "2026-12-01"})
    );
    let outbox = sqlx::query("SELECT recipients, reply_to, subject, body FROM mail_outbox")
        .fetch_all(server.app.store.pool())
        .await
        .unwrap();
    assert_eq!(outbox.len(), 1, "the mail action queued one message");
    let (recipients, reply_to, subject, body): (String, Option<String>, String, String) =
        (outbox[0].get(0), outbox[0].get(1), outbox[0].get(2), outbox[0].get(3));
    assert_eq!((recipients.as_str(), reply_to.as_deref()), ("info@gemeinde.example", Some("anna@example.org")));
    assert_eq!(subject, "Form submission: Kontakt");
    assert!(body.contains("Name: Anna Müller\n") && body.contains("Thema: lob\n"), "{body}");

    let csv = server.admin(Method::GET, "kontakt/@submissions/csv").send().await.unwrap();
    assert_eq!(csv.status(), 200);
    assert!(csv.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let csv = csv.text().await.unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "id,created,Name,E-Mail,Thema,Nachricht,Rückruf,Termin");
    assert!(lines[1].ends_with(",Anna Müller,anna@example.org,lob,'=1+1 Danke!,true,2026-12-01"), "{csv}");

    // The owner and administrators only: anonymous callers and members may not read submissions.
    assert_error(server.anonymous(Method::GET, "kontakt/@submissions").send().await.unwrap(), 401, "unauthorized")
        .await;
    server.user("mitglied", &["Member"], &[]).await;
    let member = server.as_user("mitglied", Method::GET, "kontakt/@submissions").send().await.unwrap();
    assert_error(member, 403, "forbidden").await;
    let (status, _) =
        read(server.as_user("mitglied", Method::POST, "kontakt/@submit").json(&good).send().await.unwrap()).await;
    assert_eq!(status, 200, "members submit too");

    // The honeypot: filled in, the answer is the same, and nothing is kept.
    let robot = json!({"form.widgets.name": "Bot", "form.widgets.mail": "bot@example.org", "form.widgets.thema": "lob",
                       "form.widgets.website": "http://spam.example"});
    let (status, body) =
        read(server.anonymous(Method::POST, "kontakt/@submit").json(&robot).send().await.unwrap()).await;
    assert_eq!((status, body), (200, json!({"success": true})));
    assert_eq!(submissions_of(&server, "kontakt").await["items_total"], 2);
    let not_json = server.anonymous(Method::POST, "kontakt/@submit").body("name=x").send().await.unwrap();
    assert_error(not_json, 415, "unsupported_media_type").await;
    let request = server.anonymous(Method::POST, "kontakt/@submit").header("Content-Type", "application/json");
    assert_error(request.body("name=x").send().await.unwrap(), 400, "invalid_json").await;
    let nul =
        json!({"form.widgets.name": "A\u{0}B", "form.widgets.mail": "a@example.org", "form.widgets.thema": "lob"});
    let response = server.anonymous(Method::POST, "kontakt/@submit").json(&nul).send().await.unwrap();
    assert_error(response, 400, "invalid_json").await;
    assert_eq!(submissions_of(&server, "kontakt").await["items_total"], 2, "nothing stored");
}

#[tokio::test]
async fn a_plone_model_round_trips_with_its_settings() {
    let server = TestServer::start().await;
    let form = json!({"@type": "EasyForm", "id": "anmeldung", "title": "Anmeldung", "fields_model": PLONE_MODEL,
                      "actions_model": ACTIONS_MODEL, "submitLabel": "Anmelden", "thankstitle": "Danke",
                      "thanksdescription": "Wir melden uns."});
    let created = server.create("", form).await;
    assert_eq!(created["fields_model"], PLONE_MODEL, "exported exactly as imported");
    assert_eq!((&created["submitLabel"], &created["thankstitle"]), (&json!("Anmelden"), &json!("Danke")));
    assert_eq!(created["actions_model"], ACTIONS_MODEL);
    let fields = created["form_fields"].as_array().unwrap();
    let summary: Vec<(&str, &str, bool)> = fields
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["type"].as_str().unwrap(), f["required"] == true))
        .collect();
    assert_eq!(
        summary,
        [
            ("form.widgets.name", "TextLine", true),
            ("form.widgets.replyto", "Email", true),
            ("form.widgets.tage", "MultiChoice", false),
            ("form.widgets.personen", "Int", false)
        ]
    );
    assert_eq!(fields[0]["title"], "Name & Vorname");
    assert_eq!(
        fields[2]["items"],
        json!([{"token": "Montag", "title": "Montag"}, {"token": "Dienstag", "title": "Dienstag"}])
    );

    // What a GET gives, a PUT takes back unchanged.
    let (_, current) = server.get_json("anmeldung").await;
    let mut put = current.as_object().unwrap().clone();
    for key in ["@id", "UID", "created", "modified", "form_action", "form_fields"] {
        put.remove(key);
    }
    let response = server.admin(Method::PUT, "anmeldung").json(&Value::Object(put)).send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.text().await.unwrap());
    let (_, after) = server.get_json("anmeldung").await;
    assert_eq!(after["fields_model"], PLONE_MODEL);

    // Submissions follow the imported rules; the mail goes to the Mailer's recipient.
    let too_many = json!({"form.widgets.name": "Ben", "form.widgets.replyto": "ben@example.org",
                          "form.widgets.tage": ["Montag", "Sonntag"], "form.widgets.personen": 11});
    let error = assert_error(
        server.admin(Method::POST, "anmeldung/@submit").json(&too_many).send().await.unwrap(),
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(error["errors"].as_array().unwrap().len(), 2, "{error}");
    let fine = json!({"form.widgets.name": "Ben", "form.widgets.replyto": "ben@example.org",
                      "form.widgets.tage": ["Montag"], "form.widgets.personen": 2});
    let (status, _) = read(server.admin(Method::POST, "anmeldung/@submit").json(&fine).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let to: String =
        sqlx::query("SELECT recipients FROM mail_outbox").fetch_one(server.app.store.pool()).await.unwrap().get(0);
    assert_eq!(to, "rathaus@gemeinde.example");

    // A schema edited as JSON replaces the model.
    let patch = json!({"fields_model": [{"name": "nur", "type": "TextLine", "title": "Nur ein Feld"}]});
    assert_eq!(server.admin(Method::PATCH, "anmeldung").json(&patch).send().await.unwrap().status(), 204);
    let (_, patched) = server.get_json("anmeldung").await;
    assert_eq!(patched["form_fields"].as_array().unwrap().len(), 1);
    assert!(patched["fields_model"].as_str().unwrap().contains("<field name=\"nur\" type=\"zope.schema.TextLine\">"));
}

#[tokio::test]
async fn bad_models_are_refused_and_new_forms_get_easyforms_default_fields() {
    let server = TestServer::start().await;
    for (model, why) in [
        (json!("<model><schema><field name=\"x\""), "not well-formed"),
        (
            json!("<model><schema><field name=\"pw\" type=\"zope.schema.Password\"/></schema></model>"),
            "unsupported type",
        ),
        (json!([{"name": "a", "type": "Choice"}]), "a choice without items"),
        (json!([{"name": "a b", "type": "TextLine"}]), "a bad name"),
        (json!(42), "neither XML nor a list"),
    ] {
        let form = json!({"@type": "EasyForm", "title": "F", "fields_model": model});
        let response = server.admin(Method::POST, "").json(&form).send().await.unwrap();
        let error = assert_error(response, 400, "validation_failed").await;
        assert_eq!(error["errors"][0]["field"], "fields_model", "{why}: {error}");
    }
    let created = server.create("", json!({"@type": "EasyForm", "id": "leer", "title": "Leer"})).await;
    let names: Vec<&str> =
        created["form_fields"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["form.widgets.replyto", "form.widgets.topic", "form.widgets.comments"]);
    let not_a_form = server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    assert!(not_a_form.get("form_fields").is_none());
    let response = server.admin(Method::POST, "seite/@submit").json(&json!({})).send().await.unwrap();
    assert_error(response, 404, "not_found").await;
}

#[tokio::test]
async fn private_forms_take_no_anonymous_submissions_and_floods_get_429() {
    let server = TestServer::start().await;
    server.create("", json_form()).await;
    let good =
        json!({"form.widgets.name": "Anna", "form.widgets.mail": "anna@example.org", "form.widgets.thema": "lob"});
    let private = server.anonymous(Method::POST, "kontakt/@submit").json(&good).send().await.unwrap();
    assert_error(private, 401, "unauthorized").await;
    server.transition("kontakt", "publish").await;

    let limit = json!({"wcs.backend.easyform.submissions_per_minute": 3});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&limit).send().await.unwrap().status(), 204);
    for _ in 0..3 {
        let (status, _) =
            read(server.anonymous(Method::POST, "kontakt/@submit").json(&good).send().await.unwrap()).await;
        assert_eq!(status, 200);
    }
    let flood = server.anonymous(Method::POST, "kontakt/@submit").json(&good).send().await.unwrap();
    let retry: u64 = flood.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_error(flood, 429, "too_many_requests").await;
    assert_eq!(submissions_of(&server, "kontakt").await["items_total"], 3, "the refused one is not stored");
    let (status, _) = server.get_json("kontakt").await;
    assert_eq!(status, 200, "other requests still answer");
    let off = json!({"wcs.backend.easyform.submissions_per_minute": 0});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&off).send().await.unwrap().status(), 204);
    let (status, _) = read(server.anonymous(Method::POST, "kontakt/@submit").json(&good).send().await.unwrap()).await;
    assert_eq!(status, 200, "0 switches the limit off");

    let huge = json!({"form.widgets.name": "x".repeat(300_000)});
    let response = server.anonymous(Method::POST, "kontakt/@submit").json(&huge).send().await.unwrap();
    assert_error(response, 413, "payload_too_large").await;
}

#[tokio::test]
async fn queued_mail_goes_out_over_smtp_once_a_server_is_set() {
    let server = TestServer::start().await;
    server.create("", json_form()).await;
    let good = json!({"form.widgets.name": "Anna", "form.widgets.mail": "anna@example.org", "form.widgets.thema": "lob",
                      "form.widgets.nachricht": "Gute Arbeit!"});
    let (status, _) = read(server.admin(Method::POST, "kontakt/@submit").json(&good).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let unsent = "SELECT COUNT(*) FROM mail_outbox WHERE sent IS NULL";
    let pool = server.app.store.pool().clone();
    let count = |sql: &'static str| {
        let pool = pool.clone();
        async move { sqlx::query(sql).fetch_one(&pool).await.unwrap().get::<i64, _>(0) }
    };
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    assert_eq!(count(unsent).await, 1, "off by default: the mail waits in the outbox");

    let (port, received) = crate::support::smtp_sink().await;
    let settings = json!({"wcs.backend.mail.smtp_host": "127.0.0.1", "wcs.backend.mail.smtp_port": port,
                          "wcs.backend.mail.smtp_security": "none", "wcs.backend.mail.sender": "formular@gemeinde.example"});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&settings).send().await.unwrap().status(), 204);
    let data = tokio::time::timeout(std::time::Duration::from_secs(15), received).await.unwrap().unwrap();
    assert!(data.contains("From: formular@gemeinde.example"), "{data}");
    assert!(data.contains("To: info@gemeinde.example"), "{data}");
    assert!(data.contains("Reply-To: anna@example.org"), "{data}");
    assert!(data.contains("Subject: Form submission: Kontakt"), "{data}");
    assert!(data.contains("Nachricht: Gute Arbeit!"), "{data}");
    for _ in 0..50 {
        if count(unsent).await == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(count(unsent).await, 0, "marked sent");
}
