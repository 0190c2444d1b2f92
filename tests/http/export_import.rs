//! `wcs export` / `wcs import`: a whole site (content, blobs, users, groups, local roles,
//! versions, form submissions, records, content rules and their assignments) round-trips identically into a new database, also from
//! SQLite into PostgreSQL when the suite has one.

use crate::support::{TestServer, config, database_url, postgres_url, read};
use crate::versioning::create_version;
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use wcs_core::store::{DumpError, Store};

/// A site with something of everything an export must carry.
async fn populate(server: &TestServer) {
    server.create("", json!({"@type": "Folder", "id": "f", "title": "Ordner"})).await;
    server
        .create("f", json!({"@type": "Document", "id": "doc", "title": "Erste Fassung", "text": "<p>Text</p>"}))
        .await;
    let upload = json!({"@type": "File", "id": "file", "title": "Datei", "file": {
        "data": "SGFsbG8gV2VsdA==", "encoding": "base64", "filename": "hallo.txt", "content-type": "text/plain"}});
    server.create("f", upload).await;
    create_version(server, "f/doc", Some("erste")).await;
    let patch = server.admin(Method::PATCH, "f/doc").json(&json!({"title": "Zweite Fassung"})).send().await.unwrap();
    assert_eq!(patch.status(), 204);
    create_version(server, "f/doc", Some("zweite")).await;

    let group = server.admin(Method::POST, "@groups").json(&json!({"groupname": "staff", "title": "Staff"}));
    assert_eq!(group.send().await.unwrap().status(), 201);
    server.user("anna", &["Member"], &["staff"]).await;
    server.share("f", "anna", &["Editor"]).await;

    let form = json!({"@type": "EasyForm", "id": "kontakt", "title": "Kontakt", "recipients": ["info@gemeinde.example"],
                      "fields_model": [{"name": "name", "type": "TextLine", "title": "Name", "required": true}]});
    server.create("", form).await;
    server.transition("kontakt", "publish").await;
    let submit =
        server.anonymous(Method::POST, "kontakt/@submit").json(&json!({"form.widgets.name": "Bürgerin"})).send();
    let (status, body) = read(submit.await.unwrap()).await;
    assert!((200..300).contains(&status), "{status} {body}");

    let panel = server.admin(Method::PATCH, "@controlpanels/mail").json(&json!({"smtp_port": "2525"})).send();
    assert_eq!(panel.await.unwrap().status(), 204);

    let field = json!({"factory": "Email", "title": "Author email"});
    assert_eq!(server.admin(Method::POST, "@types/Document").json(&field).send().await.unwrap().status(), 201);

    if cfg!(feature = "contentrules") {
        let rule = json!({"title": "Neu in Ordner", "event": "Object added to this container"});
        let response = server.admin(Method::POST, "@controlpanels/content-rules").json(&rule).send().await.unwrap();
        assert_eq!(response.status(), 201);
        let action =
            json!({"type": "plone.actions.Logger", "targetLogger": "wcs", "loggingLevel": 20, "message": "&c"});
        let response = server.admin(Method::POST, "@controlpanels/content-rules/rule-1/action").json(&action).send();
        assert_eq!(response.await.unwrap().status(), 201);
        assert_eq!(server.admin(Method::POST, "f/@content-rules/rule-1").send().await.unwrap().status(), 200);
    }
}

/// Every file of an export but the manifest's timestamp, by name.
fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for sub in ["tables", "blobs"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let entry = entry.unwrap();
            files
                .insert(format!("{sub}/{}", entry.file_name().to_string_lossy()), std::fs::read(entry.path()).unwrap());
        }
    }
    let mut manifest: Value = serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    manifest.as_object_mut().unwrap().remove("exported");
    files.insert("manifest.json".into(), manifest.to_string().into_bytes());
    files
}

/// Imports `export` into the database at `url` (its schema made as the server makes it, and
/// nothing created in it), then exports that again into `again`.
async fn import_and_export_again(url: &str, export: &Path, again: &Path) -> Store {
    let store = wcs_core::app::App::open_schema(&config(url.to_owned())).await.expect("schema");
    let imported = store.import_from(export, "Plone").await.expect("import");
    assert!(imported.rows > 0 && imported.tables > 10, "{imported:?}");
    store.export_to(again, "Plone").await.expect("export of the import");
    store
}

fn assert_identical(first: &Path, second: &Path) {
    let (first, second) = (files_of(first), files_of(second));
    assert_eq!(first.keys().collect::<Vec<_>>(), second.keys().collect::<Vec<_>>(), "the same files");
    for (name, bytes) in &first {
        assert!(
            bytes == &second[name],
            "{name} differs:\n{}\n---\n{}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&second[name])
        );
    }
}

