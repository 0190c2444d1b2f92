//! Every write service leaves the events it must in the change feed, and only those: a walk
//! through each registered write service (every method but GET and HEAD), checked against
//! the frozen registry so that a new write service without an assertion here fails.

use crate::support::{ADMIN_PASSWORD, TestServer, read};
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Runs requests and checks what each added to the feed.
struct Walk<'s> {
    server: &'s TestServer,
    seen: i64,
    covered: BTreeSet<(String, String)>,
}

impl Walk<'_> {
    /// Sends `request` (a use of the service `method name`), expects a success and exactly
    /// `kinds` in the feed, in order; returns the response body.
    async fn step(&mut self, method: Method, name: &str, request: RequestBuilder, kinds: &[&str]) -> Value {
        let (status, body) = read(request.send().await.unwrap()).await;
        assert!(status < 400, "{method} {name}: {status} {body}");
        let changes = self.server.recorded_changes(self.seen).await;
        let told: Vec<&str> = changes.iter().map(|(_, kind, _)| kind.as_str()).collect();
        assert_eq!(
            told,
            kinds,
            "{method} {name}: {:?}",
            changes.iter().map(|(_, kind, uid)| format!("{kind} {uid:?}")).collect::<Vec<_>>()
        );
        if let Some((last, _, _)) = changes.last() {
            self.seen = *last;
        }
        self.covered.insert((method.to_string(), name.to_owned()));
        body
    }

    /// Sends a use of a service that answers a file and writes nothing: a success, no events;
    /// returns the file.
    async fn download(&mut self, method: Method, name: &str, request: RequestBuilder) -> Vec<u8> {
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200, "{method} {name}");
        let bytes = response.bytes().await.unwrap().to_vec();
        assert!(self.server.recorded_changes(self.seen).await.is_empty(), "{method} {name}");
        self.covered.insert((method.to_string(), name.to_owned()));
        bytes
    }

    /// Sends a use of a service that always refuses (features not built): a 4xx, no events.
    async fn refused(&mut self, method: Method, name: &str, request: RequestBuilder) {
        let (status, body) = read(request.send().await.unwrap()).await;
        assert!((400..500).contains(&status), "{method} {name}: {status} {body}");
        assert!(self.server.recorded_changes(self.seen).await.is_empty(), "{method} {name}");
        self.covered.insert((method.to_string(), name.to_owned()));
    }
}

fn form(server: &TestServer, path: &str, fields: &[(&str, &str)]) -> RequestBuilder {
    server.raw(Method::POST, &server.url(path)).basic_auth("admin", Some(ADMIN_PASSWORD)).form(fields)
}

