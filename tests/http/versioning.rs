//! Versioning: snapshots, the ten-version limit (also under concurrency), `@versions`,
//! `@history`, restore, permissions, CSRF for every authentication method, browser views
//! and their translations.

use crate::support::{TestServer, assert_error, read, uid};
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};

/// How a test authenticates.
#[derive(Clone)]
pub enum Auth {
    Basic(String, String),
    Bearer(String),
    Cookie(String),
}

impl Auth {
    pub fn admin() -> Auth {
        Auth::Basic("admin".into(), crate::support::ADMIN_PASSWORD.into())
    }

    pub fn user(id: &str) -> Auth {
        Auth::Basic(id.into(), format!("secret-{id}"))
    }

    fn apply(&self, request: RequestBuilder) -> RequestBuilder {
        match self {
            Auth::Basic(user, password) => request.basic_auth(user, Some(password)),
            Auth::Bearer(jwt) => request.bearer_auth(jwt),
            Auth::Cookie(jwt) => request.header("Cookie", format!("auth_token={jwt}")),
        }
    }
}

pub fn api(server: &TestServer, auth: &Auth, method: Method, path: &str) -> RequestBuilder {
    auth.apply(server.anonymous(method, path))
}

pub async fn csrf_token(server: &TestServer, auth: &Auth) -> String {
    let response = api(server, auth, Method::GET, "@@authenticator/token").send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.text().await.unwrap()
}

async fn jwt(server: &TestServer, login: &str, password: &str) -> String {
    let body = json!({"login": login, "password": password});
    let (status, token) = read(server.anonymous(Method::POST, "@login").json(&body).send().await.unwrap()).await;
    assert_eq!(status, 200);
    token["token"].as_str().unwrap().to_owned()
}

/// Creates a version as admin; returns the version item.
pub async fn create_version(server: &TestServer, path: &str, comment: Option<&str>) -> Value {
    let admin = Auth::admin();
    let token = csrf_token(server, &admin).await;
    let request = api(server, &admin, Method::POST, &format!("{path}/@versions")).header("X-CSRF-TOKEN", token);
    let request = match comment {
        Some(comment) => request.json(&json!({"comment": comment})),
        None => request,
    };
    let (status, item) = read(request.send().await.unwrap()).await;
    assert_eq!(status, 201, "{item}");
    item
}

pub async fn versions(server: &TestServer, path: &str) -> Value {
    let (status, list) = server.get_json(&format!("{path}/@versions")).await;
    assert_eq!(status, 200, "{list}");
    list
}

fn layout_uids(page: &Value) -> Vec<String> {
    let mut uids = Vec::new();
    for row in page["simplelayout"]["default"].as_array().unwrap() {
        for column in row["cols"].as_array().unwrap() {
            for block in column["blocks"].as_array().unwrap() {
                uids.push(block["uid"].as_str().unwrap().to_owned());
            }
        }
    }
    uids
}

/// A page with a text block linking to a file listing block that holds one file.
async fn page_with_blocks(server: &TestServer) -> (Value, Value, Value) {
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Original"})).await;
    let listing = server.create("p", json!({"@type": "FileListingBlock", "id": "files", "title": "Dateien"})).await;
    let file = json!({"@type": "File", "id": "bericht", "title": "Bericht",
                      "file": {"data": "aGVsbG8gd29ybGQ=", "encoding": "base64", "filename": "bericht.txt"}});
    server.create("p/files", file).await;
    let text = format!("<p>Alter Text <a href=\"{}\">zu den Dateien</a></p>", server.url("p/files"));
    let text_block =
        server.create("p", json!({"@type": "TextBlock", "id": "text", "title": "Text", "text": text})).await;
    (server.get_json("p").await.1, text_block, listing)
}

