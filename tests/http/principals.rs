//! `@users`, `@groups` and `@principals`.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn users_are_created_read_batched_updated_and_deleted() {
    let server = TestServer::start().await;
    let body =
        json!({"username": "anna", "password": "long-enough", "fullname": "Anna Ärger", "email": "anna@example.org"});
    let response = server.admin(Method::POST, "@users").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 201);
    assert_eq!(response.headers()["location"], format!("{}/@users/anna", server.site).as_str());
    let (_, anna) = read(response).await;
    assert_eq!(anna["fullname"], "Anna Ärger");
    assert_eq!(anna["roles"], json!(["Member"]));
    assert!(anna.get("password").is_none() && anna.get("password_hash").is_none(), "{anna}");
    assert!(!anna.to_string().contains("argon2"), "no hash in {anna}");
    for n in 0..4 {
        server.user(&format!("user{n}"), &["Member"], &[]).await;
    }
    let (status, page) = server.get_json("@users?b_size=2").await;
    assert_eq!(status, 200);
    assert_eq!(page["items_total"], 6);
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    assert!(page["batching"]["next"].as_str().unwrap().contains("b_size=2"));
    let (_, found) = server.get_json("@users?query=rger").await;
    assert_eq!(found["items_total"], 1);
    let response = server.admin(Method::POST, "@users").json(&body).send().await.unwrap();
    assert_error(response, 409, "conflict").await;
    let response = server
        .admin(Method::POST, "@users")
        .json(&json!({"username": "bad name!", "password": "x"}))
        .send()
        .await
        .unwrap();
    let error = assert_error(response, 400, "validation_failed").await;
    let fields: Vec<&str> = error["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
    assert_eq!(fields, vec!["username", "password"]);

    assert_eq!(
        server.as_user("user0", Method::GET, "@users/user0").send().await.unwrap().status(),
        200,
        "users read themselves"
    );
    assert_error(server.as_user("user0", Method::GET, "@users/anna").send().await.unwrap(), 403, "forbidden").await;
    assert_error(server.as_user("user0", Method::GET, "@users").send().await.unwrap(), 403, "forbidden").await;
    assert_error(server.anonymous(Method::GET, "@users").send().await.unwrap(), 401, "unauthorized").await;

    let response = server
        .as_user("user0", Method::PATCH, "@users/user0")
        .json(&json!({"roles": ["Manager"]}))
        .send()
        .await
        .unwrap();
    assert_error(response, 403, "forbidden").await;
    let change = json!({"password": "new-password", "old_password": "wrong"});
    let response = server.as_user("user0", Method::PATCH, "@users/user0").json(&change).send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
    let change = json!({"password": "new-password", "old_password": "secret-user0", "fullname": "Renamed"});
    assert_eq!(
        server.as_user("user0", Method::PATCH, "@users/user0").json(&change).send().await.unwrap().status(),
        204
    );
    assert_eq!(
        server.as_user("user0", Method::GET, "@users/user0").send().await.unwrap().status(),
        401,
        "old password is gone"
    );
    let response =
        server.anonymous(Method::GET, "@users/user0").basic_auth("user0", Some("new-password")).send().await.unwrap();
    assert_eq!(read(response).await.1["fullname"], "Renamed");

    assert_eq!(server.admin(Method::DELETE, "@users/anna").send().await.unwrap().status(), 204);
    assert_error(server.admin(Method::GET, "@users/anna").send().await.unwrap(), 404, "not_found").await;
    assert_error(server.admin(Method::DELETE, "@users/admin").send().await.unwrap(), 400, "bad_request").await;
}

#[tokio::test]
async fn site_administrators_cannot_make_managers() {
    let server = TestServer::start().await;
    server.user("sa", &["Site Administrator"], &[]).await;
    let body = json!({"username": "x", "password": "long-enough", "roles": ["Manager"]});
    let response = server.as_user("sa", Method::POST, "@users").json(&body).send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
    let body = json!({"username": "x", "password": "long-enough", "roles": ["Editor"]});
    assert_eq!(server.as_user("sa", Method::POST, "@users").json(&body).send().await.unwrap().status(), 201);
}