#[tokio::test]
async fn every_write_service_records_its_events() {
    let server = TestServer::start().await;
    let token = {
        let response = server.admin(Method::GET, "@@authenticator/token").send().await.unwrap();
        response.text().await.unwrap()
    };
    let seen = server.recorded_changes(0).await.last().map_or(0, |(seq, _, _)| *seq);
    let mut walk = Walk { server: &server, seen, covered: BTreeSet::new() };
    let (post, patch, put, delete) = (Method::POST, Method::PATCH, Method::PUT, Method::DELETE);
    let admin = |method: Method, path: &str| server.admin(method, path);

    // Content.
    walk.step(
        post.clone(),
        "",
        admin(post.clone(), "").json(&json!({"@type": "Folder", "id": "f", "title": "F"})),
        &["added"],
    )
    .await;
    let doc = json!({"@type": "Document", "id": "d", "title": "D"});
    walk.step(post.clone(), "", admin(post.clone(), "f").json(&doc), &["added"]).await;
    walk.step(patch.clone(), "", admin(patch.clone(), "f/d").json(&json!({"title": "D2"})), &["modified"]).await;
    let replacement = json!({"@type": "Document", "title": "D3", "text": "<p>x</p>"});
    walk.step(put.clone(), "", admin(put.clone(), "f/d").json(&replacement), &["modified"]).await;
    walk.step(
        patch.clone(),
        "",
        admin(patch.clone(), "").json(&json!({"ordering": {"obj_id": "f", "delta": "top"}})),
        &["modified"],
    )
    .await;
    walk.step(
        post.clone(),
        "@workflow",
        admin(post.clone(), "f/d/@workflow/publish"),
        &["workflow_changed", "modified"],
    )
    .await;
    walk.step(
        post.clone(),
        "@workflow-set-state",
        admin(post.clone(), "f/d/@workflow-set-state/private"),
        &["workflow_changed", "modified"],
    )
    .await;
    let sharing = json!({"entries": [{"id": "Reviewers", "type": "group", "roles": {"Reader": true}}]});
    walk.step(post.clone(), "@sharing", admin(post.clone(), "f/@sharing").json(&sharing), &["local_roles_changed"])
        .await;
    // Relations are values of the source's field: writing one modifies the source.
    let relation = json!({"items": [{"source": "/f", "target": "/f/d", "relation": "relatedItems"}]});
    walk.step(post.clone(), "@relations", admin(post.clone(), "@relations").json(&relation), &["modified"]).await;
    walk.step(delete.clone(), "@relations", admin(delete.clone(), "@relations").json(&relation), &["modified"]).await;
    walk.step(
        post.clone(),
        "@copy",
        admin(post.clone(), "@copy").json(&json!({"source": server.url("f/d")})),
        &["added", "copied"],
    )
    .await;
    walk.step(
        post.clone(),
        "@move",
        admin(post.clone(), "f/@move").json(&json!({"source": server.url("d")})),
        &["moved"],
    )
    .await;
    walk.step(post.clone(), "@trash", admin(post.clone(), "f/d-1/@trash"), &["trashed"]).await;
    // A listing query sent by POST reads: it records nothing.
    let listing = json!({"query": [{"i": "portal_type", "o": "plone.app.querystring.operation.selection.any", "v": ["Document"]}]});
    walk.step(post.clone(), "@querystring-search", admin(post.clone(), "@querystring-search").json(&listing), &[])
        .await;
    // Editing locks change no content: they record nothing.
    walk.step(post.clone(), "@lock", admin(post.clone(), "f/@lock"), &[]).await;
    walk.step(Method::PATCH, "@lock", admin(Method::PATCH, "f/@lock"), &[]).await;
    walk.step(Method::DELETE, "@lock", admin(Method::DELETE, "f/@lock"), &[]).await;
    // Aliases are addresses, not content: they record nothing.
    let alias = json!({"items": [{"path": "/kurz"}]});
    walk.step(post.clone(), "@aliases", admin(post.clone(), "f/@aliases").json(&alias), &[]).await;
    walk.step(delete.clone(), "@aliases", admin(delete.clone(), "f/@aliases").json(&alias), &[]).await;
    // Mail goes to the outbox, not into content.
    let mail = json!({"to": "a@example.org", "subject": "S", "message": "M"});
    walk.step(post.clone(), "@email-send", admin(post.clone(), "@email-send").json(&mail), &[]).await;
    let contact = json!({"from": "a@example.org", "message": "M"});
    walk.step(post.clone(), "@email-notification", admin(post.clone(), "@email-notification").json(&contact), &[])
        .await;
    // With nothing to do or refused, these change nothing.
    walk.step(post.clone(), "@upgrade", admin(post.clone(), "@upgrade"), &[]).await;
    // A site goes out and comes back: an export writes nothing; importing it after a page was
    // deleted brings that page back and leaves the rest as it is.
    walk.step(
        post.clone(),
        "",
        admin(post.clone(), "").json(&json!({"@type": "Document", "id": "moved", "title": "Moved"})),
        &["added"],
    )
    .await;
    let zip = walk.download(post.clone(), "@export", admin(post.clone(), "@export")).await;
    walk.step(delete.clone(), "", admin(delete.clone(), "moved"), &["removed"]).await;
    let boundary = "events-boundary";
    let mut upload =
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"site.zip\"\r\n\r\n")
            .into_bytes();
    upload.extend_from_slice(&zip);
    upload.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let import = admin(post.clone(), "@import")
        .header("Content-Type", format!("multipart/form-data; boundary={boundary}"))
        .body(upload);
    walk.step(post.clone(), "@import", import, &["added"]).await;
    walk.refused(post.clone(), "@addons", admin(post.clone(), "@addons/core/uninstall")).await;
    walk.refused(patch.clone(), "@transactions", admin(patch.clone(), "@transactions").json(&json!({}))).await;
    // The site panel's title is the site root's.
    let title = json!({"site_title": "Neuer Titel"});
    walk.step(patch.clone(), "@controlpanels", admin(patch.clone(), "@controlpanels/site").json(&title), &["modified"])
        .await;
    if cfg!(feature = "es-search") {
        // A query sent by POST: it reads, so it records nothing.
        let query = json!({"query": {"match_all": {}}, "size": 1});
        walk.step(post.clone(), "@raw-es-search", admin(post.clone(), "@raw-es-search").json(&query), &[]).await;
        // A rebuild derives the index from storage; storage itself does not change.
        let rebuild = json!({"action": "rebuild"});
        walk.step(post.clone(), "@es-admin", admin(post.clone(), "@es-admin").json(&rebuild), &[]).await;
    }
    if cfg!(feature = "easyform") {
        let form = json!({"@type": "EasyForm", "id": "form", "title": "Form",
                          "fields_model": [{"name": "name", "type": "TextLine", "title": "Name"}]});
        walk.step(post.clone(), "", admin(post.clone(), "").json(&form), &["added"]).await;
        // A submission is no content change: it lives in the plugin's table, not in the feed.
        let submission = json!({"form.widgets.name": "Anna"});
        walk.step(post.clone(), "@submit", admin(post.clone(), "form/@submit").json(&submission), &[]).await;
    }
    // Resumable uploads: starting one changes no content; the last chunk adds the object, or
    // changes its file.
    let upload = |path: &str| {
        admin(post.clone(), path)
            .header("Tus-Resumable", "1.0.0")
            .header("Upload-Length", "3")
            .header("Upload-Metadata", "filename YS50eHQ=")
    };
    let chunk = |url: &str| {
        server
            .raw(patch.clone(), url)
            .basic_auth("admin", Some(ADMIN_PASSWORD))
            .header("Tus-Resumable", "1.0.0")
            .header("Upload-Offset", "0")
            .header("Content-Type", "application/offset+octet-stream")
            .body("abc")
    };
    for (start, name, told) in
        [("f/@tus-upload", "@tus-upload", "added"), ("f/a.txt/@tus-replace", "@tus-replace", "modified")]
    {
        let started = upload(start).send().await.unwrap();
        assert_eq!(started.status(), 201, "{start}");
        assert!(server.recorded_changes(walk.seen).await.is_empty(), "{start} records nothing");
        walk.covered.insert(("POST".to_owned(), name.to_owned()));
        let url = started.headers()["location"].to_str().unwrap().to_owned();
        walk.step(patch.clone(), "@tus-upload", chunk(&url), &[told]).await;
    }
    if cfg!(feature = "comments") {
        let allow = admin(patch.clone(), "f").json(&json!({"allow_discussion": true}));
        walk.step(patch.clone(), "", allow, &["modified"]).await;
        let edits = json!({"plone.app.discussion.interfaces.IDiscussionSettings.edit_comment_enabled": true});
        assert_eq!(admin(patch.clone(), "@registry").json(&edits).send().await.unwrap().status(), 204);
        walk.step(
            post.clone(),
            "@comments",
            admin(post.clone(), "f/@comments").json(&json!({"text": "First"})),
            &["comment_added"],
        )
        .await;
        let (_, listed) = read(admin(Method::GET, "f/@comments").send().await.unwrap()).await;
        let comment = listed["items"][0]["comment_id"].as_str().unwrap().to_owned();
        walk.step(
            post.clone(),
            "@comments",
            admin(post.clone(), &format!("f/@comments/{comment}")).json(&json!({"text": "Reply"})),
            &["comment_added"],
        )
        .await;
        walk.step(
            patch.clone(),
            "@comments",
            admin(patch.clone(), &format!("f/@comments/{comment}")).json(&json!({"text": "Changed"})),
            &["comment_modified"],
        )
        .await;
        // Deleting a comment deletes its reply: one event each.
        walk.step(
            delete.clone(),
            "@comments",
            admin(delete.clone(), &format!("f/@comments/{comment}")),
            &["comment_removed", "comment_removed"],
        )
        .await;
    }
    if cfg!(feature = "multilingual") {
        for (id, language) in [("haus", "de"), ("maison", "fr")] {
            let page = json!({"@type": "Document", "id": id, "title": id, "language": language});
            walk.step(post.clone(), "", admin(post.clone(), "").json(&page), &["added"]).await;
        }
        let linking = admin(post.clone(), "haus/@translations").json(&json!({"id": "/maison"}));
        walk.step(post.clone(), "@translations", linking, &["translation_linked"]).await;
        let unlinking = admin(delete.clone(), "haus/@translations").json(&json!({"language": "fr"}));
        walk.step(delete.clone(), "@translations", unlinking, &["translation_unlinked"]).await;
    }
    if cfg!(feature = "contentrules") {
        // Rules are settings, not content: managing them tells nothing.
        let panel = "@controlpanels/content-rules";
        let rule = json!({"title": "R", "event": "Object copied"});
        walk.step(post.clone(), panel, admin(post.clone(), panel).json(&rule), &[]).await;
        let rule_url = format!("{panel}/rule-1");
        walk.step(patch.clone(), panel, admin(patch.clone(), &rule_url).json(&json!({"description": "D"})), &[]).await;
        walk.step(post.clone(), "@content-rules", admin(post.clone(), "f/@content-rules/rule-1"), &[]).await;
        let enable = json!({"form.button.Enable": true, "rule_ids": ["rule-1"]});
        walk.step(patch.clone(), "@content-rules", admin(patch.clone(), "f/@content-rules").json(&enable), &[]).await;
        let unassign = json!({"rule_ids": ["rule-1"]});
        walk.step(delete.clone(), "@content-rules", admin(delete.clone(), "f/@content-rules").json(&unassign), &[])
            .await;
        walk.step(delete.clone(), panel, admin(delete.clone(), &rule_url), &[]).await;
    }
    // Types are settings too: editing them tells nothing.
    let types_panel = "@controlpanels/dexterity-types";
    let made = json!({"title": "Aushang"});
    walk.step(post.clone(), types_panel, admin(post.clone(), types_panel).json(&made), &[]).await;
    let aushang = format!("{types_panel}/aushang");
    walk.step(patch.clone(), types_panel, admin(patch.clone(), &aushang).json(&json!({"description": "D"})), &[]).await;
    let field = json!({"factory": "Text", "title": "Notiz"});
    walk.step(post.clone(), "@types", admin(post.clone(), "@types/aushang").json(&field), &[]).await;
    let renamed = json!({"title": "Vermerk"});
    walk.step(patch.clone(), "@types", admin(patch.clone(), "@types/aushang/notiz").json(&renamed), &[]).await;
    walk.step(delete.clone(), "@types", admin(delete.clone(), "@types/aushang/notiz"), &[]).await;
    walk.step(put.clone(), "@types", admin(put.clone(), "@types/aushang").json(&json!({"properties": {}})), &[]).await;
    walk.step(delete.clone(), types_panel, admin(delete.clone(), &aushang), &[]).await;
    walk.step(post.clone(), "@untrash", admin(post.clone(), "f/d-1/@untrash"), &["untrashed"]).await;
    walk.step(delete.clone(), "", admin(delete.clone(), "f/d-1"), &["removed"]).await;

    // Working copies.
    walk.step(
        post.clone(),
        "",
        admin(post.clone(), "").json(&json!({"@type": "ContentPage", "id": "p", "title": "P"})),
        &["added"],
    )
    .await;
    walk.step(post.clone(), "@workingcopy", admin(post.clone(), "p/@workingcopy"), &["added", "copied", "checked_out"])
        .await;
    let copy_edit = json!({"title": "P2"});
    walk.step(patch.clone(), "", admin(patch.clone(), "working_copy_of_p").json(&copy_edit), &["modified"]).await;
    walk.step(
        patch.clone(),
        "@workingcopy",
        admin(patch.clone(), "p/@workingcopy"),
        &["modified", "removed", "checked_in"],
    )
    .await;
    walk.step(post.clone(), "@workingcopy", admin(post.clone(), "p/@workingcopy"), &["added", "copied", "checked_out"])
        .await;
    walk.step(
        delete.clone(),
        "@workingcopy",
        admin(delete.clone(), "p/@workingcopy"),
        &["removed", "checkout_cancelled"],
    )
    .await;

    // Versions, by REST and by the browser forms.
    let versions = |method: Method, path: &str| admin(method, path).header("X-CSRF-TOKEN", &token);
    walk.step(post.clone(), "@versions", versions(post.clone(), "p/@versions"), &["version_created"]).await;
    walk.step(patch.clone(), "", admin(patch.clone(), "p").json(&json!({"title": "P3"})), &["modified"]).await;
    walk.step(
        post.clone(),
        "@versions",
        versions(post.clone(), "p/@versions/1/restore"),
        &["modified", "version_restored"],
    )
    .await;
    walk.step(
        patch.clone(),
        "@history",
        admin(patch.clone(), "p/@history").json(&json!({"version": 1})),
        &["modified", "version_restored"],
    )
    .await;
    walk.step(delete.clone(), "@versions", versions(delete.clone(), "p/@versions/1"), &["version_deleted"]).await;
    walk.step(
        post.clone(),
        "create_version",
        form(&server, "p/create_version", &[("_authenticator", &token)]),
        &["version_created"],
    )
    .await;
    walk.step(patch.clone(), "", admin(patch.clone(), "p").json(&json!({"title": "P4"})), &["modified"]).await;
    let chosen = [("version_id", "0"), ("_authenticator", token.as_str())];
    walk.step(
        post.clone(),
        "restore_version",
        form(&server, "p/restore_version", &chosen),
        &["modified", "version_restored"],
    )
    .await;
    walk.step(post.clone(), "delete_version", form(&server, "p/delete_version", &chosen), &["version_deleted"]).await;

    // Writes that change no content leave no entry.
    let user = json!({"username": "anna", "password": "secret-anna", "email": "anna@example.org"});
    walk.step(post.clone(), "@users", admin(post.clone(), "@users").json(&user), &["user_created"]).await;
    walk.step(patch.clone(), "@users", admin(patch.clone(), "@users/anna").json(&json!({"fullname": "Anna"})), &[])
        .await;
    walk.step(delete.clone(), "@users", admin(delete.clone(), "@users/anna"), &[]).await;
    walk.step(post.clone(), "@groups", admin(post.clone(), "@groups").json(&json!({"groupname": "editors"})), &[])
        .await;
    walk.step(
        patch.clone(),
        "@groups",
        admin(patch.clone(), "@groups/editors").json(&json!({"title": "Editors"})),
        &[],
    )
    .await;
    walk.step(delete.clone(), "@groups", admin(delete.clone(), "@groups/editors"), &[]).await;
    walk.step(
        patch.clone(),
        "@registry",
        admin(patch.clone(), "@registry").json(&json!({"plone.default_language": "de"})),
        &[],
    )
    .await;
    let login = json!({"login": "admin", "password": ADMIN_PASSWORD});
    let jwt = walk
        .step(post.clone(), "@login", server.anonymous(post.clone(), "@login").json(&login), &["user_logged_in"])
        .await;
    let jwt = jwt["token"].as_str().unwrap().to_owned();
    walk.step(Method::OPTIONS, "@login", server.anonymous(Method::OPTIONS, "@login"), &[]).await;
    walk.step(post.clone(), "@login-renew", server.anonymous(post.clone(), "@login-renew").bearer_auth(&jwt), &[])
        .await;
    walk.step(
        post.clone(),
        "@logout",
        server.anonymous(post.clone(), "@logout").bearer_auth(&jwt),
        &["user_logged_out"],
    )
    .await;
    let login_form =
        server.raw(post.clone(), &server.url("login")).form(&[("login", "admin"), ("password", ADMIN_PASSWORD)]);
    walk.step(post.clone(), "login", login_form, &["user_logged_in"]).await;

    let writes: BTreeSet<(String, String)> = server
        .app
        .registry
        .services()
        .iter()
        .filter(|(_, s)| s.method != Method::GET && s.method != Method::HEAD)
        .map(|(_, s)| (s.method.to_string(), s.name.to_owned()))
        .collect();
    let missing: Vec<_> = writes.difference(&walk.covered).collect();
    assert!(missing.is_empty(), "write services without an event assertion: {missing:?}");
}
