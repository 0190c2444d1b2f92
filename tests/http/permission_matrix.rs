//! The permission matrix: role × workflow state × operation → expected status, as Plone's
//! simple publication workflow and role map define it (with 403 for authenticated callers).

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::json;

const ROLES: [&str; 7] = ["anonymous", "member", "owner", "editor", "reviewer", "siteadmin", "manager"];
const STATES: [&str; 3] = ["private", "pending", "published"];

/// A site with one published folder `f`, a user per role, and `owner` owning what it creates.
async fn site() -> TestServer {
    let server = TestServer::start().await;
    server.user("member", &["Member"], &[]).await;
    server.user("owner", &["Member"], &[]).await;
    server.user("editor", &["Member"], &[]).await;
    server.user("reviewer", &["Member"], &["Reviewers"]).await;
    server.user("siteadmin", &["Site Administrator"], &[]).await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    server.transition("f", "publish").await;
    server.share("f", "owner", &["Contributor"]).await;
    server.share("f", "editor", &["Editor"]).await;
    server
}

fn request(server: &TestServer, role: &str, method: Method, path: &str) -> reqwest::RequestBuilder {
    match role {
        "anonymous" => server.anonymous(method, path),
        "manager" => server.admin(method, path),
        user => server.as_user(user, method, path),
    }
}

/// `owner` creates a document in `f` and an admin puts it in `state`.
async fn owned_document(server: &TestServer, id: &str, state: &str) -> String {
    let body = json!({"@type": "Document", "title": id, "id": id});
    let (status, created) = read(server.as_user("owner", Method::POST, "f").json(&body).send().await.unwrap()).await;
    assert_eq!(status, 201, "owner creates {id}: {created}");
    assert_eq!(created["review_state"], "private");
    if state != "private" {
        let response = server.admin(Method::POST, &format!("f/{id}/@workflow-set-state/{state}")).send().await.unwrap();
        assert_eq!(response.status(), 200);
    }
    format!("f/{id}")
}

fn expect(table: &[(&str, [u16; 7])], state: &str, role: &str) -> u16 {
    let row = table.iter().find(|(s, _)| *s == state).map(|(_, row)| row).unwrap();
    row[ROLES.iter().position(|r| *r == role).unwrap()]
}