#[tokio::test]
async fn a_version_freezes_the_page_and_restore_brings_it_back() {
    let server = TestServer::start().await;
    let (page, text_block, listing) = page_with_blocks(&server).await;
    let item = create_version(&server, "p", Some("Erste Fassung")).await;
    assert_eq!(item["@id"], format!("{}/@versions/1", server.url("p")).as_str());
    assert_eq!(item["id"], "1");
    assert_eq!(item["title"], "Original");
    assert_eq!(item["comment"], "Erste Fassung");
    assert_eq!(item["creator"], json!({"id": "admin", "fullname": "admin"}), "no full name: the id");
    assert_eq!((item["can_restore"].as_bool(), item["can_delete"].as_bool()), (Some(true), Some(true)));
    assert!(item["created"].as_str().unwrap().ends_with("+00:00"));
    let (status, fetched) = server.get_json("p/@versions/1").await;
    assert_eq!((status, &fetched), (200, &item));

    // Change everything: title, text, delete the listing block (with its file), add a block.
    let patch = json!({"title": "Neu"});
    assert_eq!(server.admin(Method::PATCH, "p").json(&patch).send().await.unwrap().status(), 204);
    let patch = json!({"text": "<p>Neuer Text</p>"});
    assert_eq!(server.admin(Method::PATCH, "p/text").json(&patch).send().await.unwrap().status(), 204);
    assert_eq!(server.admin(Method::DELETE, "p/files").send().await.unwrap().status(), 204);
    let added = server.create("p", json!({"@type": "TextBlock", "id": "added", "title": "Später"})).await;

    // A version is not content: search, listings and navigation never show it.
    server.settle().await;
    let (_, found) = server.get_json("@search?SearchableText=Original").await;
    assert_eq!(found["items_total"], 0, "{found}");
    let (_, root) = server.get_json("").await;
    assert_eq!(root["items_total"], 1, "only the page is listed: {root}");

    let admin = Auth::admin();
    let token = csrf_token(&server, &admin).await;
    let restore =
        || api(&server, &admin, Method::POST, "p/@versions/1/restore").header("X-CSRF-TOKEN", token.clone()).send();
    let (status, restored) = read(restore().await.unwrap()).await;
    assert_eq!(status, 200, "{restored}");
    assert_eq!(restored["title"], "Original");
    assert_eq!(restored["UID"], page["UID"], "the live object keeps its identity");
    let uids = layout_uids(&restored);
    assert_eq!(uids.len(), 2, "the layout holds the frozen blocks only: {uids:?}");
    assert!(uids.contains(&uid(&text_block)), "a living block is updated in place");
    assert!(!uids.contains(&uid(&added)), "a block added since is gone");
    assert!(!uids.contains(&uid(&listing)), "a deleted block comes back as a copy");
    let copy_uid = uids.iter().find(|u| **u != uid(&text_block)).unwrap().clone();
    let blocks = &restored["slblocks"];
    assert!(blocks[uid(&text_block)]["text"]["data"].as_str().unwrap().contains("Alter Text"));
    let copy = &blocks[&copy_uid];
    assert_eq!(copy["title"], "Dateien");
    let link = blocks[uid(&text_block)]["text"]["data"].as_str().unwrap().to_owned();
    let copy_url = copy["@id"].as_str().unwrap();
    assert!(link.contains(copy_url), "the link points at the re-created block: {link}");
    let file = &copy["items"][0];
    assert_eq!(file["title"], "Bericht");
    let download = file["file"]["download"].as_str().unwrap();
    let bytes = server.raw(Method::GET, download).basic_auth("admin", Some("secret")).send().await.unwrap();
    assert_eq!(bytes.bytes().await.unwrap().as_ref(), b"hello world", "the frozen file is back");

    // Restoring again updates the copies in place instead of duplicating them.
    let (status, again) = read(restore().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(layout_uids(&again), uids);
    let (_, listing_now) = server.get_json("p?include_items=false").await;
    assert_eq!(listing_now["slblocks"].as_object().unwrap().len(), 2);

    // The review history records the restore; the version stays; the catalog follows.
    let (_, workflow) = server.get_json("p/@workflow").await;
    let actions: Vec<&str> =
        workflow["history"].as_array().unwrap().iter().filter_map(|h| h["action"].as_str()).collect();
    assert_eq!(actions.iter().filter(|a| **a == "Restored from Version").count(), 2, "{workflow}");
    assert_eq!(versions(&server, "p").await["items_total"], 1);
    server.settle().await;
    let (_, found) = server.get_json("@search?SearchableText=Original").await;
    assert_eq!(found["items_total"], 1, "restored content is searchable: {found}");
}

#[tokio::test]
async fn ten_versions_are_kept_per_object_and_only_that_objects_oldest_goes() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "a", "title": "A"})).await;
    server.create("", json!({"@type": "ContentPage", "id": "b", "title": "B"})).await;
    create_version(&server, "b", None).await;
    for n in 1..=11 {
        let item = create_version(&server, "a", Some(&format!("v{n}"))).await;
        assert_eq!(item["id"], n.to_string());
        assert_eq!(item["comment"], format!("v{n}"));
    }
    let list = versions(&server, "a").await;
    assert_eq!(list["items_total"], 10);
    assert_eq!(list["@id"], format!("{}/@versions", server.url("a")).as_str());
    assert_eq!(list["can_create"], true);
    let ids: Vec<&str> = list["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec!["11", "10", "9", "8", "7", "6", "5", "4", "3", "2"], "newest first, the oldest dropped");
    assert_error(server.admin(Method::GET, "a/@versions/1").send().await.unwrap(), 404, "not_found").await;
    assert_error(server.admin(Method::GET, "a/@versions/abc").send().await.unwrap(), 404, "not_found").await;
    assert_eq!(versions(&server, "b").await["items_total"], 1, "another object's versions are untouched");
    let (_, item) = server.get_json("b/@versions/1").await;
    assert_eq!(item["comment"], "", "no comment is an empty string");

    // Deleting answers with the updated list; a deleted id stays unknown and is not reused.
    let admin = Auth::admin();
    let token = csrf_token(&server, &admin).await;
    let delete = api(&server, &admin, Method::DELETE, "a/@versions/5").header("X-CSRF-TOKEN", &token);
    let (status, list) = read(delete.send().await.unwrap()).await;
    assert_eq!((status, list["items_total"].as_u64()), (200, Some(9)));
    let again = api(&server, &admin, Method::DELETE, "a/@versions/5").header("X-CSRF-TOKEN", &token);
    assert_error(again.send().await.unwrap(), 404, "not_found").await;
    assert_eq!(create_version(&server, "a", None).await["id"], "12");

    // Bad comments are 400 with a field error.
    let bad =
        api(&server, &admin, Method::POST, "a/@versions").header("X-CSRF-TOKEN", &token).json(&json!({"comment": 5}));
    let body = assert_error(bad.send().await.unwrap(), 400, "validation_failed").await;
    assert_eq!(body["errors"][0]["field"], "comment");
    let bad = api(&server, &admin, Method::POST, "a/@versions")
        .header("X-CSRF-TOKEN", &token)
        .header("Content-Type", "application/json")
        .body("{oops");
    assert_error(bad.send().await.unwrap(), 400, "invalid_json").await;

    // Deleting the object removes its versions for good.
    let a_uid = uid(&server.get_json("a").await.1);
    assert_eq!(server.admin(Method::DELETE, "a").send().await.unwrap().status(), 204);
    let count = |sql: &'static str| {
        let store = &server.app.store;
        let a_uid = a_uid.clone();
        async move {
            let row = sqlx::query(sql).bind(a_uid).fetch_one(store.pool()).await.unwrap();
            sqlx::Row::try_get::<i64, _>(&row, 0).unwrap()
        }
    };
    assert_eq!(count("SELECT COUNT(*) FROM version WHERE object_uid = $1").await, 0);
    assert_eq!(count("SELECT COUNT(*) FROM version_counter WHERE object_uid = $1").await, 0);
}

