//! Integrators add and extend content types from a directory of TOML profiles.

use crate::support::{TestServer, config};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn extra_types_load_and_existing_types_can_be_extended() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("meeting.toml"),
        r#"
id = "Meeting"
title = "Meeting"
workflow = ["one_state_workflow"]

[[fields]]
name = "title"
kind = "TextLine"
required = true

[[fields]]
name = "start"
kind = "Datetime"
required = true

[[fields]]
name = "audience"
kind = "Choice"
vocabulary = ["public", "staff"]
default = "public"
"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("document-extra.toml"),
        "id = \"Document\"\ntitle = \"Page\"\nextend = true\n\n[[fields]]\nname = \"teaser\"\nkind = \"Text\"\n",
    )
    .unwrap();
    let types_dir = dir.path().to_owned();
    let server = TestServer::start_with(|c| c.types_dir = Some(types_dir)).await;
    let meeting =
        server.create("", json!({"@type": "Meeting", "title": "Fest", "start": "2027-07-12T18:00:00+02:00"})).await;
    assert_eq!(meeting["start"], "2027-07-12T16:00:00+00:00");
    assert_eq!(meeting["audience"], "public");
    assert_eq!(meeting["review_state"], "published");
    let response = server
        .admin(Method::POST, "")
        .json(&json!({"@type": "Meeting", "title": "x", "start": "2027-01-01", "audience": "aliens"}))
        .send()
        .await
        .unwrap();
    crate::support::assert_error(response, 400, "validation_failed").await;
    let doc = server.create("", json!({"@type": "Document", "title": "T", "teaser": "Kurz"})).await;
    assert_eq!(doc["teaser"], "Kurz");
}

#[tokio::test]
async fn invalid_profiles_fail_start_up_with_a_clear_message() {
    for (file, text, expected) in [
        ("a.toml", "id = \"X\"\ntitle = \"X\"\nfolderish = \"yes\"\n", "a.toml"),
        ("b.toml", "id = \"Document\"\ntitle = \"Again\"\n", "already defined"),
        ("c.toml", "id = \"Y\"\ntitle = \"Y\"\nworkflow = [\"nope\"]\n", "unknown workflow 'nope'"),
        ("d.toml", "id = \"Z\"\ntitle = \"Z\"\n[[fields]]\nname = \"c\"\nkind = \"Choice\"\n", "needs a vocabulary"),
        ("e.toml", "id = \"W\"\ntitle = \"W\"\nallowed_types = [\"Ghost\"]\n", "unknown type 'Ghost'"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(file), text).unwrap();
        let mut cfg = config(format!("sqlite://{}?mode=rwc", dir.path().join("db").display()));
        cfg.types_dir = Some(dir.path().to_owned());
        let err = wcs::open_app(cfg).await.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains(expected), "{file}: {err}");
    }
}