#[tokio::test]
async fn a_site_round_trips_identically_and_works_after_the_import() {
    let server = TestServer::start().await;
    populate(&server).await;
    let dirs = tempfile::tempdir().unwrap();
    let (export, again) = (dirs.path().join("export"), dirs.path().join("again"));
    let summary = server.app.store.export_to(&export, "Plone").await.unwrap();
    assert_eq!(summary.blobs, 1, "the file's bytes, once: {summary:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&export).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "the export holds password hashes and secrets: its owner's only");
    }
    let tables = files_of(&export);
    for table in [
        "content",
        "blob",
        "principal",
        "membership",
        "local_role",
        "version",
        "easyform_submission",
        "record",
        "content_type_edit",
    ] {
        let rows = &tables[&format!("tables/{table}.jsonl")];
        assert!(!rows.is_empty(), "table {table} was exported empty");
    }

    let target_dir = tempfile::tempdir().unwrap();
    let url = database_url(&target_dir).await;
    let store = import_and_export_again(&url, &export, &again).await;
    store.close().await;
    assert_identical(&export, &again);

    // The imported site serves what the exported one did.
    let copy = TestServer::start_with(|config| config.database_url = url).await;
    let (_, doc) = copy.get_json("f/doc").await;
    assert_eq!(doc["title"], "Zweite Fassung");
    let (_, versions) = copy.get_json("f/doc/@versions").await;
    assert_eq!(versions["items"].as_array().map(Vec::len), Some(2), "{versions}");
    let download = copy.admin(Method::GET, "f/file/@@download/file").send().await.unwrap();
    assert_eq!(download.bytes().await.unwrap().as_ref(), b"Hallo Welt");
    let (status, _) =
        read(copy.as_user("anna", Method::PATCH, "f/doc").json(&json!({"title": "Von Anna"})).send().await.unwrap())
            .await;
    assert_eq!(status, 204, "the account, its password and its local role on f came along");
    let (_, submissions) = copy.get_json("kontakt/@submissions").await;
    assert_eq!(submissions["items_total"], 1, "{submissions}");
    let (_, port) = copy.get_json("@registry/wcs.backend.mail.smtp_port").await;
    assert_eq!(port, json!(2525));
    let (status, field) = copy.get_json("@types/Document/author_email").await;
    assert_eq!((status, &field["factory"]), (200, &json!("Email")), "the type edit came along: {field}");
    let created = copy.create("f", json!({"@type": "Document", "id": "neu", "title": "Nach dem Import"})).await;
    assert_eq!(created["title"], "Nach dem Import", "new rows get fresh ids after the imported ones");
}

#[tokio::test]
async fn a_sqlite_site_moves_to_postgresql() {
    let Some(_) = postgres_url() else { return };
    let sqlite_dir = tempfile::tempdir().unwrap();
    let sqlite_url = format!("sqlite://{}?mode=rwc", sqlite_dir.path().join("wcs.db").display());
    let server = TestServer::start_with(|config| config.database_url = sqlite_url).await;
    populate(&server).await;
    let dirs = tempfile::tempdir().unwrap();
    let (export, again) = (dirs.path().join("export"), dirs.path().join("again"));
    server.app.store.export_to(&export, "Plone").await.unwrap();
    let target_dir = tempfile::tempdir().unwrap();
    let postgres = database_url(&target_dir).await;
    import_and_export_again(&postgres, &export, &again).await.close().await;
    assert_identical(&export, &again);
    let copy = TestServer::start_with(|config| config.database_url = postgres).await;
    assert_eq!(copy.get_json("f/doc").await.1["title"], "Zweite Fassung");
    let submit =
        copy.anonymous(Method::POST, "kontakt/@submit").json(&json!({"form.widgets.name": "Nach dem Umzug"})).send();
    assert!(submit.await.unwrap().status().is_success(), "serial ids continue after the imported rows");
}

#[tokio::test]
async fn imports_refuse_what_they_cannot_take_and_change_nothing() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "D"})).await;
    let dirs = tempfile::tempdir().unwrap();
    let export = dirs.path().join("export");
    server.app.store.export_to(&export, "Plone").await.unwrap();
    let refused = server.app.store.export_to(&export, "Plone").await;
    assert!(matches!(refused, Err(DumpError::Refused(ref m)) if m.contains("not empty")), "{refused:?}");

    // Into the database it came from: it already holds a site.
    let into_itself = server.app.store.import_from(&export, "Plone").await;
    assert!(
        matches!(into_itself, Err(DumpError::Refused(ref m)) if m.contains("already holds data")),
        "{into_itself:?}"
    );

    let target_dir = tempfile::tempdir().unwrap();
    let url = database_url(&target_dir).await;
    let store = wcs_core::app::App::open_schema(&config(url)).await.unwrap();
    let other_site = store.import_from(&export, "Anders").await;
    assert!(matches!(other_site, Err(DumpError::Refused(ref m)) if m.contains("--site-id Plone")), "{other_site:?}");

    // A damaged blob or a truncated table is refused, and nothing of the import stays.
    let content = export.join("tables/content.jsonl");
    let rows = std::fs::read_to_string(&content).unwrap();
    std::fs::write(&content, rows.lines().next().unwrap().to_owned() + "\n").unwrap();
    let truncated = store.import_from(&export, "Plone").await;
    assert!(matches!(truncated, Err(DumpError::Refused(ref m)) if m.contains("the manifest says")), "{truncated:?}");
    std::fs::write(&content, rows).unwrap();
    std::fs::write(export.join("tables/record.jsonl"), "{\"name\": 5, \"value\": \"x\"}\n").unwrap();
    let malformed = store.import_from(&export, "Plone").await;
    assert!(matches!(malformed, Err(DumpError::Refused(ref m)) if m.contains("record.jsonl line 1")), "{malformed:?}");
    // `allowed` comes before both damaged tables, so its rows were written before the refusal.
    let empty = sqlx::query("SELECT COUNT(*) FROM allowed").fetch_one(store.pool()).await.unwrap();
    assert_eq!(sqlx::Row::get::<i64, _>(&empty, 0), 0, "a failed import leaves nothing behind");
}

