//! `wcs export-plone`: the site written in plone.exportimport's format. plone.exportimport's
//! own fixtures (read from `WCS_PLONE_EXPORTS`) are imported, the site exported, that export
//! imported into a second, new site and exported again: the two exports are the same bytes.

use crate::images::png;
use crate::support::{TestServer, assert_error, read, uid};
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use wcs_exportimport::{Options, export_plone, import_plone};

fn fixtures() -> Option<PathBuf> {
    let dir = std::env::var_os("WCS_PLONE_EXPORTS").map(PathBuf::from);
    if dir.is_none() {
        eprintln!("WCS_PLONE_EXPORTS is not set: plone.exportimport's fixtures are not exported again");
    }
    dir
}

/// The fixture's server wrote naive times three hours behind UTC.
fn sao_paulo() -> Options {
    Options { timezone: "America/Sao_Paulo".parse().unwrap(), ..Options::default() }
}

/// Every file below `dir`, by its path relative to `dir`.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.insert(path.strip_prefix(dir).unwrap().display().to_string(), std::fs::read(&path).unwrap());
            }
        }
    }
    found
}

fn json_file(dir: &Path, relative: &str) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join(relative)).unwrap()).unwrap()
}

/// Imports `fixture`, exports, imports that into a new site, exports again; returns the
/// first export and checks that the second is the same bytes.
async fn round_trip(fixture: &Path) -> (tempfile::TempDir, TestServer) {
    let first_site = TestServer::start().await;
    import_plone(&first_site.app, fixture, &sao_paulo(), &|_, _| {}).await.unwrap();
    let first = tempfile::tempdir().unwrap();
    let summary = export_plone(&first_site.app, first.path(), &|_, _| {}).await.unwrap();
    assert!(summary.notes.is_empty(), "{summary}");

    let second_site = TestServer::start().await;
    let report = import_plone(&second_site.app, first.path(), &Options::default(), &|_, _| {}).await.unwrap();
    assert_eq!(report.objects + 1, summary.objects, "{report}");
    let second = tempfile::tempdir().unwrap();
    export_plone(&second_site.app, second.path(), &|_, _| {}).await.unwrap();
    assert_same_files(first.path(), second.path());
    (first, first_site)
}

/// The two directories hold the same files with the same bytes.
fn assert_same_files(one: &Path, two: &Path) {
    let (one, two) = (files(one), files(two));
    assert_eq!(one.keys().collect::<Vec<_>>(), two.keys().collect::<Vec<_>>());
    for (name, bytes) in &one {
        assert!(
            *bytes == two[name],
            "{name} differs:\n{}\n---\n{}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&two[name])
        );
    }
}

