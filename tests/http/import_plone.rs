//! `wcs import-plone`: plone.exportimport's own fixtures (real exports of Plone 6, read from the
//! directory in `WCS_PLONE_EXPORTS`, a copy of its `tests/_resources`) and exports the tests
//! write, imported into a running server and read back over HTTP.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use wcs_exportimport::{Options, Report, Stopped, import_plone};

/// plone.exportimport's fixtures, when the suite is given them.
fn fixtures() -> Option<PathBuf> {
    let dir = std::env::var_os("WCS_PLONE_EXPORTS").map(PathBuf::from);
    if dir.is_none() {
        eprintln!("WCS_PLONE_EXPORTS is not set: plone.exportimport's fixtures are not imported");
    }
    dir
}

async fn import(server: &TestServer, dir: &Path, options: &Options) -> Result<Report, Stopped> {
    import_plone(&server.app, dir, options, &|_, _| {}).await
}

/// The fixture's server wrote naive times three hours behind UTC.
fn sao_paulo() -> Options {
    Options { timezone: "America/Sao_Paulo".parse().unwrap(), ..Options::default() }
}

#[tokio::test]
async fn a_plone_export_keeps_uids_places_dates_states_history_roles_and_files() {
    let Some(fixtures) = fixtures() else { return };
    let server = TestServer::start().await;
    let export = fixtures.join("base_import");
    let report = import(&server, &export, &sao_paulo()).await.unwrap();
    assert_eq!((report.objects, report.files, report.already_there), (8, 3, 0), "{report}");
    assert_eq!((report.users, report.default_pages), (2, 1), "{report}");

    let (status, page) = server.get_json("bar/foo").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["UID"], "5d77cd5686184ec49ab077017b1fbc3a");
    assert_eq!(page["review_state"], "published");
    assert_eq!(page["created"], "2024-02-13T18:16:32+00:00");
    assert_eq!(page["modified"], "2024-02-13T20:23:20+00:00");
    assert_eq!(page["effective"], "2024-02-13T20:23:20+00:00", "naive, read in the old server's zone");
    assert_eq!(page["creators"], json!(["admin"]));
    let (_, history) = server.get_json("bar/foo/@workflow").await;
    let states: Vec<&str> =
        history["history"].as_array().unwrap().iter().filter_map(|e| e["review_state"].as_str()).collect();
    assert_eq!(states, ["private", "published"], "{history}");

    // Positions from the metadata, the container's local roles not inherited below /bar.
    let (_, root) = server.get_json("").await;
    let ids: Vec<&str> = root["items"].as_array().unwrap().iter().filter_map(|i| i["@id"].as_str()).collect();
    assert!(ids.iter().any(|id| id.ends_with("/bar")) && ids.iter().any(|id| id.ends_with("/foo")), "{ids:?}");
    let (_, sharing) = server.get_json("bar/@sharing").await;
    assert_eq!(sharing["inherit"], false, "{sharing}");
    let (_, folder) = server.get_json("foo").await;
    assert_eq!(folder["default_page"], "another-page", "{folder}");

    // Files keep their bytes.
    let download = server.admin(Method::GET, "plone.pdf/@@download/file").send().await.unwrap();
    assert_eq!(download.status(), 200);
    let bytes = download.bytes().await.unwrap();
    assert_eq!(
        bytes.as_ref(),
        std::fs::read(export.join("content/3e0dd7c4b2714eafa1d6fc6a1493f953/file/plone.pdf")).unwrap()
    );

    // Users and groups, with their group and their (legacy) password hash kept.
    let (_, user) = read(server.admin(Method::GET, "@users/joao.silva").send().await.unwrap()).await;
    assert_eq!(user["fullname"], "João da Silva", "{user}");
    let groups: Vec<&str> =
        user["groups"]["items"].as_array().unwrap().iter().filter_map(|g| g["id"].as_str()).collect();
    assert!(groups.contains(&"plone_brasil"), "{user}");

    // Comments keep their ids, threads, authors and dates.
    if cfg!(feature = "comments") {
        assert!(report.plugin_files.contains(&("discussions.json".into(), "comments".into(), 7)), "{report}");
        let (_, comments) = server.get_json("bar/foo/@comments").await;
        let items = comments["items"].as_array().unwrap();
        let ids: Vec<&str> = items.iter().filter_map(|c| c["comment_id"].as_str()).collect();
        assert_eq!(ids, ["1707855876188968", "1707855880558256", "1707855883837698", "1707855889398074"], "{comments}");
        assert_eq!(items[3]["in_reply_to"], "1707855883837698");
        assert_eq!(
            (items[0]["author_username"].as_str(), items[0]["creation_date"].as_str()),
            (Some("joao.silva"), Some("2024-02-13T20:24:36+00:00"))
        );
    }

    // Run again, nothing changes: the objects are passed over.
    let again = import(&server, &export, &sao_paulo()).await.unwrap();
    assert_eq!((again.objects, again.already_there, again.users), (0, 8, 0), "{again}");
    if cfg!(feature = "comments") {
        let (_, comments) = server.get_json("bar/foo/@comments").await;
        assert_eq!(comments["items_total"], 4, "{comments}");
    }
    let (_, same) = server.get_json("bar/foo").await;
    assert_eq!(same["modified"], page["modified"]);
}