#[tokio::test]
async fn thirty_parallel_creates_leave_exactly_ten() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "P"})).await;
    server.create("p", json!({"@type": "TextBlock", "id": "t", "title": "T", "text": "<p>x</p>"})).await;
    let admin = Auth::admin();
    let token = csrf_token(&server, &admin).await;
    let requests = (0..30).map(|n| {
        api(&server, &admin, Method::POST, "p/@versions")
            .header("X-CSRF-TOKEN", &token)
            .json(&json!({"comment": format!("parallel {n}")}))
            .send()
    });
    let responses = futures_join_all(requests).await;
    for response in responses {
        assert_eq!(response.unwrap().status(), 201);
    }
    let list = versions(&server, "p").await;
    assert_eq!(list["items_total"], 10);
    let mut ids: Vec<i64> =
        list["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap().parse().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, (21..=30).collect::<Vec<i64>>(), "the ten newest of thirty");
}

/// Runs futures concurrently (what `futures::join_all` does) without another dependency.
async fn futures_join_all<F: std::future::Future + Send + 'static>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
where
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::with_capacity(handles.len());
    for handle in handles {
        out.push(handle.await.unwrap());
    }
    out
}

#[tokio::test]
async fn versioning_follows_the_behaviour_and_shows_in_components() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "doc", "title": "Doc"})).await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "P"})).await;
    assert_error(server.admin(Method::GET, "doc/@versions").send().await.unwrap(), 404, "not_found").await;
    let (_, doc) = server.get_json("doc").await;
    assert!(doc["@components"].get("versions").is_none(), "no versioning, no component");
    let (_, page) = server.get_json("p").await;
    assert_eq!(page["@components"]["versions"], json!({"@id": format!("{}/@versions", server.url("p"))}));
    create_version(&server, "p", Some("eins")).await;
    let (_, expanded) = server.get_json("p?expand=versions").await;
    assert_eq!(expanded["@components"]["versions"]["items_total"], 1);
    assert_eq!(expanded["@components"]["versions"]["items"][0]["comment"], "eins");

    // A caller who may see the page but not its versions keeps only the @id.
    server.transition("p", "publish").await;
    let (status, public) = read(server.anonymous(Method::GET, "p?expand=versions").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(public["@components"]["versions"], json!({"@id": format!("{}/@versions", server.url("p"))}));
}