#[tokio::test]
async fn a_moved_plone_site_exports_as_it_came_and_comes_back_the_same() {
    let Some(fixtures) = fixtures() else { return };
    let fixture = fixtures.join("base_import");
    let (export, _site) = round_trip(&fixture).await;
    let dir = export.path();

    // The object keeps its uid, place, dates, state and history.
    let page = json_file(dir, "content/5d77cd5686184ec49ab077017b1fbc3a/data.json");
    assert_eq!(page["@id"], "/bar/foo", "{page}");
    assert_eq!(page["UID"], "5d77cd5686184ec49ab077017b1fbc3a");
    assert_eq!(page["review_state"], "published");
    assert_eq!(page["created"], "2024-02-13T18:16:32+00:00");
    assert_eq!(page["effective"], "2024-02-13T20:23:20+00:00");
    assert_eq!(page["parent"]["@id"], "/bar", "{page}");
    let states: Vec<&str> = page["workflow_history"]["simple_publication_workflow"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["review_state"].as_str())
        .collect();
    assert_eq!(states, ["private", "published"], "{page}");

    // Positions, local roles with their blocking and default pages, as the fixture had them.
    let metadata = json_file(dir, "content/__metadata__.json");
    let original = json_file(&fixture, "content/__metadata__.json");
    assert_eq!(metadata["ordering"], original["ordering"], "{metadata}");
    assert_eq!(metadata["default_page"], original["default_page"], "{metadata}");
    let roles = |metadata: &Value| {
        let entry = &metadata["local_roles"]["70844f7bec1843b8ab2796c972c9ebfe"];
        let mut roles: Vec<String> =
            entry["local_roles"]["Site Administrators"].as_array().unwrap().iter().map(|r| r.to_string()).collect();
        roles.sort();
        (entry["block"].clone(), roles)
    };
    assert_eq!(roles(&metadata), roles(&original), "{metadata}");
    assert_eq!(metadata["local_permissions"], json!({}));

    // Files come out with their bytes, where `blob_path` says.
    let file = json_file(dir, "content/3e0dd7c4b2714eafa1d6fc6a1493f953/data.json");
    assert_eq!(file["file"]["blob_path"], "3e0dd7c4b2714eafa1d6fc6a1493f953/file/plone.pdf", "{file}");
    assert_eq!(file["file"]["size"], 7903);
    let pdf = "content/3e0dd7c4b2714eafa1d6fc6a1493f953/file/plone.pdf";
    assert_eq!(std::fs::read(dir.join(pdf)).unwrap(), std::fs::read(fixture.join(pdf)).unwrap());
    assert!(
        metadata["_blob_files_"]
            .as_array()
            .unwrap()
            .contains(&json!("3e0dd7c4b2714eafa1d6fc6a1493f953/file/plone.pdf"))
    );

    // Users keep the hash Zope gave them; the server's own admin stays behind.
    let principals = json_file(dir, "principals.json");
    let original = json_file(&fixture, "principals.json");
    let user = |file: &Value, name: &str| {
        file["members"].as_array().unwrap().iter().find(|m| m["username"] == name).cloned().unwrap_or_default()
    };
    assert_eq!(user(&principals, "joao.silva")["password"], user(&original, "joao.silva")["password"]);
    assert!(user(&principals, "joao.silva")["groups"].as_array().unwrap().contains(&json!("plone_brasil")));
    assert_eq!(user(&principals, "admin"), Value::Null, "{principals}");

    if cfg!(feature = "comments") {
        let discussions = json_file(dir, "discussions.json");
        let items = discussions["5d77cd5686184ec49ab077017b1fbc3a"]["items"].as_array().unwrap();
        let original = json_file(&fixture, "discussions.json");
        let ids = |items: &[Value]| items.iter().map(|c| c["comment_id"].clone()).collect::<Vec<_>>();
        assert_eq!(ids(items), ids(original["5d77cd5686184ec49ab077017b1fbc3a"]["items"].as_array().unwrap()));
    }
}

/// Language root folders are the multilingual plugin's.
#[cfg(feature = "multilingual")]
#[tokio::test]
async fn a_multilingual_site_exports_its_translation_groups() {
    let Some(fixtures) = fixtures() else { return };
    let fixture = fixtures.join("multilingual_import");
    let (export, _site) = round_trip(&fixture).await;
    let groups = |dir: &Path| {
        let mut groups: Vec<String> = json_file(dir, "translations.json")
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let mut members: Vec<&str> =
                    g["translations"].as_object().unwrap().values().filter_map(Value::as_str).collect();
                members.push(g["canonical"].as_str().unwrap());
                members.sort_unstable();
                members.join(" ")
            })
            .collect();
        groups.sort();
        groups
    };
    assert_eq!(groups(export.path()), groups(&fixture));
}

#[tokio::test]
async fn an_export_goes_only_into_a_new_or_empty_directory() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let refused = export_plone(&server.app, dir.path(), &|_, _| {}).await.unwrap_err();
    assert!(refused.problem.contains("is not empty"), "{refused}");
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(), "mine");
}