#[cfg(feature = "multilingual")]
#[tokio::test]
async fn a_multilingual_export_links_its_translations_and_becomes_a_multilingual_site() {
    use crate::support::site_path;
    let Some(fixtures) = fixtures() else { return };
    let server = TestServer::start().await;
    let report = import(&server, &fixtures.join("multilingual_import"), &Options::default()).await.unwrap();
    assert_eq!(report.languages, ["en", "de", "es"], "{report}");
    assert_eq!((report.relations, report.redirects), (3, 2), "{report}");
    assert!(report.plugin_files.contains(&("translations.json".into(), "translation groups".into(), 5)), "{report}");

    let (_, site) = server.get_json("@site").await;
    assert_eq!(site["features"]["multilingual"], true, "{site}");
    assert_eq!(site["plone.default_language"], "en");
    let (_, page) = server.get_json("en/a-folderish?expand=translations").await;
    assert_eq!(page["language"]["token"], "en", "##DEFAULT## is the old site's language");
    let linked: Vec<(String, String)> = page["@components"]["translations"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["language"].as_str().unwrap().to_owned(), site_path(&t["@id"])))
        .collect();
    assert_eq!(linked, [("de".into(), "de/a-folderish".into()), ("es".into(), "es/a-folderish".into())]);
    let (_, assets) = server.get_json("de/assets").await;
    assert_eq!(assets["@type"], "Folder", "a language independent folder is a folder here");
    let (_, page) = server.get_json("en/a-folderish/another-page").await;
    let related: Vec<String> = page["relatedItems"].as_array().unwrap().iter().map(|r| site_path(&r["@id"])).collect();
    assert_eq!(related, ["en/a-folderish/a-page"], "{page}");
    let redirect = server.anonymous(Method::GET, "en-us").send().await.unwrap();
    assert_eq!(redirect.status(), 302);
    assert!(redirect.headers()["location"].to_str().unwrap().ends_with("/Plone/en"));

    let again = import(&server, &fixtures.join("multilingual_import"), &Options::default()).await.unwrap();
    assert_eq!((again.objects, again.already_there), (0, 18), "{again}");
}

#[tokio::test]
async fn a_zip_of_an_export_is_read_as_the_directory_is() {
    use std::io::Write;
    let Some(fixtures) = fixtures() else { return };
    let server = TestServer::start().await;
    let export = fixtures.join("base_import");
    let zipped = tempfile::NamedTempFile::new().unwrap();
    let mut zip = zip::ZipWriter::new(zipped.reopen().unwrap());
    let mut pending = vec![export.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let name = format!("base_import/{}", path.strip_prefix(&export).unwrap().display());
            zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
            zip.write_all(&std::fs::read(&path).unwrap()).unwrap();
        }
    }
    zip.finish().unwrap();
    let report = import(&server, zipped.path(), &sao_paulo()).await.unwrap();
    assert_eq!((report.objects, report.files), (8, 3), "{report}");
    let (status, _) = server.get_json("bar/foo").await;
    assert_eq!(status, 200);
}

/// An export the test writes: `items` are `(uid, @id, @type, extra keys)`.
struct Export {
    dir: tempfile::TempDir,
}