#[tokio::test]
async fn existing_content_of_a_type_gains_versioning_with_the_behaviour() {
    let dir = tempfile::tempdir().unwrap();
    let profile = "id = \"Folder\"\ntitle = \"Folder\"\nextend = true\nbehaviours = [\"versioning\"]\n";
    std::fs::write(dir.path().join("folder.toml"), profile).unwrap();
    let types_dir = dir.path().to_path_buf();
    let server = TestServer::start_with(|c| c.types_dir = Some(types_dir)).await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    create_version(&server, "f", None).await;
    assert_eq!(versions(&server, "f").await["items_total"], 1);
}

#[tokio::test]
async fn the_two_permissions_decide_who_may_do_what() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "private", "title": "Private"})).await;
    server.create("", json!({"@type": "ContentPage", "id": "public", "title": "Public"})).await;
    server.transition("public", "publish").await;
    for path in ["private", "public"] {
        create_version(&server, path, None).await;
    }
    for (user, role) in [("ed", "Editor"), ("rd", "Reader"), ("rv", "Reviewer"), ("co", "Contributor"), ("mb", "")] {
        let roles: Vec<&str> = [role].into_iter().filter(|r| !r.is_empty()).collect();
        server.user(user, &roles, &[]).await;
    }
    // (user, path, GET list, POST create, DELETE)
    let matrix = [
        ("ed", "private", 200, 201, 200),
        ("rd", "private", 200, 401, 401),
        ("rd", "public", 200, 401, 401),
        ("rv", "public", 200, 401, 401),
        ("rv", "private", 404, 401, 401),
        ("co", "private", 401, 401, 401),
        ("mb", "public", 401, 401, 401),
    ];
    for (user, path, get, post, delete) in matrix {
        let auth = Auth::user(user);
        let token = csrf_token(&server, &auth).await;
        let status = api(&server, &auth, Method::GET, &format!("{path}/@versions")).send().await.unwrap().status();
        assert_eq!(status, get, "{user} GET {path}/@versions");
        let post_status = api(&server, &auth, Method::POST, &format!("{path}/@versions"))
            .header("X-CSRF-TOKEN", &token)
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(post_status, post, "{user} POST {path}/@versions");
        let newest = versions(&server, path).await["items"][0]["id"].as_str().unwrap().to_owned();
        let delete_status = api(&server, &auth, Method::DELETE, &format!("{path}/@versions/{newest}"))
            .header("X-CSRF-TOKEN", &token)
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(delete_status, delete, "{user} DELETE {path}/@versions/{newest}");
    }
    let (_, list) = read(api(&server, &Auth::user("rd"), Method::GET, "public/@versions").send().await.unwrap()).await;
    assert_eq!(list["can_create"], false);
    assert_eq!(list["items"][0]["can_restore"], false);
    assert_eq!(list["items"][0]["can_delete"], false);
    let (_, item) =
        read(api(&server, &Auth::user("rv"), Method::GET, "public/@versions/1").send().await.unwrap()).await;
    assert_eq!(item["id"], "1");
    assert_error(
        api(&server, &Auth::user("rv"), Method::GET, "private/@versions/1").send().await.unwrap(),
        404,
        "not_found",
    )
    .await;
    // Anonymous callers get 401, whatever the operation.
    let response = server.anonymous(Method::GET, "public/@versions").send().await.unwrap();
    assert_eq!(assert_error(response, 401, "unauthorized").await["type"], "Unauthorized", "log in");
    assert_error(server.anonymous(Method::POST, "public/@versions").send().await.unwrap(), 401, "unauthorized").await;
    assert_error(
        server.anonymous(Method::POST, "public/@versions/1/restore").send().await.unwrap(),
        401,
        "unauthorized",
    )
    .await;
    // An editor restores with the token; a reader may not.
    let editor = Auth::user("ed");
    let token = csrf_token(&server, &editor).await;
    let response = api(&server, &editor, Method::POST, "public/@versions/1/restore").header("X-CSRF-TOKEN", &token);
    assert_eq!(response.send().await.unwrap().status(), 200);
    let reader = Auth::user("rd");
    let token = csrf_token(&server, &reader).await;
    let response = api(&server, &reader, Method::POST, "public/@versions/1/restore").header("X-CSRF-TOKEN", &token);
    let refusal = assert_error(response.send().await.unwrap(), 401, "not_allowed").await;
    assert_eq!(refusal["type"], "Forbidden", "not allowed, as opposed to not logged in");
    let response = api(&server, &reader, Method::POST, "public/@versions/1/restore");
    assert_error(response.send().await.unwrap(), 401, "not_allowed").await;
}

