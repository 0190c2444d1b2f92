//! The comments plugin over HTTP: `allow_discussion`, `@comments` (list, add, reply, edit,
//! delete) with plone.app.discussion's permissions and settings, and the discussion panel.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::{Value, json};

const GLOBALLY: &str = "plone.app.discussion.interfaces.IDiscussionSettings.globally_enabled";
const ANONYMOUS: &str = "plone.app.discussion.interfaces.IDiscussionSettings.anonymous_comments";
const ANONYMOUS_EMAIL: &str = "plone.app.discussion.interfaces.IDiscussionSettings.anonymous_email_enabled";
const EDIT: &str = "plone.app.discussion.interfaces.IDiscussionSettings.edit_comment_enabled";
const DELETE_OWN: &str = "plone.app.discussion.interfaces.IDiscussionSettings.delete_own_comment_enabled";
const TRANSFORM: &str = "plone.app.discussion.interfaces.IDiscussionSettings.text_transform";

async fn set_records(server: &TestServer, records: Value) {
    let response = server.admin(Method::PATCH, "@registry").json(&records).send().await.unwrap();
    assert_eq!(response.status(), 204, "{records}");
}

/// A published page that takes comments, and the members `anna` and `ben`.
async fn discussed_page(server: &TestServer) {
    server.create("", json!({"@type": "Document", "id": "page", "title": "Page", "allow_discussion": true})).await;
    server.transition("page", "publish").await;
    server.user("anna", &["Member"], &[]).await;
    server.user("ben", &["Member"], &[]).await;
}

/// Posts a comment and returns the path of its URL below the site.
async fn comment(server: &TestServer, user: &str, path: &str, text: &str) -> String {
    let response = server.as_user(user, Method::POST, path).json(&json!({"text": text})).send().await.unwrap();
    assert_eq!(response.status(), 204, "commenting as {user} on {path}");
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    location.strip_prefix(&format!("{}/", server.url(""))).unwrap().to_owned()
}