impl Export {
    fn new(items: &[(&str, &str, &str, Value)]) -> Export {
        let dir = tempfile::tempdir().unwrap();
        let content = dir.path().join("content");
        let mut files = vec!["plone_site_root/data.json".to_owned()];
        write(
            &content.join("plone_site_root/data.json"),
            &json!({"@id": "/Plone", "@type": "Plone Site", "UID": "plone_site_root", "title": "Alte Gemeinde"}),
        );
        for (uid, at_id, portal_type, extra) in items {
            let mut body = json!({"@id": at_id, "@type": portal_type, "UID": uid, "title": at_id});
            body.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
            write(&content.join(uid).join("data.json"), &body);
            files.push(format!("{uid}/data.json"));
        }
        write(
            &content.join("__metadata__.json"),
            &json!({"__version__": "1.0.0", "_data_files_": files, "_blob_files_": []}),
        );
        Export { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn put(&self, relative: &str, bytes: &[u8]) {
        let path = self.dir.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

fn write(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec(value).unwrap()).unwrap();
}

const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const C: &str = "cccccccccccccccccccccccccccccccc";

#[tokio::test]
async fn a_broken_export_is_refused_whole_naming_each_file_and_nothing_is_written() {
    let server = TestServer::start().await;
    let file = json!({"file": {"blob_path": format!("{C}/file/missing.pdf"), "filename": "missing.pdf", "size": 10}});
    let export = Export::new(&[
        (A, "/a", "Folder", json!({})),
        (B, "/nowhere/b", "Document", json!({})),
        (C, "/a/c", "File", file),
    ]);
    export.put(&format!("content/{A}/data.json"), b"{ broken");
    let stopped = import(&server, export.path(), &Options::default()).await.unwrap_err();
    assert!(!stopped.after_writing);
    let problems: Vec<String> = stopped.problems.iter().map(ToString::to_string).collect();
    let named = |file: &str, text: &str| problems.iter().any(|p| p.starts_with(file) && p.contains(text));
    assert!(named(&format!("content/{A}/data.json"), "is not what plone.exportimport writes"), "{problems:?}");
    assert!(named(&format!("content/{B}/data.json"), "its container /nowhere is not in the export"), "{problems:?}");
    let (_, root) = server.get_json("").await;
    assert_eq!(root["items_total"], 0, "nothing was written: {root}");

    let twice = Export::new(&[(A, "/a", "Folder", json!({})), (A, "/b", "Folder", json!({}))]);
    let stopped = import(&server, twice.path(), &Options::default()).await.unwrap_err();
    assert!(stopped.problems.iter().any(|p| p.problem.contains("twice")), "{stopped}");

    let missing_blob =
        Export::new(&[(C, "/c", "File", json!({"file": {"blob_path": format!("{C}/file/x.pdf"), "size": 3}}))]);
    let stopped = import(&server, missing_blob.path(), &Options::default()).await.unwrap_err();
    assert_eq!(stopped.problems[0].to_string(), format!("content/{C}/file/x.pdf: is missing"));
    missing_blob.put(&format!("content/{C}/file/x.pdf"), b"four");
    let stopped = import(&server, missing_blob.path(), &Options::default()).await.unwrap_err();
    assert!(stopped.problems[0].problem.contains("holds 4 bytes where"), "{stopped}");

    let outside = Export::new(&[(C, "/c", "File", json!({"file": {"blob_path": "../../etc/passwd", "size": 3}}))]);
    let stopped = import(&server, outside.path(), &Options::default()).await.unwrap_err();
    assert!(stopped.problems[0].problem.contains("outside the export"), "{stopped}");
}

#[tokio::test]
async fn an_interrupted_import_goes_on_where_it_stopped() {
    let server = TestServer::start().await;
    let first_half = Export::new(&[(A, "/a", "Folder", json!({}))]);
    import(&server, first_half.path(), &Options::default()).await.unwrap();
    let whole =
        Export::new(&[(A, "/a", "Folder", json!({})), (B, "/a/b", "Document", json!({"review_state": "published"}))]);
    let report = import(&server, whole.path(), &Options { batch: 1, ..Options::default() }).await.unwrap();
    assert_eq!((report.objects, report.already_there), (1, 1), "{report}");
    let (_, page) = server.get_json("a/b").await;
    assert_eq!((page["UID"].as_str(), page["review_state"].as_str()), (Some(B), Some("published")));

    // A uid this site has elsewhere stops the import there, naming the file.
    let moved = Export::new(&[(A, "/elsewhere", "Folder", json!({}))]);
    let stopped = import(&server, moved.path(), &Options::default()).await.unwrap_err();
    assert!(stopped.after_writing && stopped.problems[0].problem.contains("at /Plone/a already"), "{stopped}");
}

#[tokio::test]
async fn zope_password_hashes_let_their_users_in_once_and_become_argon2() {
    use sha1::{Digest, Sha1};
    let server = TestServer::start().await;
    let export = Export::new(&[]);
    let salt = b"\x07\x06\x05\x04\x03\x02\x01";
    let digest = Sha1::new().chain_update("geheim").chain_update(salt).finalize();
    let hash = format!(
        "{{SSHA}}{}",
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, [&digest[..], salt].concat())
    );
    let principals = json!({"groups": [{"groupid": "kanzlei", "title": "Kanzlei", "roles": ["Editor", "Authenticated"], "principals": []}],
        "members": [{"username": "erika", "password": hash, "email": "erika@gemeinde.example", "fullname": "Erika Muster",
                     "roles": ["Member"], "groups": ["kanzlei"]},
                    {"username": "otto", "password": "{CRYPT}abJnggxhB/yWI", "email": "otto@gemeinde.example", "roles": []}]});
    write(&export.path().join("principals.json"), &principals);
    let report = import(&server, export.path(), &Options::default()).await.unwrap();
    assert_eq!((report.users, report.groups, report.memberships), (2, 1, 1), "{report}");
    assert!(
        report.notes.iter().any(|(what, n)| what.contains("scheme this server cannot check") && n == 1),
        "{report}"
    );

    let login = |password: &str| {
        server.anonymous(Method::POST, "@login").json(&json!({"login": "erika", "password": password})).send()
    };
    assert_eq!(login("falsch").await.unwrap().status(), 401);
    assert_eq!(login("geheim").await.unwrap().status(), 200, "Zope's SSHA hash lets her in");
    let stored = server.app.store.principal("erika").await.unwrap().unwrap().password_hash.unwrap();
    assert!(stored.starts_with("$argon2"), "the legacy hash is replaced at that login: {stored}");
    assert_eq!(login("geheim").await.unwrap().status(), 200, "and the new hash lets her in again");
    let (_, erika) = read(server.admin(Method::GET, "@users/erika").send().await.unwrap()).await;
    let roles = erika["roles"].as_array().unwrap();
    assert!(roles.contains(&json!("Member")) && !roles.contains(&json!("Authenticated")), "{erika}");
}

#[tokio::test]
async fn links_written_as_paths_below_the_old_site_lead_to_the_moved_objects() {
    let server = TestServer::start().await;
    let blocks = json!({
        "t": {"@type": "slate", "value": [{"type": "p", "children": [
            {"type": "link", "data": {"url": "/a/@@download/file"}, "children": [{"text": "Datei"}]},
            {"type": "link", "data": {"url": "/controlpanel"}, "children": [{"text": "Setup"}]}]}]},
        "u": {"@type": "teaser", "href": [{"@id": "/a", "title": "A"}]},
    });
    let export = Export::new(&[
        (A, "/a", "Document", json!({})),
        (B, "/b", "Document", json!({"blocks": blocks, "blocks_layout": {"items": ["t", "u"]}})),
        (C, "/c", "Link", json!({"remoteUrl": "/b#oben"})),
    ]);
    import(&server, export.path(), &Options::default()).await.unwrap();
    // Stored as uid links, so they follow the objects wherever they go.
    let moved = server.admin(Method::PATCH, "a").json(&json!({"id": "datei"})).send().await.unwrap();
    assert_eq!(moved.status(), 204);
    let (_, page) = server.get_json("b").await;
    let slate = &page["blocks"]["t"]["value"][0]["children"];
    assert_eq!(slate[0]["data"]["url"], server.url("datei/@@download/file"), "{page}");
    assert_eq!(slate[1]["data"]["url"], "/controlpanel", "a path to no object stays as written");
    assert_eq!(page["blocks"]["u"]["href"][0]["@id"], server.url("datei"), "{page}");
    let (_, link) = server.get_json("c").await;
    assert_eq!(link["remoteUrl"], format!("{}#oben", server.url("b")), "{link}");
}

#[tokio::test]
async fn a_collection_mapped_to_a_page_becomes_one_with_a_listing_block_of_its_query() {
    let server = TestServer::start().await;
    let query = json!([{"i": "portal_type", "o": "plone.app.querystring.operation.selection.any", "v": ["News Item"]}]);
    let collection = json!({"query": query, "sort_on": "effective", "sort_reversed": true, "limit": 20, "item_count": 5,
                            "customViewFields": ["Title"]});
    let export = Export::new(&[(A, "/aktuelles", "Collection", collection)]);
    let types = export.path().join("types.toml");
    std::fs::write(&types, "[types]\nCollection = \"Document\"\n").unwrap();
    let options = Options { types: Some(types), ..Options::default() };
    let report = import(&server, export.path(), &options).await.unwrap();
    assert!(report.to_string().contains("Collection: its query became a listing block"), "{report}");
    let (_, page) = server.get_json("aktuelles").await;
    assert_eq!(page["@type"], "Document");
    assert_eq!(page["blocks_layout"]["items"], json!(["collection-title", "collection-listing"]), "{page}");
    let listing = &page["blocks"]["collection-listing"];
    assert_eq!(listing["@type"], "listing");
    assert_eq!(
        listing["querystring"],
        json!({"query": query, "sort_on": "effective", "sort_order": "descending", "limit": 20, "b_size": 5})
    );
    // Kept as a collection where the type stays one.
    let kept = Export::new(&[(B, "/sammlung", "Collection", json!({"query": query}))]);
    import(&server, kept.path(), &Options::default()).await.unwrap();
    let (_, collection) = server.get_json("sammlung").await;
    assert_eq!((&collection["@type"], &collection["query"]), (&json!("Collection"), &query), "{collection}");
}

/// A collective.exportimport export (Plone 4 to 6) as its views write it: the content as one
/// list with absolute URLs and files as base64, and its side files.
fn collective_export() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let site = "http://localhost:8080/Plone";
    let history = json!({"simple_publication_workflow": [
        {"action": null, "actor": "admin", "comments": "", "review_state": "private", "time": "2019-03-01T10:00:00+00:00"},
        {"action": "publish", "actor": "admin", "comments": "", "review_state": "published", "time": "2019-03-02T10:00:00+00:00"}]});
    let pdf = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, b"%PDF-1.4 Satzung");
    let blocks = json!({"t": {"@type": "slate", "value": [{"type": "p", "children": [
        {"type": "link", "data": {"url": format!("{site}/amt/satzung.pdf")}, "children": [{"text": "Satzung"}]}]}]}});
    let content = json!([
        {"@id": format!("{site}/amt"), "@type": "Folder", "UID": A, "id": "amt", "title": "Amt",
         "parent": {"@id": site, "@type": "Plone Site", "title": "Gemeinde"}, "review_state": "published",
         "workflow_history": history, "created": "2019-03-01T10:00:00+00:00", "modified": "2019-03-02T10:00:00+00:00",
         "language": {"token": "de", "title": "Deutsch"}, "creators": ["admin"]},
        {"@id": format!("{site}/amt/satzung.pdf"), "@type": "File", "UID": B, "id": "satzung.pdf", "title": "Satzung",
         "parent": {"@id": format!("{site}/amt"), "@type": "Folder", "UID": A},
         "file": {"data": pdf, "encoding": "base64", "filename": "satzung.pdf", "content-type": "application/pdf"}},
        {"@id": format!("{site}/amt/start"), "@type": "Document", "UID": C, "id": "start", "title": "Willkommen",
         "parent": {"@id": format!("{site}/amt"), "@type": "Folder", "UID": A}, "review_state": "private",
         "blocks": blocks, "blocks_layout": {"items": ["t"]}},
        {"unexported_paths": []}
    ]);
    write(&dir.path().join("Plone.json"), &content);
    let members = json!({"groups": [{"groupid": "kanzlei", "title": "Kanzlei", "roles": [], "groups": [], "principals": ["erika"]}],
        "members": [{"username": "erika", "password": "{SSHA}abc", "roles": ["Member"], "groups": ["kanzlei"], "email": "erika@gemeinde.example"}]});
    write(&dir.path().join("export_members.json"), &members);
    write(
        &dir.path().join("export_relations.json"),
        &json!([{"from_uuid": C, "to_uuid": B, "relationship": "relatedItems"}]),
    );
    write(
        &dir.path().join("export_localroles.json"),
        &json!([{"uuid": A, "localroles": {"erika": ["Editor"]}, "block": 1}, {"uuid": "<Portal>", "localroles": {"admin": ["Owner"]}}]),
    );
    write(&dir.path().join("export_ordering.json"), &json!([{"uuid": C, "order": 0}, {"uuid": B, "order": 1}]));
    write(&dir.path().join("export_defaultpages.json"), &json!([{"uuid": A, "default_page": "start"}]));
    write(&dir.path().join("export_redirects.json"), &json!({"/Plone/alt": "/Plone/amt/start"}));
    write(
        &dir.path().join("export_discussion.json"),
        &json!([{"uuid": C, "conversation": {"items_total": 1, "items": [{"comment_id": "1551434400000000", "in_reply_to": null,
            "text": {"data": "Danke", "mime-type": "text/plain"}, "author_username": "erika", "author_name": "Erika",
            "creation_date": "2019-03-01T10:00:00+00:00", "modification_date": "2019-03-01T10:00:00+00:00"}]}}]),
    );
    dir
}