#[tokio::test]
async fn writes_need_the_callers_csrf_token_for_every_authentication_method() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "P"})).await;
    server.user("anna", &["Editor"], &[]).await;
    let annas_token = csrf_token(&server, &Auth::user("anna")).await;
    let jwt = jwt(&server, "admin", crate::support::ADMIN_PASSWORD).await;
    for auth in [Auth::admin(), Auth::Bearer(jwt.clone()), Auth::Cookie(jwt)] {
        let post = || api(&server, &auth, Method::POST, "p/@versions");
        assert_error(post().send().await.unwrap(), 403, "forbidden").await;
        assert_error(post().header("X-CSRF-TOKEN", "0123abcd").send().await.unwrap(), 403, "forbidden").await;
        assert_error(post().header("X-CSRF-TOKEN", &annas_token).send().await.unwrap(), 403, "forbidden").await;
        let token = csrf_token(&server, &auth).await;
        let (status, item) = read(post().header("X-CSRF-TOKEN", &token).send().await.unwrap()).await;
        assert_eq!(status, 201);
        let id = item["id"].as_str().unwrap();
        let restore = || api(&server, &auth, Method::POST, &format!("p/@versions/{id}/restore"));
        assert_error(restore().send().await.unwrap(), 403, "forbidden").await;
        assert_eq!(restore().header("X-CSRF-TOKEN", &token).send().await.unwrap().status(), 200);
        let delete = || api(&server, &auth, Method::DELETE, &format!("p/@versions/{id}"));
        assert_error(delete().send().await.unwrap(), 403, "forbidden").await;
        assert_error(delete().header("X-CSRF-TOKEN", &annas_token).send().await.unwrap(), 403, "forbidden").await;
        assert_eq!(delete().header("X-CSRF-TOKEN", &token).send().await.unwrap().status(), 200);
    }
    assert_eq!(versions(&server, "p").await["items_total"], 0);
}