#[tokio::test]
async fn groups_carry_members_and_roles() {
    let server = TestServer::start().await;
    server.user("ben", &["Member"], &[]).await;
    let body = json!({"groupname": "editors", "title": "Redaktion", "roles": ["Editor"], "users": ["ben"]});
    let response = server.admin(Method::POST, "@groups").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 201);
    let (_, group) = server.get_json("@groups/editors").await;
    assert_eq!(group["title"], "Redaktion");
    assert_eq!(group["users"]["items"], json!(["ben"]));
    let (_, plain) = server.get_json("@groups").await;
    assert!(plain.as_array().is_some_and(|groups| groups.len() >= 3), "plone.restapi's plain array: {plain}");
    let (_, list) = server.get_json("@groups?b_size=2").await;
    assert_eq!(list["items_total"], 4, "three default groups and ours: {list}");
    assert!(list["batching"]["@id"].as_str().unwrap().contains("b_size=2"));
    let (_, ben) = read(server.as_user("ben", Method::GET, "@users/ben").send().await.unwrap()).await;
    assert_eq!(ben["groups"]["items"][1]["id"], "editors", "after AuthenticatedUsers, by name");
    server.create("", json!({"@type": "Document", "title": "D", "id": "d"})).await;
    let response =
        server.as_user("ben", Method::PATCH, "d").json(&json!({"title": "via group role"})).send().await.unwrap();
    assert_eq!(response.status(), 204, "the group's global Editor role applies");
    let response =
        server.admin(Method::PATCH, "@groups/editors").json(&json!({"users": {"ben": false}})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let response = server.as_user("ben", Method::PATCH, "d").json(&json!({"title": "no longer"})).send().await.unwrap();
    assert_error(response, 403, "forbidden").await;
    let response =
        server.admin(Method::PATCH, "@groups/editors").json(&json!({"users": {"ghost": true}})).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    assert_error(server.admin(Method::DELETE, "@groups/AuthenticatedUsers").send().await.unwrap(), 400, "bad_request")
        .await;
    assert_eq!(server.admin(Method::DELETE, "@groups/editors").send().await.unwrap().status(), 204);
    assert_error(server.admin(Method::GET, "@groups/editors").send().await.unwrap(), 404, "not_found").await;
    assert_error(server.as_user("ben", Method::GET, "@groups").send().await.unwrap(), 403, "forbidden").await;
}

/// A group inside a group gives its members the outer group's roles, however deep, as Plone's
/// recursive groups do; `groups` on a new group names such groups; a cycle ends.
#[tokio::test]
async fn groups_inside_groups_pass_on_their_roles() {
    let server = TestServer::start().await;
    let team = json!({"groupname": "team", "title": "Team", "roles": []});
    assert_eq!(server.admin(Method::POST, "@groups").json(&team).send().await.unwrap().status(), 201);
    server.user("ute", &["Member"], &["team"]).await;
    server.create("", json!({"@type": "Document", "title": "D", "id": "d"})).await;
    let edit = |title: &'static str| server.as_user("ute", Method::PATCH, "d").json(&json!({"title": title}));
    assert_error(edit("before").send().await.unwrap(), 403, "forbidden").await;

    let body = json!({"groupname": "redaktion", "title": "Redaktion", "roles": ["Editor"], "groups": ["team"]});
    let (status, made) = read(server.admin(Method::POST, "@groups").json(&body).send().await.unwrap()).await;
    assert_eq!((status, &made["members"]["items"]), (201, &json!(["team"])), "{made}");
    assert_eq!(edit("through team").send().await.unwrap().status(), 204, "Editor through team in redaktion");
    let (_, ute) = server.get_json("@users/ute").await;
    let groups: Vec<&str> =
        ute["groups"]["items"].as_array().unwrap().iter().filter_map(|g| g["id"].as_str()).collect();
    assert!(groups.contains(&"team") && groups.contains(&"redaktion"), "{groups:?}");

    let cycle = json!({"users": {"redaktion": true}});
    assert_eq!(server.admin(Method::PATCH, "@groups/team").json(&cycle).send().await.unwrap().status(), 204);
    assert_eq!(edit("in a cycle").send().await.unwrap().status(), 204, "a cycle neither hangs nor loses the role");
    let leave = json!({"users": {"team": false}});
    assert_eq!(server.admin(Method::PATCH, "@groups/redaktion").json(&leave).send().await.unwrap().status(), 204);
    assert_error(edit("after").send().await.unwrap(), 403, "forbidden").await;

    for (groups, why) in [(json!(["ute"]), "a user is no group"), (json!(["nobody"]), "no such group")] {
        let body = json!({"groupname": "neu", "groups": groups});
        let response = server.admin(Method::POST, "@groups").json(&body).send().await.unwrap();
        let (status, answer) = read(response).await;
        assert_eq!((status, &answer["errors"][0]["field"]), (400, &json!("groups")), "{why}: {answer}");
    }
}