#[tokio::test]
async fn a_collective_exportimport_export_comes_in_as_plone_exportimport_s_does() {
    let server = TestServer::start().await;
    let export = collective_export();
    let report = import(&server, export.path(), &Options::default()).await.unwrap();
    assert_eq!((report.objects, report.files, report.users, report.groups), (3, 1, 1, 1), "{report}");
    assert_eq!((report.default_pages, report.relations, report.redirects), (1, 1, 1), "{report}");

    let (_, folder) = server.get_json("amt").await;
    assert_eq!((folder["UID"].as_str(), folder["review_state"].as_str()), (Some(A), Some("published")), "{folder}");
    assert_eq!(folder["default_page"], "start");
    assert_eq!(folder["language"]["token"], "de", "the vocabulary term's token");
    let (_, sharing) = server.get_json("amt/@sharing").await;
    assert_eq!(sharing["inherit"], false, "{sharing}");
    let items: Vec<&str> =
        folder["items"].as_array().unwrap().iter().filter_map(|i| i["@id"].as_str()?.rsplit('/').next()).collect();
    assert_eq!(items, ["start", "satzung.pdf"], "positions from export_ordering.json");
    let download = server.admin(Method::GET, "amt/satzung.pdf/@@download/file").send().await.unwrap();
    assert_eq!(download.bytes().await.unwrap().as_ref(), b"%PDF-1.4 Satzung");
    let (_, page) = server.get_json("amt/start").await;
    assert_eq!(page["relatedItems"][0]["UID"], B, "{page}");
    let link = &page["blocks"]["t"]["value"][0]["children"][0]["data"]["url"];
    assert_eq!(link, &json!(server.url("amt/satzung.pdf")), "the absolute link of the old site leads to the file");
    let old = server.admin(Method::GET, "alt").send().await.unwrap();
    assert_eq!(old.headers()["location"].to_str().unwrap(), server.url("amt/start"));
    if cfg!(feature = "comments") {
        let (_, comments) = server.get_json("amt/start/@comments").await;
        assert_eq!(comments["items"][0]["text"]["data"], "Danke", "{comments}");
    }

    // One file per item, in a numbered folder, reads the same.
    let numbered = tempfile::tempdir().unwrap();
    let list: Value = serde_json::from_slice(&std::fs::read(export.path().join("Plone.json")).unwrap()).unwrap();
    for (number, item) in list.as_array().unwrap().iter().take(1).enumerate() {
        write(&numbered.path().join(format!("Plone/{}.json", number + 1)), item);
    }
    let other = TestServer::start().await;
    let report = import(&other, numbered.path(), &Options::default()).await.unwrap();
    assert_eq!(report.objects, 1, "{report}");
    assert_eq!(other.get_json("amt").await.1["UID"], A);

    // Files as download URLs cannot come in: the export names which.
    let urls = tempfile::tempdir().unwrap();
    let mut items = list.as_array().unwrap().clone();
    items[1]["file"] =
        json!({"filename": "satzung.pdf", "download": "http://localhost:8080/Plone/amt/satzung.pdf/@@download/file"});
    write(&urls.path().join("Plone.json"), &Value::Array(items));
    let stopped = import(&other, urls.path(), &Options::default()).await.unwrap_err();
    assert!(stopped.to_string().contains("Plone.json: file: files exported as download URLs"), "{stopped}");
}