#[tokio::test]
async fn history_lists_workflow_and_versions_in_one_timeline() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Erst"})).await;
    create_version(&server, "p", Some("vor der Publikation")).await;
    server.transition("p", "publish").await;
    let patch = json!({"title": "Dann"});
    assert_eq!(server.admin(Method::PATCH, "p").json(&patch).send().await.unwrap().status(), 204);
    let (status, history) = server.get_json("p/@history").await;
    assert_eq!(status, 200);
    let kinds: Vec<(&str, &str)> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["type"].as_str().unwrap(), e["action"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, vec![("workflow", "publish"), ("versioning", "Edited"), ("workflow", "Create")], "newest first");
    let version = &history[1];
    assert_eq!(version["version"], 1);
    assert_eq!(version["comments"], "vor der Publikation");
    assert_eq!(version["@id"], format!("{}/@history/1", server.url("p")).as_str());
    assert_eq!(version["may_revert"], true);
    assert_eq!(version["actor"]["id"], "admin");
    assert_eq!(history[0]["state_title"], "Published");
    let (status, frozen) = server.get_json("p/@history/1").await;
    assert_eq!(status, 200, "{frozen}");
    assert_eq!((frozen["title"].as_str(), frozen["version"].as_i64()), (Some("Erst"), Some(1)));
    assert_error(server.admin(Method::GET, "p/@history/7").send().await.unwrap(), 404, "not_found").await;
    // Without Access versions, the history holds only the workflow entries.
    let (status, public) = read(server.anonymous(Method::GET, "p/@history").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert!(public.as_array().unwrap().iter().all(|e| e["type"] == "workflow"), "{public}");
}

#[tokio::test]
async fn patching_history_reverts_to_a_version_as_volto_asks() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "p", "title": "Erst"})).await;
    let version = create_version(&server, "p", Some("erste Fassung")).await;
    let number = version["version"].as_i64().unwrap_or_else(|| version["id"].as_str().unwrap().parse().unwrap());
    let patch = json!({"title": "Dann"});
    assert_eq!(server.admin(Method::PATCH, "p").json(&patch).send().await.unwrap().status(), 204);
    // A JSON write: no CSRF token needed, as plone.restapi and Volto have it.
    let revert = |body: Value| server.admin(Method::PATCH, "p/@history").json(&body).send();
    let (status, answer) = read(revert(json!({"version": number})).await.unwrap()).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["message"], format!("Erst has been reverted to revision {number}."));
    assert_eq!(server.get_json("p").await.1["title"], "Erst");
    assert_error(revert(json!({"version": 99})).await.unwrap(), 404, "not_found").await;
    assert_error(revert(json!({"version": "eins"})).await.unwrap(), 400, "validation_failed").await;
    assert_eq!(revert(json!({"version": number.to_string()})).await.unwrap().status(), 200, "a number as text too");
    assert_error(revert(json!({})).await.unwrap(), 400, "missing_property").await;
    server.user("leser", &["Reader"], &[]).await;
    let response = server.as_user("leser", Method::PATCH, "p/@history").json(&json!({"version": number})).send();
    assert!(matches!(response.await.unwrap().status().as_u16(), 401 | 403), "readers may not revert");
}