#[tokio::test]
async fn principal_search_hides_authenticated_users_from_non_managers() {
    let server = TestServer::start().await;
    server.user("carla", &["Member"], &[]).await;
    server.user("cecil", &["Member"], &[]).await;
    let (status, found) =
        read(server.as_user("carla", Method::GET, "@principals?search=c").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(found["@id"], format!("{}/@principals", server.site).as_str());
    let ids: Vec<&str> = found["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"carla") && ids.contains(&"cecil"), "{ids:?}");
    assert!(!ids.contains(&"AuthenticatedUsers"), "{ids:?}");
    let user = found["users"].as_array().unwrap().iter().find(|u| u["id"] == "carla").unwrap();
    for key in [
        "@id",
        "@type",
        "id",
        "username",
        "fullname",
        "description",
        "location",
        "email",
        "home_page",
        "portrait",
        "roles",
    ] {
        assert!(user.get(key).is_some(), "user item lacks {key}: {user}");
    }
    assert_eq!(user["@type"], "user");
    assert_eq!(user["@id"], format!("{}/@users/carla", server.site).as_str(), "as plone.restapi: the user's resource");
    let (_, found) = read(server.as_user("carla", Method::GET, "@principals?search=auth").send().await.unwrap()).await;
    assert!(found["groups"].as_array().unwrap().iter().all(|g| g["id"] != "AuthenticatedUsers"));
    let (_, found) = server.get_json("@principals?search=auth").await;
    assert!(found["groups"].as_array().unwrap().iter().any(|g| g["id"] == "AuthenticatedUsers"), "{found}");
    assert!(found["items"].as_array().unwrap().iter().any(|g| g["id"] == "AuthenticatedUsers"));
    let (_, found) = server.get_json("@principals?search=example.org").await;
    assert_eq!(found["users"].as_array().unwrap().len(), 2, "matches e-mail");
    assert_eq!(found["users"][0]["email"], "carla@example.org", "those who manage users read addresses");
    // Others neither read addresses nor find anyone by one (that would tell whose it is).
    assert_eq!(user["email"], "", "{user}");
    let by_address = server.as_user("carla", Method::GET, "@principals?search=cecil%40example.org");
    let (_, found) = read(by_address.send().await.unwrap()).await;
    assert_eq!(found["users"], json!([]), "{found}");
    assert_error(server.anonymous(Method::GET, "@principals?search=c").send().await.unwrap(), 401, "unauthorized")
        .await;
}

/// Volto's user and group panels send roles as `{"<role>": true|false}`: given and taken from
/// what the principal has.
#[tokio::test]
async fn roles_in_object_form_give_and_take() {
    let server = TestServer::start().await;
    server.user("ute", &["Member", "Reviewer"], &[]).await;
    let body = json!({"roles": {"Editor": true, "Reviewer": false}});
    assert_eq!(server.admin(Method::PATCH, "@users/ute").json(&body).send().await.unwrap().status(), 204);
    let (_, ute) = server.get_json("@users/ute").await;
    let mut roles: Vec<&str> = ute["roles"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    roles.sort_unstable();
    assert_eq!(roles, ["Editor", "Member"]);
    let bad = json!({"roles": {"Editor": "ja"}});
    let response = server.admin(Method::PATCH, "@users/ute").json(&bad).send().await.unwrap();
    crate::support::assert_error(response, 400, "validation_failed").await;
    let group = json!({"roles": {"Reader": true}});
    assert_eq!(server.admin(Method::PATCH, "@groups/Reviewers").json(&group).send().await.unwrap().status(), 204);
    let (_, reviewers) = server.get_json("@groups/Reviewers").await;
    assert!(reviewers["roles"].as_array().unwrap().contains(&json!("Reader")), "{reviewers}");
}

/// What Volto's user panels and personal-information form send: `?search=` with `limit`, and
/// the user as GET gave it (read-only keys included) with changes.
#[tokio::test]
async fn volto_searches_users_and_sends_back_what_it_read() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &[]).await;
    server.user("bert", &["Member"], &[]).await;
    let (_, found) = server.get_json("@users?search=ann&limit=5").await;
    let ids: Vec<&str> = found["items"].as_array().unwrap().iter().map(|u| u["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["anna"], "{found}");
    let response = server.admin(Method::GET, "@users?limit=0").send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;

    let (_, mut anna) = server.get_json("@users/anna").await;
    let form = anna.as_object_mut().unwrap();
    for key in ["id", "username", "roles"] {
        form.remove(key);
    }
    form.insert("fullname".into(), json!("Anna Neu"));
    let response =
        server.anonymous(Method::PATCH, "@users/anna").basic_auth("anna", Some("secret-anna")).json(&form).send();
    assert_eq!(response.await.unwrap().status(), 204);
    let (_, after) = server.get_json("@users/anna").await;
    assert_eq!(after["fullname"], "Anna Neu");
    let portrait = json!({"portrait": {"data": "aGk=", "encoding": "base64"}});
    let response = server.admin(Method::PATCH, "@users/anna").json(&portrait).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
}

/// Plone's CSV upload creates a user per line, all or none, and `Accept: text/csv` exports them.
#[tokio::test]
async fn users_come_in_and_go_out_as_csv() {
    let server = TestServer::start().await;
    let file = "username,email,fullname,description,roles,home_page,password\n\
                jdoe,jdoe@example.com,John Doe,Developer,\"Member, Contributor\",https://jdoe.dev,pass1234\n\
                asmith,asmith@example.com,Alice Smith,Designer,,,alicePwd!\n";
    let form = format!(
        "--B0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"users.csv\"\r\n\
         Content-Type: text/csv\r\n\r\n{file}\r\n--B0undary--\r\n"
    );
    let upload = |body: String| {
        server
            .admin(reqwest::Method::POST, "@users")
            .header("Content-Type", "multipart/form-data; boundary=B0undary")
            .body(body)
            .send()
    };
    let (status, created) = crate::support::read(upload(form).await.unwrap()).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["items_total"], 2);
    let mut roles: Vec<&str> =
        created["items"][0]["roles"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    roles.sort_unstable();
    assert_eq!(roles, ["Contributor", "Member"]);
    assert_eq!(created["items"][1]["roles"], serde_json::json!(["Member"]), "an empty cell gives Member");
    let login = json!({"login": "asmith", "password": "alicePwd!"});
    let response = server.anonymous(reqwest::Method::POST, "@login").json(&login).send().await.unwrap();
    assert_eq!(response.status(), 200, "the password from the file works");

    let bad = "username,email,password\nok-user,ok@example.org,longenough\nbad user,x@example.org,longenough\n";
    let response = server.admin(reqwest::Method::POST, "@users").header("Content-Type", "text/csv").body(bad).send();
    let error = crate::support::assert_error(response.await.unwrap(), 400, "validation_failed").await;
    assert!(error["message"].as_str().unwrap().starts_with("Line 3:"), "{error}");
    assert_eq!(server.get_json("@users/ok-user").await.0, 404, "all or nothing");
    let unknown =
        server.admin(reqwest::Method::POST, "@users").header("Content-Type", "text/csv").body("nickname\nx\n");
    crate::support::assert_error(unknown.send().await.unwrap(), 400, "bad_request").await;
    server.user("anna", &["Member"], &[]).await;
    let member = server.as_user("anna", reqwest::Method::POST, "@users").header("Content-Type", "text/csv").body(file);
    crate::support::assert_error(member.send().await.unwrap(), 403, "forbidden").await;

    let export = server
        .raw(reqwest::Method::GET, &server.url("@users"))
        .basic_auth("admin", Some(crate::support::ADMIN_PASSWORD));
    let response = export.header("Accept", "text/csv").send().await.unwrap();
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let text = response.text().await.unwrap();
    assert!(text.starts_with("id,username,fullname,email,roles,groups\n"), "{text}");
    assert!(
        text.contains("jdoe,jdoe,John Doe,jdoe@example.com,\"Member, Contributor\",AuthenticatedUsers\n")
            || text.contains("jdoe,jdoe,John Doe,jdoe@example.com,\"Contributor, Member\",AuthenticatedUsers\n"),
        "{text}"
    );
}

/// Volto's user control panel narrows the list to the members of some groups.
#[tokio::test]
async fn users_are_filtered_by_their_groups() {
    let server = TestServer::start().await;
    server.user("anna", &["Member"], &["Reviewers"]).await;
    server.user("ben", &["Member"], &["Site Administrators"]).await;
    server.user("cleo", &["Member"], &[]).await;
    let (status, listed) =
        server.get_json("@users?groups-filter%3Alist=Reviewers&groups-filter%3Alist=Site+Administrators").await;
    assert_eq!(status, 200, "{listed}");
    let ids: Vec<&str> = listed["items"].as_array().unwrap().iter().map(|u| u["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["anna", "ben"]);
    assert_eq!(listed["items_total"], 2);
    let too_many: String = (0..51).map(|i| format!("groups-filter:list=g{i}&")).collect();
    assert_error(
        server.admin(Method::GET, &format!("@users?{too_many}")).send().await.unwrap(),
        400,
        "invalid_parameter",
    )
    .await;
}