async fn conversation(server: &TestServer, user: Option<&str>) -> Value {
    let request = match user {
        Some(user) => server.as_user(user, Method::GET, "page/@comments"),
        None => server.anonymous(Method::GET, "page/@comments"),
    };
    let (status, body) = read(request.send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    body
}

fn texts(conversation: &Value) -> Vec<&str> {
    conversation["items"].as_array().unwrap().iter().map(|c| c["text"]["data"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn allow_discussion_follows_the_object_and_the_site_switch() {
    let server = TestServer::start().await;
    let page = server.create("", json!({"@type": "Document", "title": "Plain"})).await;
    assert_eq!(page["allow_discussion"], false, "no type allows discussion by default");
    let (_, site) = server.get_json("").await;
    assert_eq!(site["allow_discussion"], false);

    // Volto's select sends Plone's tokens; clients send truth values.
    let response = server.admin(Method::PATCH, "plain").json(&json!({"allow_discussion": "True"})).send().await;
    assert_eq!(response.unwrap().status(), 204);
    let (_, page) = server.get_json("plain").await;
    assert_eq!(page["allow_discussion"], true);
    set_records(&server, json!({GLOBALLY: false})).await;
    let (_, page) = server.get_json("plain").await;
    assert_eq!(page["allow_discussion"], false, "switched off site-wide");
    set_records(&server, json!({GLOBALLY: true})).await;
    let response = server.admin(Method::PATCH, "plain").json(&json!({"allow_discussion": false})).send().await;
    assert_eq!(response.unwrap().status(), 204);
    let (_, page) = server.get_json("plain").await;
    assert_eq!(page["allow_discussion"], false);

    let response = server.admin(Method::PATCH, "plain").json(&json!({"allow_discussion": "perhaps"})).send().await;
    assert_error(response.unwrap(), 400, "validation_failed").await;
    let (_, types) = server.get_json("@types/Document").await;
    assert_eq!(types["properties"]["allow_discussion"]["choices"], json!([["True", "Yes"], ["False", "No"]]));
}

#[tokio::test]
async fn comments_and_replies_are_listed_in_thread_order_as_plone_serializes_them() {
    let server = TestServer::start().await;
    discussed_page(&server).await;
    let first = comment(&server, "anna", "page/@comments", "First").await;
    assert!(first.starts_with("page/@comments/"), "{first}");
    comment(&server, "ben", "page/@comments", "Second").await;
    let reply = comment(&server, "ben", &first, "Reply to first").await;
    comment(&server, "anna", &reply, "Reply to the reply").await;

    let listed = conversation(&server, None).await;
    assert_eq!(listed["@id"], json!(server.url("page/@comments")));
    assert_eq!(texts(&listed), ["First", "Reply to first", "Reply to the reply", "Second"]);
    assert_eq!(listed["items_total"], 4);
    assert_eq!(listed["permissions"], json!({"view_comments": true, "can_reply": false}), "anonymous may not reply");

    let first_item = &listed["items"][0];
    let id = first_item["comment_id"].as_str().unwrap();
    assert_eq!(first_item["@id"], json!(server.url(&first)));
    assert_eq!(first_item["@type"], "Discussion Item");
    assert_eq!((&first_item["@parent"], &first_item["in_reply_to"]), (&Value::Null, &Value::Null));
    assert_eq!(first_item["author_username"], "anna");
    assert_eq!(first_item["author_name"], "User anna");
    assert_eq!(first_item["text"], json!({"data": "First", "mime-type": "text/plain"}));
    assert!(first_item.get("author_email").is_none(), "addresses stay private: {first_item}");
    for key in ["creation_date", "modification_date", "author_image", "user_notification", "can_reply"] {
        assert!(first_item.get(key).is_some(), "{key} in {first_item}");
    }
    let reply_item = &listed["items"][1];
    assert_eq!(reply_item["in_reply_to"], json!(id));
    assert_eq!(reply_item["@parent"], json!(server.url(&first)));

    let as_member = conversation(&server, Some("anna")).await;
    assert_eq!(as_member["permissions"]["can_reply"], true);
    assert_eq!(as_member["items"][0]["can_reply"], true);
    let (status, single) = server.get_json(&reply).await;
    assert_eq!((status, single["text"]["data"].as_str()), (200, Some("Reply to first")));

    let batch = read(server.anonymous(Method::GET, "page/@comments?b_size=2").send().await.unwrap()).await.1;
    assert_eq!((batch["items"].as_array().unwrap().len(), &batch["items_total"]), (2, &json!(4)));
    assert!(batch["batching"]["next"].as_str().unwrap().contains("b_start=2"), "{batch}");
}

#[tokio::test]
async fn only_objects_that_take_comments_take_them_and_only_from_who_may_reply() {
    let server = TestServer::start().await;
    discussed_page(&server).await;
    server.create("", json!({"@type": "Document", "id": "closed", "title": "Closed"})).await;
    server.transition("closed", "publish").await;
    let closed = server.as_user("anna", Method::POST, "closed/@comments").json(&json!({"text": "Hi"})).send();
    let body = assert_error(closed.await.unwrap(), 403, "forbidden").await;
    assert!(body["message"].as_str().unwrap().contains("not enabled"), "{body}");
    let anonymous = server.anonymous(Method::POST, "page/@comments").json(&json!({"text": "Hi"})).send();
    assert_error(anonymous.await.unwrap(), 401, "unauthorized").await;
    set_records(&server, json!({GLOBALLY: false})).await;
    let off = server.as_user("anna", Method::POST, "page/@comments").json(&json!({"text": "Hi"})).send();
    assert_error(off.await.unwrap(), 403, "forbidden").await;
    set_records(&server, json!({GLOBALLY: true})).await;

    for body in [json!({}), json!({"text": "  "}), json!({"text": 5}), json!({"text": "x".repeat(50_001)})] {
        let response = server.as_user("anna", Method::POST, "page/@comments").json(&body).send();
        assert_error(response.await.unwrap(), 400, "validation_failed").await;
    }
    let reply_to_nothing = server.as_user("anna", Method::POST, "page/@comments/12345").json(&json!({"text": "?"}));
    assert_error(reply_to_nothing.send().await.unwrap(), 404, "not_found").await;
    let not_a_number = server.as_user("anna", Method::POST, "page/@comments/abc").json(&json!({"text": "?"}));
    assert_error(not_a_number.send().await.unwrap(), 404, "not_found").await;
    assert_eq!(conversation(&server, None).await["items_total"], 0, "nothing stored by refused requests");
}

#[tokio::test]
async fn anonymous_comments_carry_the_name_given_and_may_require_an_address() {
    let server = TestServer::start().await;
    discussed_page(&server).await;
    set_records(&server, json!({ANONYMOUS: true})).await;
    let listed = conversation(&server, None).await;
    assert_eq!(listed["permissions"]["can_reply"], true);
    let body = json!({"text": "Hello", "author_name": "Visitor", "author_email": "v@example.org"});
    let response = server.anonymous(Method::POST, "page/@comments").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let listed = conversation(&server, None).await;
    assert_eq!(listed["items"][0]["author_username"], Value::Null);
    assert_eq!(listed["items"][0]["author_name"], "Visitor");
    assert_eq!(listed["items"][0]["is_editable"], false);
    assert_eq!(listed["items"][0]["is_deletable"], false);

    set_records(&server, json!({ANONYMOUS_EMAIL: true})).await;
    let without = server.anonymous(Method::POST, "page/@comments").json(&json!({"text": "No address"})).send();
    assert_error(without.await.unwrap(), 400, "validation_failed").await;
    let bad = json!({"text": "Bad address", "author_email": "not an address"});
    let bad = server.anonymous(Method::POST, "page/@comments").json(&bad).send();
    assert_error(bad.await.unwrap(), 400, "validation_failed").await;
    assert_eq!(conversation(&server, None).await["items_total"], 1);
}

#[tokio::test]
async fn editing_needs_the_setting_and_the_right_to_edit_the_comment() {
    let server = TestServer::start().await;
    discussed_page(&server).await;
    server.user("rita", &["Reviewer"], &[]).await;
    let annas = comment(&server, "anna", "page/@comments", "Anna's").await;
    let change =
        |user: &str, text: &str| server.as_user(user, Method::PATCH, &annas).json(&json!({"text": text})).send();

    assert_error(change("anna", "Changed").await.unwrap(), 403, "forbidden").await;
    assert_eq!(conversation(&server, Some("anna")).await["items"][0]["is_editable"], false);
    set_records(&server, json!({EDIT: true})).await;
    assert_eq!(conversation(&server, Some("anna")).await["items"][0]["is_editable"], true);
    assert_eq!(conversation(&server, Some("ben")).await["items"][0]["is_editable"], false);
    assert_error(change("ben", "Not mine").await.unwrap(), 403, "forbidden").await;

    let before = conversation(&server, None).await["items"][0]["modification_date"].clone();
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let response = change("anna", "Changed").await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(response.headers()["location"].to_str().unwrap(), server.url(&annas));
    let response = change("rita", "Reviewed").await.unwrap();
    assert_eq!(response.status(), 204, "reviewers edit every comment");
    let item = conversation(&server, None).await["items"][0].clone();
    assert_eq!(item["text"]["data"], "Reviewed");
    assert_ne!(item["modification_date"], before);
    assert_ne!(item["modification_date"], item["creation_date"]);

    let no_id = server.admin(Method::PATCH, "page/@comments").json(&json!({"text": "x"})).send();
    assert_error(no_id.await.unwrap(), 400, "bad_request").await;
    let empty = server.as_user("anna", Method::PATCH, &annas).json(&json!({"text": ""})).send();
    assert_error(empty.await.unwrap(), 400, "validation_failed").await;
}

#[tokio::test]
async fn deleting_removes_the_thread_and_authors_delete_only_unanswered_own_comments() {
    let server = TestServer::start().await;
    discussed_page(&server).await;
    let annas = comment(&server, "anna", "page/@comments", "Anna's").await;
    let bens = comment(&server, "ben", "page/@comments", "Ben's").await;
    comment(&server, "anna", &bens, "Answer to Ben").await;

    let delete = |user: &str, path: &str| server.as_user(user, Method::DELETE, path).send();
    assert_error(delete("anna", &annas).await.unwrap(), 403, "forbidden").await;
    set_records(&server, json!({DELETE_OWN: true})).await;
    assert_error(delete("anna", &bens).await.unwrap(), 403, "forbidden").await;
    assert_error(delete("ben", &bens).await.unwrap(), 403, "forbidden").await;
    let listed = conversation(&server, Some("ben")).await;
    let deletable: Vec<bool> = listed["items"].as_array().unwrap().iter().map(|c| c["is_deletable"] == true).collect();
    assert_eq!(deletable, [false, false, false], "Ben's has an answer; the others are not his");
    assert_eq!(delete("anna", &annas).await.unwrap().status(), 204);
    assert_eq!(texts(&conversation(&server, None).await), ["Ben's", "Answer to Ben"]);

    let response = server.admin(Method::DELETE, &bens).send().await.unwrap();
    assert_eq!(response.status(), 204, "Managers delete a comment with its replies");
    assert_eq!(conversation(&server, None).await["items_total"], 0);
    assert_error(server.admin(Method::DELETE, &bens).send().await.unwrap(), 404, "not_found").await;
    assert_error(server.admin(Method::DELETE, "page/@comments").send().await.unwrap(), 400, "bad_request").await;
}

#[tokio::test]
async fn comments_of_hidden_content_stay_hidden_and_go_with_their_object() {
    let server = TestServer::start().await;
    discussed_page(&server).await;
    comment(&server, "anna", "page/@comments", "Public").await;
    server.create("", json!({"@type": "Document", "id": "draft", "title": "Draft", "allow_discussion": true})).await;
    let response = server.admin(Method::POST, "draft/@comments").json(&json!({"text": "Internal"})).send().await;
    assert_eq!(response.unwrap().status(), 204);
    assert_error(server.anonymous(Method::GET, "draft/@comments").send().await.unwrap(), 401, "unauthorized").await;
    assert_error(server.as_user("ben", Method::GET, "draft/@comments").send().await.unwrap(), 403, "forbidden").await;

    let count = || async {
        let row: (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM comment").fetch_one(server.app.store.pool()).await.unwrap();
        row.0
    };
    assert_eq!(count().await, 2);
    assert_eq!(server.admin(Method::DELETE, "draft").send().await.unwrap().status(), 204);
    assert_eq!(count().await, 1, "the deleted object's comments went with it");
}

#[tokio::test]
async fn intelligent_text_is_served_as_safe_html() {
    let server = TestServer::start().await;
    discussed_page(&server).await;
    set_records(&server, json!({TRANSFORM: "text/x-web-intelligent"})).await;
    comment(&server, "anna", "page/@comments", "See https://plone.org\n<script>x</script>").await;
    let item = conversation(&server, None).await["items"][0].clone();
    assert_eq!(item["text"]["mime-type"], "text/html");
    assert_eq!(
        item["text"]["data"],
        "See <a href=\"https://plone.org\" rel=\"nofollow\">https://plone.org</a><br />&lt;script&gt;x&lt;/script&gt;"
    );
    let response = server.admin(Method::PATCH, "@registry").json(&json!({TRANSFORM: "text/html"})).send().await;
    assert_error(response.unwrap(), 400, "validation_failed").await;
}

#[tokio::test]
async fn the_discussion_panel_shows_and_saves_the_settings() {
    let server = TestServer::start().await;
    let (status, panel) = server.get_json("@controlpanels/discussion").await;
    assert_eq!(status, 200, "{panel}");
    assert_eq!(panel["data"]["globally_enabled"], true);
    assert_eq!(panel["data"]["edit_comment_enabled"], false);
    assert_eq!(panel["schema"]["properties"]["anonymous_comments"]["type"], "boolean");
    let body = json!({"anonymous_comments": true, "edit_comment_enabled": true});
    let response = server.admin(Method::PATCH, "@controlpanels/discussion").json(&body).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, record) = server.get_json(&format!("@registry/{ANONYMOUS}")).await;
    assert_eq!(record, true);
    let (_, panels) = server.get_json("@controlpanels").await;
    let discussion =
        panels.as_array().unwrap().iter().find(|p| p["@id"] == json!(server.url("@controlpanels/discussion")));
    assert_eq!(discussion.map(|p| &p["group"]), Some(&json!("Content")), "{panels}");
    let member =
        server.anonymous(Method::PATCH, "@controlpanels/discussion").json(&json!({"anonymous_comments": false}));
    assert_error(member.send().await.unwrap(), 401, "unauthorized").await;
}

/// A listing of many objects that take comments reads the site-wide switch once, not once
/// per object. (It shows on PostgreSQL, where settings are read afresh; SQLite's store
/// remembers them between requests.)
#[tokio::test]
async fn a_listing_reads_the_site_switch_once() {
    let server = TestServer::start_uncached().await;
    for (folder, allow) in [("open", true), ("closed", false)] {
        server.create("", json!({"@type": "Folder", "id": folder, "title": folder})).await;
        for i in 0..6 {
            let page = json!({"@type": "Document", "id": format!("p{i}"), "title": "Page", "allow_discussion": allow});
            server.create(folder, page).await;
        }
    }
    let mut counts = Vec::new();
    for folder in ["open", "closed"] {
        let before = server.app.store.query_count();
        let (status, listing) = server.get_json(&format!("{folder}?fullobjects=1")).await;
        assert_eq!(status, 200);
        assert_eq!(listing["items"][0]["allow_discussion"], json!(folder == "open"));
        counts.push(server.app.store.query_count() - before);
    }
    assert!(counts[0] <= counts[1] + 1, "statements with and without discussion: {counts:?}");
}

#[tokio::test]
async fn comments_show_their_authors_portraits() {
    let server = TestServer::start().await;
    discussed_page(&server).await;
    let gif = "R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=";
    let upload = json!({"portrait": {"data": gif, "encoding": "base64", "filename": "anna.gif"}});
    let response = server.as_user("anna", Method::PATCH, "@users/anna").json(&upload).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let by_anna = comment(&server, "anna", "page/@comments", "With a face").await;
    comment(&server, "ben", "page/@comments", "Without one").await;
    let listed = conversation(&server, None).await;
    let images: Vec<&Value> = listed["items"].as_array().unwrap().iter().map(|c| &c["author_image"]).collect();
    assert_eq!(images, vec![&json!(format!("{}/@portrait/anna", server.site)), &Value::Null]);
    let (_, one) = read(server.anonymous(Method::GET, &by_anna).send().await.unwrap()).await;
    assert_eq!(one["author_image"], json!(format!("{}/@portrait/anna", server.site)));
}