#[tokio::test]
async fn comparison_lists_page_and_block_changes() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Alt"})).await;
    server.create("p", json!({"@type": "TextBlock", "id": "same", "title": "Same", "text": "<p>gleich</p>"})).await;
    server.create("p", json!({"@type": "TextBlock", "id": "edit", "title": "Edit", "text": "<p>vorher</p>"})).await;
    let item = create_version(&server, "p", None).await;
    let (_, unchanged) = server.get_json("p/@versions/1/comparison").await;
    assert_eq!(unchanged["changes_total"], 0);
    assert_eq!(unchanged["items"], json!([]));
    assert_eq!(unchanged["version"], item);
    assert_eq!(server.admin(Method::PATCH, "p").json(&json!({"title": "Neu"})).send().await.unwrap().status(), 204);
    let patch = json!({"text": "<p>nachher</p>"});
    assert_eq!(server.admin(Method::PATCH, "p/edit").json(&patch).send().await.unwrap().status(), 204);
    server.create("p", json!({"@type": "TextBlock", "id": "new", "title": "New", "text": "<p>dazu</p>"})).await;
    let (status, comparison) = server.get_json("p/@versions/1/comparison").await;
    assert_eq!(status, 200, "{comparison}");
    assert_eq!(comparison["@id"], format!("{}/@versions/1/comparison", server.url("p")).as_str());
    let items = comparison["items"].as_array().unwrap();
    let kinds: Vec<&str> = items.iter().map(|i| i["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, vec!["page", "skipped", "block", "block"], "{comparison}");
    assert_eq!(comparison["changes_total"], 3);
    assert_eq!(items[0]["metadata"][0], json!({"label": "Title", "old": "Alt", "new": "Neu"}));
    assert_eq!(items[0]["anchor"], "version-diff-change-1");
    assert_eq!(items[1]["count"], 1);
    assert_eq!((items[2]["change"].as_str(), items[2]["type"].as_str()), (Some("changed"), Some("Text block")));
    assert_eq!(items[3]["change"], "added");
    assert_eq!(items[3]["anchor"], "version-diff-change-3");
    let german = server.admin(Method::GET, "p/@versions/1/comparison").header("Accept-Language", "de").send();
    let (_, german) = read(german.await.unwrap()).await;
    assert_eq!(german["items"][0]["metadata"][0]["label"], "Titel");
    assert_eq!(german["items"][2]["type"], "Textblock");
}

/// A browser request (HTML, not the API) as admin.
fn browser(server: &TestServer, method: Method, path: &str) -> RequestBuilder {
    server.raw(method, &server.url(path)).basic_auth("admin", Some(crate::support::ADMIN_PASSWORD))
}

#[tokio::test]
async fn browser_views_list_show_compare_create_restore_and_delete() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "ContentPage", "id": "p", "title": "Seite"})).await;
    server.create("p", json!({"@type": "TextBlock", "id": "t", "title": "T", "text": "<p>Erster Stand</p>"})).await;
    server.user("rd", &["Reader"], &[]).await;

    let navigate = || server.raw(Method::GET, &server.url("p/list_versions"));
    let response = navigate().header("Accept", "text/html,application/xhtml+xml").send().await.unwrap();
    assert_eq!(response.status(), 302, "anonymous browsers go to the login form");
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(location, "/Plone/login?came_from=/Plone/p/list_versions");
    assert_eq!(navigate().send().await.unwrap().status(), 401, "what is not a page navigation gets the error");

    let token = csrf_token(&server, &Auth::admin()).await;
    let form = |path: &str, fields: &[(&str, &str)]| browser(&server, Method::POST, path).form(fields);
    let response = form("p/create_version", &[("comment", "Vom Formular")]).send().await.unwrap();
    assert_eq!(response.status(), 403, "the form must carry the token");
    let response = form("p/create_version", &[("comment", "Vom Formular"), ("_authenticator", &token)]).send().await;
    let response = response.unwrap();
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], format!("{}/list_versions", server.url("p")).as_str());
    let list = versions(&server, "p").await;
    assert_eq!(list["items"][0]["comment"], "Vom Formular");

    let html = browser(&server, Method::GET, "p/list_versions").send().await.unwrap().text().await.unwrap();
    assert!(html.contains("Vom Formular") && html.contains("Compare with current version"), "{html}");
    assert!(html.contains(&format!("name=\"_authenticator\" value=\"{token}\"")), "forms carry the token");
    assert!(html.contains("display_version?version_id=0") && html.contains("<html lang=\"en\">"));
    let german = browser(&server, Method::GET, "p/list_versions").header("Accept-Language", "de-DE,de;q=0.9");
    let german = german.send().await.unwrap().text().await.unwrap();
    assert!(german.contains("Mit aktueller Version vergleichen") && german.contains("<html lang=\"de\">"));
    let today = chrono::Utc::now();
    assert!(german.contains(&today.format("%d.%m.%Y").to_string()), "German dates: {german}");
    assert!(html.contains(&today.format("%b %-d, %Y").to_string()), "English dates: {html}");
    let reader = server.raw(Method::GET, &server.url("p/list_versions")).basic_auth("rd", Some("secret-rd"));
    let reader_html = reader.send().await.unwrap().text().await.unwrap();
    assert!(!reader_html.contains("create_version"), "readers get no write forms");

    // The site language applies when the browser asks for none we have.
    let patch = json!({"plone.default_language": "de"});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&patch).send().await.unwrap().status(), 204);
    let site_german = browser(&server, Method::GET, "p/list_versions").header("Accept-Language", "fr");
    assert!(site_german.send().await.unwrap().text().await.unwrap().contains("Versionen"));

    let patch = json!({"text": "<p>Zweiter Stand</p>"});
    assert_eq!(server.admin(Method::PATCH, "p/t").json(&patch).send().await.unwrap().status(), 204);
    let shown = browser(&server, Method::GET, "p/display_version?version_id=0").send().await.unwrap();
    assert_eq!(shown.status(), 200);
    assert!(shown.text().await.unwrap().contains("Erster Stand"));
    for bad in
        ["p/display_version", "p/display_version?version_id=1", "p/compare_version", "p/compare_version?version_id=x"]
    {
        assert_eq!(browser(&server, Method::GET, bad).send().await.unwrap().status(), 404, "{bad}");
    }
    let compared = browser(&server, Method::GET, "p/compare_version?version_id=0").send().await.unwrap();
    assert_eq!(compared.status(), 200);
    let compared = compared.text().await.unwrap();
    assert!(compared.contains("version-diff-change-1"), "{compared}");
    assert!(compared.contains("<del>Erster</del><ins>Zweiter</ins> Stand"), "{compared}");

    let response = form("p/restore_version", &[("version_id", "0"), ("_authenticator", &token)]).send().await.unwrap();
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], server.url("p").as_str());
    let (_, block) = server.get_json("p/t").await;
    assert!(block["text"]["data"].as_str().unwrap().contains("Erster Stand"));
    let response = form("p/restore_version", &[("version_id", "3"), ("_authenticator", &token)]).send().await.unwrap();
    assert_eq!(response.status(), 404);

    let response = form("p/delete_version", &[("version_id", "0"), ("_authenticator", &token)]).send().await.unwrap();
    assert_eq!(response.status(), 303);
    assert_eq!(versions(&server, "p").await["items_total"], 0);
}