/// A site an editor built: an image, rich text linking a page, a related item, a free
/// relation, a renamed page (a redirect), a local role and a user. Exported and brought into
/// a new site, each is there again, and that site exports to the same bytes.
#[tokio::test]
async fn a_site_built_here_moves_to_a_new_site_with_its_links_files_relations_and_redirects() {
    let site = TestServer::start().await;
    site.create("", json!({"@type": "Folder", "id": "amt", "title": "Amt"})).await;
    let page = site.create("amt", json!({"@type": "Document", "id": "old-name", "title": "Öffnungszeiten"})).await;
    let image = json!({"data": png(30, 20), "filename": "rathaus.png", "content-type": "image/png"});
    site.create("amt", json!({"@type": "Image", "id": "rathaus", "title": "Rathaus", "image": image})).await;
    let text = format!(r#"<p>Siehe <a href="{}">Zeiten</a></p>"#, page["@id"].as_str().unwrap());
    let news = json!({"@type": "News Item", "id": "news", "title": "Neu", "text": {"data": text, "content-type": "text/html"},
                      "relatedItems": [uid(&page)]});
    site.create("", news).await;
    let renamed = site.admin(Method::PATCH, "amt/old-name").json(&json!({"id": "zeiten"})).send().await.unwrap();
    assert_eq!(renamed.status(), 204);
    let free = json!({"items": [{"source": "/amt", "target": "/news", "relation": "comprisesComponentPart"}]});
    assert_eq!(site.admin(Method::POST, "@relations").json(&free).send().await.unwrap().status(), 204);
    site.user("erika", &["Member"], &[]).await;
    site.share("amt", "erika", &["Editor"]).await;
    let checked_out = site.admin(Method::POST, "amt/zeiten/@workingcopy").send().await.unwrap();
    assert_eq!(checked_out.status(), 201);
    let copy = crate::support::site_path(&read(checked_out).await.1["@id"]);

    let first = tempfile::tempdir().unwrap();
    let summary = export_plone(&site.app, first.path(), &|_, _| {}).await.unwrap();
    assert_eq!((summary.objects, summary.files, summary.relations, summary.redirects), (6, 1, 2, 1), "{summary}");
    let news_data = json_file(first.path(), &format!("content/{}/data.json", uid(&site.get_json("news").await.1)));
    let stored_link = format!("resolveuid/{}", uid(&page));
    assert!(news_data["text"]["data"].as_str().unwrap().contains(&stored_link), "{news_data}");
    let redirects = json_file(first.path(), "redirects.json");
    assert_eq!(redirects, json!({"/Plone/amt/old-name": "/Plone/amt/zeiten"}));

    let moved = TestServer::start().await;
    let report = import_plone(&moved.app, first.path(), &Options::default(), &|_, _| {}).await.unwrap();
    assert_eq!((report.objects, report.files, report.relations, report.redirects), (5, 1, 2, 1), "{report}");
    let (_, news) = moved.get_json("news").await;
    let link = format!(r#"href="{}""#, moved.url("amt/zeiten"));
    assert!(news["text"]["data"].as_str().unwrap().contains(&link), "{news}");
    assert_eq!(news["relatedItems"][0]["title"], "Öffnungszeiten", "{news}");
    let (_, free) = moved.get_json("@relations?source=/Plone/amt&relation=comprisesComponentPart").await;
    assert_eq!(free["relations"]["comprisesComponentPart"]["items_total"], 1, "{free}");
    let old = moved.admin(Method::GET, "amt/old-name").send().await.unwrap();
    assert_eq!(old.status(), 302, "the old name leads to the page");
    assert_eq!(old.headers()["location"].to_str().unwrap(), moved.url("amt/zeiten"));
    let download = moved.admin(Method::GET, "amt/rathaus/@@download/image").send().await.unwrap();
    let original = site.admin(Method::GET, "amt/rathaus/@@download/image").send().await.unwrap();
    assert_eq!(download.bytes().await.unwrap(), original.bytes().await.unwrap());
    let (_, sharing) = moved.get_json("amt/@sharing").await;
    let erika = sharing["entries"].as_array().unwrap().iter().find(|e| e["id"] == "erika").cloned().unwrap_or_default();
    assert_eq!(erika["roles"]["Editor"], true, "{sharing}");

    let (_, staging) = moved.get_json("amt/zeiten/@workingcopy").await;
    assert_eq!(staging["working_copy"]["@id"], moved.url(&copy).as_str(), "the working copy is still checked out");

    let second = tempfile::tempdir().unwrap();
    export_plone(&moved.app, second.path(), &|_, _| {}).await.unwrap();
    assert_same_files(first.path(), second.path());
}

/// A multipart form with `bytes` as its field `file`, as a browser sends an upload.
fn upload(bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "wcs-test-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"export.zip\"\r\n\
         Content-Type: application/zip\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[tokio::test]
async fn managers_move_a_site_over_the_web_with_export_and_import() {
    let site = TestServer::start().await;
    site.create("", json!({"@type": "Folder", "id": "amt", "title": "Amt"})).await;
    site.create("amt", json!({"@type": "Document", "id": "hallo", "title": "Hallo"})).await;
    site.user("verwalterin", &["Site Administrator"], &[]).await;
    assert_eq!(site.anonymous(Method::POST, "@export").send().await.unwrap().status(), 401);
    let refused = site.as_user("verwalterin", Method::POST, "@export").send().await.unwrap();
    assert_eq!(refused.status(), 403, "an export holds every password hash: Managers only");

    let exported = site.admin(Method::POST, "@export").send().await.unwrap();
    assert_eq!(exported.status(), 200);
    assert_eq!(exported.headers()["content-type"], "application/zip");
    assert!(exported.headers()["content-disposition"].to_str().unwrap().contains("Plone-export.zip"));
    let zip = exported.bytes().await.unwrap();

    let moved = TestServer::start().await;
    moved.user("verwalterin", &["Site Administrator"], &[]).await;
    let (content_type, body) = upload(&zip);
    let post = |user: &str| {
        moved.as_user(user, Method::POST, "@import").header("content-type", &content_type).body(body.clone()).send()
    };
    assert_eq!(post("verwalterin").await.unwrap().status(), 403, "an import may make users of any role");
    let (status, answer) = read(
        moved
            .admin(Method::POST, "@import")
            .header("content-type", &content_type)
            .body(body.clone())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((status, &answer["status"]), (200, &json!("success")), "{answer}");
    assert_eq!(answer["report"][0], "2 objects with 0 files", "{answer}");
    let (status, page) = moved.get_json("amt/hallo").await;
    assert_eq!((status, &page["title"]), (200, &json!("Hallo")), "{page}");

    // Not a ZIP, or not a form: refused, saying why; nothing is written.
    let (content_type, body) = upload(b"not a zip");
    let response = moved.admin(Method::POST, "@import").header("content-type", content_type).body(body).send();
    let error = assert_error(response.await.unwrap(), 400, "bad_request").await;
    assert!(error["message"].as_str().unwrap().contains("is not a ZIP archive"), "{error}");
    let response = moved.admin(Method::POST, "@import").json(&json!({})).send().await.unwrap();
    assert_eq!(response.status(), 415, "the export comes as a form's file");
}

/// A value as compared between an export and a GET: URLs of the site become paths below it,
/// times become instants (naive ones in the old server's zone), a vocabulary term
/// `{token, title}` its token, `##DEFAULT##` the old site's language, a file its name, type,
/// size and dimensions (where its bytes are is the export's or the server's own), and an
/// unset text (`null`) the empty text, which is what a Plone object created without one has
/// (plone.restapi's examples answer `""`).
fn normalised(value: &Value, site_url: &str) -> Value {
    match value {
        Value::Null => json!(""),
        Value::String(text) if text == "##DEFAULT##" => json!("en"),
        Value::String(text) => {
            if let Ok(time) = chrono::DateTime::parse_from_rfc3339(text) {
                return json!(time.with_timezone(&chrono::Utc).to_rfc3339());
            }
            if let Ok(naive) = chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S") {
                let zone: chrono_tz::Tz = "America/Sao_Paulo".parse().unwrap();
                let local = naive.and_local_timezone(zone).single().unwrap();
                return json!(local.with_timezone(&chrono::Utc).to_rfc3339());
            }
            json!(text.replace(site_url, ""))
        }
        Value::Object(map) if map.contains_key("token") && map.contains_key("title") => map["token"].clone(),
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| !["blob_path", "download", "scales"].contains(&key.as_str()))
                .map(|(k, v)| (k.clone(), normalised(v, site_url)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| normalised(v, site_url)).collect()),
        other => other.clone(),
    }
}

/// Keys of plone.exportimport's data files that are not the object's own values as a GET
/// shows them: its place and what the importer reads elsewhere (history, versions,
/// conversation), plone.restapi's answers about the moment of the export (the lock, the
/// working copy, the parent's summary), and `is_folderish`, which is the old site's choice of
/// types (plone.volto's folderish News Item; here News Item is plone.app.contenttypes' as
/// plone.restapi's examples show it, and an export placing objects inside one is refused).
const NOT_COMPARED: [&str; 12] = [
    "is_folderish",
    "@id",
    "parent",
    "workflow_history",
    "exportimport.constrains",
    "exportimport.conversation",
    "exportimport.versions",
    "lock",
    "working_copy",
    "working_copy_of",
    "items",
    "items_total",
];

#[tokio::test]
async fn each_object_of_a_plone_export_answers_with_the_fields_and_values_it_was_exported_with() {
    let Some(fixtures) = fixtures() else { return };
    // Language root folders are the multilingual plugin's.
    let names: &[&str] =
        if cfg!(feature = "multilingual") { &["base_import", "multilingual_import"] } else { &["base_import"] };
    for name in names {
        let differences = compare_with_export(&fixtures.join(name)).await;
        assert!(differences.is_empty(), "{name}:\n{}", differences.join("\n"));
    }
}

/// Imports `fixture` into a new site and lists where its GETs differ from the export.
async fn compare_with_export(fixture: &Path) -> Vec<String> {
    let site = TestServer::start().await;
    import_plone(&site.app, fixture, &sao_paulo(), &|_, _| {}).await.unwrap();
    let metadata = json_file(fixture, "content/__metadata__.json");
    let site_url = site.url("");
    let site_url = site_url.trim_end_matches('/');
    let mut differences = Vec::new();
    for file in metadata["_data_files_"].as_array().unwrap().iter().filter_map(Value::as_str) {
        if file.starts_with("plone_site_root") {
            continue;
        }
        let exported = json_file(fixture, &format!("content/{file}"));
        let path = exported["@id"].as_str().unwrap().trim_start_matches('/');
        let (status, answer) = site.get_json(path).await;
        assert_eq!(status, 200, "{path}: {answer}");
        // The standard type mapping makes language independent folders folders.
        let mapped = exported["@type"] == "LIF";
        for (key, value) in exported.as_object().unwrap() {
            if NOT_COMPARED.contains(&key.as_str()) || (mapped && key == "type_title") {
                continue;
            }
            // Discussion is the comments plugin's: without it nothing takes comments.
            if key == "allow_discussion" && !cfg!(feature = "comments") {
                continue;
            }
            let expected = if mapped && key == "@type" { json!("Folder") } else { normalised(value, "") };
            let got = normalised(answer.get(key).unwrap_or(&Value::Null), site_url);
            if expected != got {
                differences.push(format!("{path} {key}: exported {expected}, answered {got}"));
            }
        }
    }
    differences
}