#[tokio::test]
async fn view_list_search_and_edit() {
    let server = site().await;
    let view = [
        ("private", [401, 403, 200, 200, 403, 200, 200]),
        ("pending", [401, 403, 200, 200, 200, 200, 200]),
        ("published", [200, 200, 200, 200, 200, 200, 200]),
    ];
    let edit = [
        ("private", [401, 403, 204, 204, 403, 204, 204]),
        ("pending", [401, 403, 403, 403, 204, 204, 204]),
        ("published", [401, 403, 204, 204, 403, 204, 204]),
    ];
    let mut failures = Vec::new();
    for state in STATES {
        let path = owned_document(&server, &format!("doc-{state}"), state).await;
        for role in ROLES {
            let status = request(&server, role, Method::GET, &path).send().await.unwrap().status().as_u16();
            if status != expect(&view, state, role) {
                failures.push(format!("view {state} as {role}: {status}"));
            }
            let (_, folder) = read(request(&server, role, Method::GET, "f?b_size=100").send().await.unwrap()).await;
            let listed =
                folder["items"].as_array().unwrap().iter().any(|i| i["@id"].as_str().unwrap().ends_with(&path));
            let total_matches =
                folder["items_total"].as_u64().unwrap() as usize == folder["items"].as_array().unwrap().len();
            if listed != (expect(&view, state, role) == 200) || !total_matches {
                failures.push(format!("list {state} as {role}: listed={listed} total_matches={total_matches}"));
            }
            let search = "@search?portal_type=Document&path.query=/Plone/f&b_size=100";
            let (status, found) = read(request(&server, role, Method::GET, search).send().await.unwrap()).await;
            let hit = found["items"]
                .as_array()
                .is_some_and(|items| items.iter().any(|i| i["@id"].as_str().unwrap().ends_with(&path)));
            if status != 200 || hit != (expect(&view, state, role) == 200) {
                failures.push(format!("search {state} as {role}: status={status} found={hit}"));
            }
            let patch = json!({"description": format!("by {role}")});
            let status =
                request(&server, role, Method::PATCH, &path).json(&patch).send().await.unwrap().status().as_u16();
            if status != expect(&edit, state, role) {
                failures.push(format!("edit {state} as {role}: {status}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[tokio::test]
async fn delete_and_transition() {
    let server = site().await;
    let delete = [
        ("private", [401, 403, 204, 204, 403, 204, 204]),
        ("pending", [401, 403, 204, 204, 403, 204, 204]),
        ("published", [401, 403, 204, 204, 403, 204, 204]),
    ];
    let transition = [
        ("private", [401, 403, 200, 200, 403, 200, 200]),
        ("pending", [401, 403, 403, 403, 200, 200, 200]),
        ("published", [401, 403, 200, 200, 403, 200, 200]),
    ];
    let transition_for = |state: &str| match state {
        "private" => "submit",
        "pending" => "publish",
        _ => "retract",
    };
    let mut failures = Vec::new();
    for state in STATES {
        for role in ROLES {
            let path = owned_document(&server, &format!("del-{state}-{role}"), state).await;
            let status = request(&server, role, Method::DELETE, &path).send().await.unwrap().status().as_u16();
            if status != expect(&delete, state, role) {
                failures.push(format!("delete {state} as {role}: {status}"));
            }
            let path = owned_document(&server, &format!("tr-{state}-{role}"), state).await;
            let url = format!("{path}/@workflow/{}", transition_for(state));
            let status = request(&server, role, Method::POST, &url).send().await.unwrap().status().as_u16();
            if status != expect(&transition, state, role) {
                failures.push(format!("{} {state} as {role}: {status}", transition_for(state)));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[tokio::test]
async fn nothing_private_leaks_through_parent_or_listings() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "Secret folder", "id": "secret"})).await;
    server.create("secret", json!({"@type": "Document", "title": "Public page", "id": "page"})).await;
    server.create("secret", json!({"@type": "Document", "title": "Hidden page", "id": "hidden"})).await;
    server.transition("secret/page", "publish").await;
    let (status, page) = read(server.anonymous(Method::GET, "secret/page").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(page["parent"], json!({}), "the private folder's title must not leak");
    let (status, _) = read(server.anonymous(Method::GET, "secret").send().await.unwrap()).await;
    assert_eq!(status, 401);
    let (status, crumbs) = read(server.anonymous(Method::GET, "secret/page/@breadcrumbs").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(
        crumbs["items"],
        json!([{"@id": server.url("secret/page"), "title": "Public page", "portal_type": "Document"}])
    );
    assert!(!crumbs.to_string().contains("Secret folder"), "{crumbs}");
    let (_, crumbs) = server.get_json("secret/page/@breadcrumbs").await;
    assert_eq!(
        crumbs["items"][0],
        json!({"@id": server.url("secret"), "title": "Secret folder", "portal_type": "Folder"})
    );
    assert_eq!(crumbs["root"], server.site.as_str());
    let (_, expanded) = server.get_json("secret/page?expand=breadcrumbs").await;
    assert_eq!(expanded["@components"]["breadcrumbs"]["items"], crumbs["items"]);
    let (_, site) = read(server.anonymous(Method::GET, "").send().await.unwrap()).await;
    assert_eq!(site["items_total"], 0, "private folder hidden from the site listing: {site}");

    let related = json!({"@type": "Document", "title": "Pointer", "id": "pointer",
                         "relatedItems": ["/secret/hidden"], "text": "<a href=\"/Plone/secret/hidden\">x</a>"});
    server.create("", related).await;
    server.transition("pointer", "publish").await;
    server.settle().await;
    for path in
        ["pointer", "@relations?targets=/secret/page", "@relations?sources=/pointer", "@search?SearchableText=page"]
    {
        let (status, body) = read(server.anonymous(Method::GET, path).send().await.unwrap()).await;
        assert_eq!(status, 200, "{path}: {body}");
        for secret in ["Hidden page", "Secret folder", "secret/hidden"] {
            assert!(!body.to_string().contains(secret), "{path} leaks {secret}: {body}");
        }
    }
    server.user("reader", &["Member"], &[]).await;
    server.share("secret", "reader", &["Reader"]).await;
    let (_, folder) = read(server.as_user("reader", Method::GET, "secret").send().await.unwrap()).await;
    assert_eq!(folder["items_total"], 2, "Reader sees private children via the inherited local role");
    let body = json!({"entries": [{"id": "reader", "type": "user", "roles": {"Reader": false}}]});
    server.admin(Method::POST, "secret/@sharing").json(&body).send().await.unwrap();
    let (_, site) = read(server.as_user("reader", Method::GET, "").send().await.unwrap()).await;
    assert_eq!(site["items_total"], 1, "revoking the role hides the folder again (the public pointer stays)");
}