/// A fresh export of a site with a document and a file, and an empty database to import into.
async fn export_and_target() -> (TestServer, tempfile::TempDir, std::path::PathBuf, tempfile::TempDir, Store) {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "d", "title": "D"})).await;
    let file =
        json!({"@type": "File", "id": "f", "file": {"data": "aGVsbG8=", "encoding": "base64", "filename": "a.txt"}});
    server.create("", file).await;
    let dirs = tempfile::tempdir().unwrap();
    let export = dirs.path().join("export");
    server.app.store.export_to(&export, "Plone").await.unwrap();
    let target_dir = tempfile::tempdir().unwrap();
    let store = wcs_core::app::App::open_schema(&config(database_url(&target_dir).await)).await.unwrap();
    (server, dirs, export, target_dir, store)
}

async fn is_empty(store: &Store) -> bool {
    let mut empty = true;
    for table in ["content", "principal", "record", "blob", "allowed"] {
        let count = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(store.pool())
            .await
            .unwrap();
        empty &= sqlx::Row::get::<i64, _>(&count, 0) == 0;
    }
    empty
}

#[tokio::test]
async fn an_import_follows_no_symbolic_link() {
    let (_server, _dirs, export, _target, store) = export_and_target().await;
    let blobs: Vec<_> = std::fs::read_dir(export.join("blobs")).unwrap().map(|e| e.unwrap().path()).collect();
    let blob = blobs.first().expect("the file's blob").clone();
    let secret = export.parent().unwrap().join("outside.txt");
    std::fs::write(&secret, b"hello").unwrap();
    // The link points at a file with the very bytes the manifest expects: only the link refuses it.
    std::fs::remove_file(&blob).unwrap();
    std::os::unix::fs::symlink(&secret, &blob).unwrap();
    let refused = store.import_from(&export, "Plone").await;
    assert!(matches!(refused, Err(DumpError::Refused(ref m)) if m.contains("symbolic links")), "{refused:?}");
    assert!(is_empty(&store).await, "nothing of it stays");
    std::fs::remove_file(&blob).unwrap();
    std::fs::write(&blob, b"hello").unwrap();
    // A linked table file or directory is refused the same way.
    let tables = export.join("tables");
    let moved = export.parent().unwrap().join("tables-elsewhere");
    std::fs::rename(&tables, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &tables).unwrap();
    let refused = store.import_from(&export, "Plone").await;
    assert!(matches!(refused, Err(DumpError::Refused(ref m)) if m.contains("symbolic links")), "{refused:?}");
    std::fs::remove_file(&tables).unwrap();
    std::fs::rename(&moved, &tables).unwrap();
    assert!(store.import_from(&export, "Plone").await.is_ok(), "the mended export imports");
}

#[tokio::test]
async fn rows_the_server_could_not_read_are_refused_before_anything_is_committed() {
    let (_server, _dirs, export, _target, store) = export_and_target().await;
    let mangle = |table: &str, change: &dyn Fn(&mut Value)| {
        let path = export.join(format!("tables/{table}.jsonl"));
        let original = std::fs::read_to_string(&path).unwrap();
        let changed: Vec<String> = original
            .lines()
            .map(|line| {
                let mut row: Value = serde_json::from_str(line).unwrap();
                change(&mut row);
                row.to_string()
            })
            .collect();
        std::fs::write(&path, changed.join("\n") + "\n").unwrap();
        (path, original)
    };
    let fields_not_an_object = |row: &mut Value| {
        if row["id"] == "d" {
            row["fields"] = json!("[\"not\", \"an object\"]");
        }
    };
    let secret_not_hex = |row: &mut Value| {
        if row["name"] == "wcs.secret.jwt" {
            row["value"] = json!("not-hex-at-all");
        }
    };
    for (table, change, expected) in [
        ("content", &fields_not_an_object as &dyn Fn(&mut Value), "column fields"),
        ("record", &secret_not_hex as &dyn Fn(&mut Value), "column value"),
    ] {
        let (path, original) = mangle(table, change);
        let refused = store.import_from(&export, "Plone").await;
        assert!(
            matches!(refused, Err(DumpError::Refused(ref m)) if m.contains(&format!("{table}.jsonl")) && m.contains(expected)),
            "{refused:?}"
        );
        assert!(is_empty(&store).await, "the database is untouched");
        std::fs::write(&path, original).unwrap();
    }
    assert!(store.import_from(&export, "Plone").await.is_ok(), "a second try with a mended export is taken");
}
