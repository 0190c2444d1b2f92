//! Nobody grants, takes or uses a role they do not hold: a Site Administrator cannot reach a
//! Manager's account or groups, an Editor cannot make reviewers, and every change of roles,
//! groups, passwords and sharing is in the audit log.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

async fn status(request: reqwest::RequestBuilder) -> u16 {
    request.send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn a_site_administrator_cannot_become_or_reach_a_manager() {
    let server = TestServer::start().await;
    server.user("siteadm", &["Site Administrator"], &[]).await;
    server.user("other-siteadm", &["Site Administrator"], &[]).await;
    server.user("boss", &["Member"], &["Administrators"]).await;
    server.user("ed", &["Member"], &[]).await;
    let sa = |method: Method, path: &str| server.as_user("siteadm", method, path);

    let refused = [
        (Method::PATCH, "@users/admin", json!({"password": "taken-over!"})),
        (Method::PATCH, "@users/admin", json!({"email": "siteadm@example.org"})),
        (Method::PATCH, "@users/admin", json!({"roles": {"Manager": false}})),
        (Method::PATCH, "@users/boss", json!({"fullname": "Manager through a group"})),
        (Method::PATCH, "@users/other-siteadm", json!({"password": "taken-over!"})),
        (Method::PATCH, "@users/ed", json!({"roles": {"Manager": true}})),
        (Method::PATCH, "@users/ed", json!({"roles": ["Site Administrator"]})),
        (Method::PATCH, "@groups/Administrators", json!({"users": {"siteadm": true}})),
        (Method::PATCH, "@groups/Administrators", json!({"users": {"boss": false}})),
        (Method::PATCH, "@groups/Site Administrators", json!({"users": {"ed": true}})),
        (Method::PATCH, "@groups/Reviewers", json!({"users": {"boss": true}})),
        (Method::PATCH, "@groups/Reviewers", json!({"roles": ["Manager"]})),
        (Method::POST, "@users", json!({"username": "x", "password": "long-enough", "roles": ["Site Administrator"]})),
        (Method::POST, "@groups", json!({"groupname": "admins2", "roles": ["Manager"]})),
        (Method::POST, "@users/admin/reset-password", json!({"old_password": "x", "new_password": "taken-over!"})),
    ];
    for (method, path, body) in refused {
        let response = sa(method.clone(), path).json(&body).send().await.unwrap();
        let (code, error) = read(response).await;
        assert_eq!(code, 403, "{method} {path} {body}: {error}");
        assert_eq!(error["code"], "forbidden");
    }
    for path in ["@users/admin", "@users/boss", "@groups/Administrators", "@groups/Site Administrators"] {
        assert_eq!(status(sa(Method::DELETE, path)).await, 403, "DELETE {path}");
    }
    // Nothing of it happened: admin still logs in with its password, boss is still a Manager.
    assert_eq!(server.get_json("@users/admin").await.0, 200);
    let (_, boss) = server.get_json("@users/boss").await;
    assert_eq!(boss["groups"]["items"][0]["id"], "Administrators");
    let (_, admins) = server.get_json("@groups/Site Administrators").await;
    assert_eq!(admins["users"]["items"], json!([]));

    // What is theirs to do still works.
    assert_eq!(status(sa(Method::PATCH, "@users/ed").json(&json!({"roles": {"Reviewer": true}}))).await, 204);
    assert_eq!(status(sa(Method::PATCH, "@groups/Reviewers").json(&json!({"users": {"ed": true}}))).await, 204);
    assert_eq!(status(sa(Method::PATCH, "@users/siteadm").json(&json!({"fullname": "Me"}))).await, 204);
    assert_eq!(status(sa(Method::DELETE, "@users/ed")).await, 204);
    // And a Manager does it all.
    let to_siteadmin = json!({"users": {"ed2": true}});
    server.user("ed2", &["Member"], &[]).await;
    assert_eq!(status(server.admin(Method::PATCH, "@groups/Site Administrators").json(&to_siteadmin)).await, 204);
    assert_eq!(status(server.admin(Method::PATCH, "@users/boss").json(&json!({"fullname": "Boss"}))).await, 204);
}

#[tokio::test]
async fn an_editor_cannot_make_reviewers() {
    let server = TestServer::start().await;
    server.user("editor", &["Member"], &[]).await;
    server.user("global-editor", &["Editor"], &[]).await;
    server.user("reviewer", &["Member"], &["Reviewers"]).await;
    server.user("helper", &["Member"], &[]).await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    server.create("f", json!({"@type": "Document", "title": "Draft", "id": "draft"})).await;
    server.share("f", "editor", &["Editor"]).await;
    let grant = |id: &str, role: &str| json!({"entries": [{"id": id, "type": "user", "roles": {role: true}}]});

    let (code, sharing) = read(server.as_user("editor", Method::GET, "f/draft/@sharing").send().await.unwrap()).await;
    assert_eq!(code, 200);
    let roles: Vec<&str> =
        sharing["available_roles"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(roles, vec!["Contributor", "Editor", "Reader"], "Reviewer is not offered");

    let response =
        server.as_user("editor", Method::POST, "f/draft/@sharing").json(&grant("editor", "Reviewer")).send().await;
    assert_error(response.unwrap(), 403, "forbidden").await;
    let everyone = json!({"entries": [{"id": "AuthenticatedUsers", "type": "group", "roles": {"Reviewer": true}}]});
    let response = server.as_user("global-editor", Method::POST, "@sharing").json(&everyone).send().await;
    assert_error(response.unwrap(), 403, "forbidden").await;
    let publish = server.as_user("editor", Method::POST, "f/draft/@workflow/publish").send().await.unwrap();
    assert_eq!(publish.status(), 403, "still no reviewer");

    // Plone's delegation: Editors share editing, Reviewers share reviewing.
    let response = server.as_user("editor", Method::POST, "f/draft/@sharing").json(&grant("helper", "Contributor"));
    assert_eq!(status(response).await, 204);
    server.share("f/draft", "reviewer", &["Reader"]).await;
    let response = server.as_user("reviewer", Method::POST, "f/draft/@sharing").json(&grant("helper", "Reviewer"));
    assert_eq!(status(response).await, 403, "the sharing page itself needs Change local roles");
    server.share("f", "reviewer", &["Editor"]).await;
    let response = server.as_user("reviewer", Method::POST, "f/draft/@sharing").json(&grant("helper", "Reviewer"));
    assert_eq!(status(response).await, 204);
    // Taking a role is delegating it too.
    let take = json!({"entries": [{"id": "helper", "type": "user", "roles": {"Reviewer": false}}]});
    let response = server.as_user("editor", Method::POST, "f/draft/@sharing").json(&take);
    assert_eq!(status(response).await, 403);
    // Echoing back what GET showed changes nothing and is allowed.
    let echo = json!({"entries": [{"id": "helper", "type": "user", "roles": {"Contributor": true, "Reader": false}}]});
    let response = server.as_user("editor", Method::POST, "f/draft/@sharing").json(&echo);
    assert_eq!(status(response).await, 204);
}

#[tokio::test]
async fn changes_of_roles_groups_passwords_and_sharing_are_audited() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    server.user("siteadm", &["Site Administrator"], &[]).await;
    server.create("", json!({"@type": "Folder", "title": "F", "id": "f"})).await;
    let patch = |path: &str, body: Value| server.admin(Method::PATCH, path).json(&body);
    assert_eq!(status(patch("@users/anna", json!({"roles": {"Editor": true}}))).await, 204);
    assert_eq!(status(patch("@users/anna", json!({"password": "new-password-1"}))).await, 204);
    assert_eq!(status(patch("@groups/Reviewers", json!({"users": {"anna": true}}))).await, 204);
    server.share("f", "anna", &["Reader"]).await;
    let own = json!({"password": "new-password-2", "old_password": "secret-siteadm"});
    assert_eq!(status(server.as_user("siteadm", Method::PATCH, "@users/siteadm").json(&own)).await, 204);

    let (code, log) = server.get_json("@audit-log").await;
    assert_eq!(code, 200, "{log}");
    let entries: Vec<(String, String, String)> = log["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["actor"].as_str().unwrap().into(),
                e["action"].as_str().unwrap().into(),
                e["target"].as_str().unwrap().into(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> = [
        ("siteadm", "user.password", "siteadm"),
        ("admin", "sharing", "/Plone/f"),
        ("admin", "group.members", "Reviewers"),
        ("admin", "user.password", "anna"),
        ("admin", "user.roles", "anna"),
        ("admin", "user.create", "siteadm"),
        ("admin", "user.create", "anna"),
    ]
    .iter()
    .map(|(a, b, c)| ((*a).into(), (*b).into(), (*c).into()))
    .collect();
    assert_eq!(entries, expected, "{log}");
    let items = log["items"].as_array().unwrap();
    assert_eq!(items[1]["details"]["roles"][0], json!({"principal": "anna", "given": ["Reader"], "taken": []}));
    assert_eq!(items[2]["details"], json!({"added": ["anna"], "removed": []}));
    assert_eq!(items[4]["details"], json!({"given": ["Editor"], "taken": []}));
    assert_eq!(items[0]["client"], "127.0.0.1");
    assert!(items[0]["at"].as_str().unwrap().ends_with("+00:00"));
    assert!(!log.to_string().contains("new-password"), "no password reaches the log");

    let (_, filtered) = server.get_json("@audit-log?target=anna&b_size=1").await;
    assert_eq!(filtered["items_total"], 3);
    assert_eq!(filtered["items"][0]["action"], "user.password");
    assert!(filtered["batching"]["next"].as_str().unwrap().contains("target=anna"));

    let siteadm = server.anonymous(Method::GET, "@audit-log").basic_auth("siteadm", Some("new-password-2"));
    assert_error(siteadm.send().await.unwrap(), 403, "forbidden").await;
    assert_error(server.anonymous(Method::GET, "@audit-log").send().await.unwrap(), 401, "unauthorized").await;
}
