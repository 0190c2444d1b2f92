//! Content rules: Site Setup's panel (`@controlpanels/content-rules`), assignments
//! (`@content-rules`), and rules running after the writes that trigger them: mail through the
//! outbox, copies without end prevented, signed webhooks retried through their outbox, failed
//! actions that never fail the write, and the permissions of each.

use crate::support::{TestServer, assert_error, read, uid};
use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Row;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Creates a rule as admin; its id.
async fn rule(server: &TestServer, title: &str, event: &str) -> String {
    let body =
        json!({"title": title, "description": "", "event": event, "enabled": true, "stop": false, "cascading": false});
    let (status, rule) =
        read(server.admin(Method::POST, "@controlpanels/content-rules").json(&body).send().await.unwrap()).await;
    assert_eq!(status, 201, "{rule}");
    rule["id"].as_str().unwrap().to_owned()
}

/// Adds a condition or an action to a rule.
async fn element(server: &TestServer, rule_id: &str, category: &str, body: Value) {
    let path = format!("@controlpanels/content-rules/{rule_id}/{category}");
    let (status, answer) = read(server.admin(Method::POST, &path).json(&body).send().await.unwrap()).await;
    assert_eq!(status, 201, "{answer}");
}

/// Assigns a rule to a folder (`""` for the site root).
async fn assign(server: &TestServer, folder: &str, rule_id: &str) {
    let path = if folder.is_empty() {
        format!("@content-rules/{rule_id}")
    } else {
        format!("{folder}/@content-rules/{rule_id}")
    };
    assert_eq!(server.admin(Method::POST, &path).send().await.unwrap().status(), 200);
}

/// Waits until the rules queued so far ran (or failed).
async fn rules_ran(server: &TestServer) {
    for _ in 0..150 {
        let (pending,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM content_rule_job WHERE failed IS NULL")
            .fetch_one(server.app.store.pool())
            .await
            .unwrap();
        if pending == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("queued content rules did not run");
}

async fn outbox(server: &TestServer) -> Vec<(String, String, String)> {
    let rows = sqlx::query("SELECT recipients, subject, body FROM mail_outbox ORDER BY id")
        .fetch_all(server.app.store.pool())
        .await
        .unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect()
}

#[tokio::test]
async fn a_rule_mails_the_press_office_when_a_page_in_its_folder_is_published() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "aktuelles", "title": "Aktuelles"})).await;
    server.create("aktuelles", json!({"@type": "Folder", "id": "archiv", "title": "Archiv"})).await;
    let rule_id = rule(&server, "Mail on publish", "Workflow state changed").await;
    element(
        &server,
        &rule_id,
        "condition",
        json!({"type": "plone.conditions.WorkflowState", "wf_states": ["published"]}),
    )
    .await;
    let mail = json!({"type": "plone.actions.Mail", "subject": "Neu: ${title}", "recipients": "presse@gemeinde.example, ${user_email}",
                      "exclude_actor": true, "source": "", "message": "${title} ist online: ${absolute_url} (${review_state_title})"});
    element(&server, &rule_id, "action", mail).await;
    assign(&server, "aktuelles", &rule_id).await;

    server.create("aktuelles", json!({"@type": "Document", "id": "fest", "title": "Dorffest"})).await;
    server.create("", json!({"@type": "Document", "id": "anderswo", "title": "Anderswo"})).await;
    server.create("aktuelles/archiv", json!({"@type": "Document", "id": "alt", "title": "Alt"})).await;
    for path in ["aktuelles/fest", "anderswo", "aktuelles/archiv/alt"] {
        server.transition(path, "publish").await;
    }
    rules_ran(&server).await;
    let sent = outbox(&server).await;
    assert_eq!(sent.len(), 1, "only the page in the folder itself, not below it: {sent:?}");
    let (recipients, subject, body) = &sent[0];
    assert_eq!(recipients, "presse@gemeinde.example", "the actor (admin, without an address) is left out");
    assert_eq!(subject, "Neu: Dorffest");
    assert!(body.contains(&server.url("aktuelles/fest")) && body.contains("Published"), "{body}");

    // Applied to sub-folders, the rule reaches the archive too; retracting is no publication.
    let bubble = json!({"form.button.Bubble": true, "rule_ids": [rule_id]});
    let (status, answer) =
        read(server.admin(Method::PATCH, "aktuelles/@content-rules").json(&bubble).send().await.unwrap()).await;
    assert_eq!(
        (status, answer["message"].clone()),
        (200, json!(format!("Successfully applied ['{rule_id}'] to subfolders")))
    );
    server.transition("aktuelles/archiv/alt", "retract").await;
    server.transition("aktuelles/archiv/alt", "publish").await;
    rules_ran(&server).await;
    assert_eq!(outbox(&server).await.len(), 2);

    let (_, archive) = server.get_json("aktuelles/archiv/@content-rules").await;
    let acquired = &archive["content-rules"]["acquired_rules"];
    assert_eq!(acquired[0]["id"], json!(rule_id), "{archive}");
    assert_eq!(archive["content-rules"]["assigned_rules"], json!([]));
    let (_, panel) = server.get_json("@controlpanels/content-rules").await;
    assert_eq!(panel["items"][0][0]["assigned"], json!(true), "{panel}");
    assert_eq!(panel["items"][0][0]["trigger"], json!("Workflow state changed"));
}

#[tokio::test]
async fn the_events_of_a_rules_actions_trigger_rules_only_one_level_deep() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "x", "title": "X"})).await;
    server.create("", json!({"@type": "Folder", "id": "y", "title": "Y"})).await;
    let to_y = rule(&server, "Copy to Y", "Object added to this container").await;
    element(&server, &to_y, "action", json!({"type": "plone.actions.Copy", "target_folder": "/y"})).await;
    assign(&server, "x", &to_y).await;
    let to_x = rule(&server, "Copy to X", "Object added to this container").await;
    element(&server, &to_x, "action", json!({"type": "plone.actions.Copy", "target_folder": "/x"})).await;
    assign(&server, "y", &to_x).await;

    server.create("x", json!({"@type": "Document", "id": "a", "title": "A"})).await;
    rules_ran(&server).await;
    let count = |folder: &'static str| {
        let server = &server;
        async move { server.get_json(folder).await.1["items_total"].as_i64().unwrap() }
    };
    assert_eq!(
        (count("x").await, count("y").await),
        (1, 1),
        "the copy into Y triggers nothing: the rule does not cascade"
    );

    for id in [&to_y, &to_x] {
        let path = format!("@controlpanels/content-rules/{id}");
        assert_eq!(
            server.admin(Method::PATCH, &path).json(&json!({"cascading": true})).send().await.unwrap().status(),
            204
        );
    }
    server.create("x", json!({"@type": "Document", "id": "b", "title": "B"})).await;
    rules_ran(&server).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    rules_ran(&server).await;
    assert_eq!(
        (count("x").await, count("y").await),
        (3, 2),
        "B, its copy in Y, and that copy's copy back in X: no more"
    );
}

/// A receiver that answers 500 until told otherwise, keeping what it was sent.
async fn webhook_receiver() -> (String, Arc<Mutex<Vec<String>>>, Arc<Mutex<u16>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let received = Arc::new(Mutex::new(Vec::new()));
    let status = Arc::new(Mutex::new(500_u16));
    let (kept, answer) = (received.clone(), status.clone());
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            let mut request = Vec::new();
            let mut buffer = [0_u8; 4096];
            while let Ok(n) = socket.read(&mut buffer).await {
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buffer[..n]);
                let text = String::from_utf8_lossy(&request).to_string();
                if let Some((head, body)) = text.split_once("\r\n\r\n") {
                    let length = head
                        .lines()
                        .find_map(|l| {
                            l.to_lowercase()
                                .strip_prefix("content-length: ")
                                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                        })
                        .unwrap_or(0);
                    if body.len() >= length {
                        break;
                    }
                }
            }
            kept.lock().unwrap().push(String::from_utf8_lossy(&request).to_string());
            let code = *answer.lock().unwrap();
            let reply = format!("HTTP/1.1 {code} X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
            let _ = socket.write_all(reply.as_bytes()).await;
        }
    });
    (url, received, status)
}

#[tokio::test]
async fn a_webhook_is_signed_retried_and_shown_to_managers_until_delivered() {
    let server = TestServer::start().await;
    let pause = json!({"wcs.backend.contentrules.webhook_first_pause": 1});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&pause).send().await.unwrap().status(), 204);
    let (url, received, status) = webhook_receiver().await;
    let rule_id = rule(&server, "Rebuild the static site", "Object modified").await;
    element(&server, &rule_id, "action", json!({"type": "wcs.actions.Webhook", "url": url, "secret": "s3cret"})).await;
    assign(&server, "", &rule_id).await;
    let (_, action) = server.get_json(&format!("@controlpanels/content-rules/{rule_id}/action/0")).await;
    assert_eq!(action["url"], json!(url));
    assert!(action.get("secret").is_none(), "the secret is never shown: {action}");
    // Volto's edit form sends back what it read, with a field changed.
    let mut edited = action.clone();
    edited["url"] = json!(format!("{url}?v=2"));
    let path = format!("@controlpanels/content-rules/{rule_id}/action/0");
    assert_eq!(server.admin(Method::PATCH, &path).json(&edited).send().await.unwrap().status(), 204);
    let back = json!({"url": url});
    assert_eq!(server.admin(Method::PATCH, &path).json(&back).send().await.unwrap().status(), 204);
    let (_, action) = server.get_json(&path).await;
    assert_eq!(action["url"], json!(url), "the edit took; the secret, left out, stays (the signature below)");

    let page = server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let response = server.admin(Method::PATCH, "seite").json(&json!({"title": "Neue Seite"})).send().await.unwrap();
    assert_eq!(response.status(), 204);
    rules_ran(&server).await;
    let mut shown = Value::Null;
    for _ in 0..100 {
        shown = server.get_json("@content-rules-deliveries").await.1;
        if shown["webhooks"][0]["attempts"].as_i64() >= Some(1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let delivery = &shown["webhooks"][0];
    assert_eq!(
        (delivery["state"].as_str(), delivery["rule"].as_str()),
        (Some("pending"), Some(rule_id.as_str())),
        "{shown}"
    );
    assert!(delivery["last_error"].as_str().unwrap_or_default().contains("500"), "{shown}");
    let editor = server.as_user("editor", Method::GET, "@content-rules-deliveries");
    server.user("editor", &["Editor"], &[]).await;
    assert_eq!(editor.send().await.unwrap().status(), 403);

    *status.lock().unwrap() = 200;
    let mut delivered = false;
    for _ in 0..100 {
        if server.get_json("@content-rules-deliveries").await.1["webhooks"] == json!([]) {
            delivered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(delivered, "the retry goes through");
    let requests = received.lock().unwrap().clone();
    assert!(requests.len() >= 2, "{requests:?}");
    let last = requests.last().unwrap();
    let (head, body) = last.split_once("\r\n\r\n").unwrap();
    let signature = wcs_plugin_contentrules::signature("s3cret", body);
    assert!(head.to_lowercase().contains(&format!("x-wcs-signature: {signature}")), "{head}");
    let event: Value = serde_json::from_str(body).unwrap();
    assert_eq!(event["event"], json!("Object modified"));
    assert_eq!(event["object"]["UID"], json!(uid(&page)));
    assert_eq!(event["object"]["title"], json!("Neue Seite"));
    assert_eq!(event["actor"], json!("admin"));
}

#[tokio::test]
async fn a_failing_action_never_fails_the_write_and_is_kept_for_managers() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "ziel", "title": "Ziel"})).await;
    let rule_id = rule(&server, "Move new pages", "Object added to this container").await;
    element(&server, &rule_id, "action", json!({"type": "plone.actions.Move", "target_folder": "/ziel"})).await;
    assign(&server, "", &rule_id).await;
    let response = server.admin(Method::DELETE, "ziel").send().await.unwrap();
    assert_eq!(response.status(), 204);
    let response = server
        .admin(Method::POST, "")
        .json(&json!({"@type": "Document", "id": "neu", "title": "Neu"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201, "the write succeeds whatever the rule does");
    rules_ran(&server).await;
    let (_, shown) = server.get_json("@content-rules-deliveries").await;
    let run = &shown["failed_runs"][0];
    assert!(run["last_error"].as_str().unwrap_or_default().contains("/ziel"), "{shown}");
    assert_eq!(server.get_json("neu").await.0, 200, "the page stayed where it was made");
}

#[tokio::test]
async fn rules_are_managed_by_managers_and_assigned_with_the_manage_rules_permission() {
    let server = TestServer::start().await;
    server.user("editor", &["Editor"], &[]).await;
    server.user("siteadmin", &["Site Administrator"], &[]).await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    let rule_id = rule(&server, "Log", "Object modified").await;
    let panel = server.as_user("editor", Method::GET, "@controlpanels/content-rules").send().await.unwrap();
    assert_eq!(panel.status(), 403);
    let create = json!({"title": "Mine", "event": "Object modified"});
    let response =
        server.as_user("editor", Method::POST, "@controlpanels/content-rules").json(&create).send().await.unwrap();
    assert_eq!(response.status(), 403);
    let response = server.as_user("editor", Method::POST, &format!("f/@content-rules/{rule_id}")).send().await.unwrap();
    assert_eq!(response.status(), 403);
    let response =
        server.as_user("siteadmin", Method::POST, &format!("f/@content-rules/{rule_id}")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let (_, rules) = read(server.as_user("siteadmin", Method::GET, "f/@content-rules").send().await.unwrap()).await;
    assert_eq!(rules["content-rules"]["assigned_rules"][0]["id"], json!(rule_id));

    let disable = json!({"form.button.Disable": true, "rule_ids": [rule_id]});
    let (status, answer) =
        read(server.admin(Method::PATCH, "f/@content-rules").json(&disable).send().await.unwrap()).await;
    assert_eq!((status, answer["message"].clone()), (200, json!(format!("Successfully disabled rules ['{rule_id}']"))));
    let (_, rules) = server.get_json("f/@content-rules").await;
    assert_eq!(rules["content-rules"]["assigned_rules"][0]["enabled"], json!(false));
    let unassign = json!({"rule_ids": [rule_id]});
    assert_eq!(server.admin(Method::DELETE, "f/@content-rules").json(&unassign).send().await.unwrap().status(), 204);
    let (_, rules) = server.get_json("f/@content-rules").await;
    assert_eq!(rules["content-rules"]["assignable_rules"][0]["id"], json!(rule_id));
}

#[tokio::test]
async fn bad_rules_conditions_and_actions_are_refused_clearly() {
    let server = TestServer::start().await;
    let panel = "@controlpanels/content-rules";
    for (body, field) in [
        (json!({"event": "Object modified"}), "title"),
        (json!({"title": "T"}), "event"),
        (json!({"title": "T", "event": "Object exploded"}), "event"),
        (json!({"title": "T", "event": "Object modified", "enabled": "yes"}), "enabled"),
        (json!({"title": "T", "event": "Object modified", "colour": "red"}), "colour"),
    ] {
        let body =
            assert_error(server.admin(Method::POST, panel).json(&body).send().await.unwrap(), 400, "invalid_parameter")
                .await;
        assert_eq!(body["errors"][0]["field"], json!(field), "{body}");
    }
    let rule_id = rule(&server, "T", "Object modified").await;
    let elements = format!("{panel}/{rule_id}/condition");
    let response =
        server.admin(Method::POST, &elements).json(&json!({"type": "plone.actions.Mail"})).send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
    let response = server
        .admin(Method::POST, &elements)
        .json(&json!({"type": "plone.conditions.PortalType", "check_types": "Document"}))
        .send();
    assert_error(response.await.unwrap(), 400, "validation_failed").await;
    let actions = format!("{panel}/{rule_id}/action");
    let response = server
        .admin(Method::POST, &actions)
        .json(&json!({"type": "plone.actions.Copy", "target_folder": "/nowhere"}))
        .send();
    assert_error(response.await.unwrap(), 400, "invalid_parameter").await;
    let response = server
        .admin(Method::POST, &actions)
        .json(&json!({"type": "wcs.actions.Webhook", "url": "file:///etc/passwd"}))
        .send();
    assert_error(response.await.unwrap(), 400, "invalid_parameter").await;
    assert_error(server.admin(Method::GET, &format!("{panel}/rule-99")).send().await.unwrap(), 404, "not_found").await;
    assert_error(
        server.admin(Method::GET, &format!("{panel}/{rule_id}/condition/0")).send().await.unwrap(),
        404,
        "not_found",
    )
    .await;
    assert_error(
        server.admin(Method::GET, &format!("{panel}/{rule_id}/nonsense/0")).send().await.unwrap(),
        404,
        "not_found",
    )
    .await;
    let response = server.admin(Method::POST, "@content-rules/rule-99").send().await.unwrap();
    assert_error(response, 404, "not_found").await;
    let response = server
        .admin(Method::PATCH, "@content-rules")
        .json(&json!({"operation": "move_sideways", "rule_id": rule_id}))
        .send();
    assert_error(response.await.unwrap(), 400, "invalid_parameter").await;

    let (_, events) = server.get_json("@vocabularies/plone.contentrules.events").await;
    let titles: Vec<&str> = events["items"].as_array().unwrap().iter().filter_map(|t| t["title"].as_str()).collect();
    assert!(titles.contains(&"Comment added") && titles.contains(&"Workflow state changed"), "{events}");
}

#[tokio::test]
async fn a_removal_in_the_folder_triggers_its_rule_and_one_elsewhere_does_not() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "archiv", "title": "Archiv"})).await;
    let rule_id = rule(&server, "Mail on delete", "Object removed from this container").await;
    let mail = json!({"type": "plone.actions.Mail", "subject": "Gelöscht: ${id}", "recipients": "archiv@gemeinde.example",
                      "message": "${path}"});
    element(&server, &rule_id, "action", mail).await;
    assign(&server, "archiv", &rule_id).await;
    server.create("archiv", json!({"@type": "Document", "id": "alt", "title": "Alt"})).await;
    server.create("", json!({"@type": "Document", "id": "draussen", "title": "Draußen"})).await;
    for path in ["archiv/alt", "draussen"] {
        assert_eq!(server.admin(Method::DELETE, path).send().await.unwrap().status(), 204);
    }
    rules_ran(&server).await;
    let sent = outbox(&server).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].1, "Gelöscht: alt");
    assert!(sent[0].2.ends_with("/archiv/alt"), "{sent:?}");
}

/// The enqueue query climbs from the changed object to the site root: a rule assigned to a
/// folder applies to the objects in it, to those further down only once it applies to
/// sub-folders, and never to objects outside, however many rules there are elsewhere.
#[tokio::test]
async fn a_folders_rule_reaches_sub_folders_only_when_told_and_never_outside() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "amt", "title": "Amt"})).await;
    server.create("amt", json!({"@type": "Folder", "id": "team", "title": "Team"})).await;
    server.create("amt/team", json!({"@type": "Document", "id": "liste", "title": "Liste"})).await;
    server.create("amt", json!({"@type": "Document", "id": "info", "title": "Info"})).await;
    server.create("", json!({"@type": "Document", "id": "aussen", "title": "Außen"})).await;
    let rule_id = rule(&server, "Mail on change", "Object modified").await;
    let mail = json!({"type": "plone.actions.Mail", "subject": "Geändert: ${id}", "recipients": "amt@gemeinde.example",
                      "message": "${path}"});
    element(&server, &rule_id, "action", mail).await;
    assign(&server, "amt", &rule_id).await;
    for n in 0..5 {
        let elsewhere = rule(&server, &format!("Woanders {n}"), "Object modified").await;
        assign(&server, "", &elsewhere).await;
    }
    let change = |path: &'static str, title: &'static str| {
        let server = &server;
        async move {
            let answer = server.admin(Method::PATCH, path).json(&json!({"title": title})).send().await.unwrap();
            assert_eq!(answer.status(), 204);
        }
    };
    change("amt/info", "Neu").await;
    change("amt/team/liste", "Neu").await;
    change("aussen", "Neu").await;
    rules_ran(&server).await;
    let subjects = |sent: Vec<(String, String, String)>| sent.into_iter().map(|(_, s, _)| s).collect::<Vec<_>>();
    assert_eq!(subjects(outbox(&server).await), ["Geändert: info"], "only the object in the folder itself");

    let bubble = json!({"rule_ids": [rule_id], "form.button.Bubble": true});
    let answer = server.admin(Method::PATCH, "amt/@content-rules").json(&bubble).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    change("amt/team/liste", "Neuer").await;
    change("aussen", "Neuer").await;
    rules_ran(&server).await;
    assert_eq!(subjects(outbox(&server).await), ["Geändert: info", "Geändert: liste"], "and now the sub-folder's");
}

#[tokio::test]
async fn a_workflow_transition_condition_picks_the_transition_not_the_state() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "amt", "title": "Amt"})).await;
    server.create("amt", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let rule_id = rule(&server, "Zur Prüfung", "Workflow state changed").await;
    let (_, offered) = server.get_json(&format!("@controlpanels/content-rules/{rule_id}")).await;
    let addable: Vec<&str> =
        offered["addable_conditions"].as_array().unwrap().iter().filter_map(|c| c["addview"].as_str()).collect();
    assert!(addable.contains(&"plone.conditions.WorkflowTransition"), "{addable:?}");
    element(
        &server,
        &rule_id,
        "condition",
        json!({"type": "plone.conditions.WorkflowTransition", "wf_transitions": ["submit"]}),
    )
    .await;
    let mail = json!({"type": "plone.actions.Mail", "subject": "Bitte prüfen: ${title}", "recipients": "pruefung@gemeinde.example",
                      "source": "", "message": "${absolute_url}"});
    element(&server, &rule_id, "action", mail).await;
    assign(&server, "amt", &rule_id).await;

    server.transition("amt/seite", "publish").await;
    server.transition("amt/seite", "retract").await;
    rules_ran(&server).await;
    assert!(outbox(&server).await.is_empty(), "publishing and retracting are not submitting");
    server.transition("amt/seite", "submit").await;
    rules_ran(&server).await;
    let sent = outbox(&server).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].1, "Bitte prüfen: Seite");

    // Rules of other triggers are not offered the condition, nor may they take it.
    let other = rule(&server, "Geändert", "Object modified").await;
    let (_, offered) = server.get_json(&format!("@controlpanels/content-rules/{other}")).await;
    assert!(!offered["addable_conditions"].to_string().contains("WorkflowTransition"));
    let refused = server
        .admin(Method::POST, &format!("@controlpanels/content-rules/{other}/condition"))
        .json(&json!({"type": "plone.conditions.WorkflowTransition", "wf_transitions": ["submit"]}))
        .send()
        .await
        .unwrap();
    assert_error(refused, 400, "bad_request").await;
}

#[tokio::test]
async fn rules_on_the_site_react_to_users_created_logging_in_and_out() {
    let server = TestServer::start().await;
    let mut rules = Vec::new();
    for (event, subject) in [
        ("User created", "Neu: ${user_id}"),
        ("User logged in", "Angemeldet: ${user_id}"),
        ("User logged out", "Abgemeldet: ${user_id}"),
    ] {
        let rule_id = rule(&server, subject, event).await;
        let mail = json!({"type": "plone.actions.Mail", "subject": subject, "recipients": "sicherheit@gemeinde.example",
                          "source": "", "message": "${user_fullname}"});
        element(&server, &rule_id, "action", mail).await;
        rules.push(rule_id);
    }
    // Assigned to a folder only, they see nothing: user events happen on the site.
    server.create("", json!({"@type": "Folder", "id": "ordner", "title": "Ordner"})).await;
    for rule_id in &rules {
        assign(&server, "ordner", rule_id).await;
    }
    let user = json!({"username": "lena", "email": "lena@gemeinde.example", "fullname": "Lena Berg", "password": "sehr-geheim-123"});
    assert_eq!(server.admin(Method::POST, "@users").json(&user).send().await.unwrap().status(), 201);
    rules_ran(&server).await;
    assert!(outbox(&server).await.is_empty(), "{:?}", outbox(&server).await);

    for rule_id in &rules {
        assign(&server, "", rule_id).await;
    }
    let user = json!({"username": "jonas", "email": "jonas@gemeinde.example", "fullname": "Jonas Wald", "password": "sehr-geheim-456"});
    assert_eq!(server.admin(Method::POST, "@users").json(&user).send().await.unwrap().status(), 201);
    let login = json!({"login": "jonas", "password": "sehr-geheim-456"});
    let (status, token) = read(server.anonymous(Method::POST, "@login").json(&login).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let logout = server.anonymous(Method::POST, "@logout").bearer_auth(token["token"].as_str().unwrap());
    assert_eq!(logout.send().await.unwrap().status(), 204);
    rules_ran(&server).await;
    let subjects: Vec<String> = outbox(&server).await.into_iter().map(|(_, subject, _)| subject).collect();
    assert_eq!(subjects, ["Neu: admin", "Angemeldet: jonas", "Abgemeldet: jonas"], "the creator, then the user");
    let wrong = json!({"login": "jonas", "password": "falsch"});
    assert_eq!(server.anonymous(Method::POST, "@login").json(&wrong).send().await.unwrap().status(), 401);
    rules_ran(&server).await;
    assert_eq!(outbox(&server).await.len(), 3, "a failed login is no login");
}

#[tokio::test]
async fn a_rule_made_enabled_or_disabled_between_two_edits_applies_to_the_second() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let edit = async |title: &str| {
        let patch = server.admin(Method::PATCH, "seite").json(&json!({"title": title}));
        assert_eq!(patch.send().await.unwrap().status(), 204);
    };
    // With no rule at all, writes remember that none listens.
    edit("Eins").await;
    edit("Zwei").await;
    let rule_id = rule(&server, "Mail on change", "Object modified").await;
    let mail = json!({"type": "plone.actions.Mail", "subject": "Geändert: ${title}", "recipients": "redaktion@gemeinde.example",
                      "exclude_actor": false, "source": "", "message": "${absolute_url}"});
    element(&server, &rule_id, "action", mail).await;
    assign(&server, "", &rule_id).await;
    edit("Drei").await;
    rules_ran(&server).await;
    let subjects = |sent: Vec<(String, String, String)>| sent.into_iter().map(|(_, s, _)| s).collect::<Vec<_>>();
    assert_eq!(subjects(outbox(&server).await), ["Geändert: Drei"], "the new rule applied to the next edit");

    let disable = server.admin(Method::PATCH, &format!("@controlpanels/content-rules/{rule_id}"));
    assert_eq!(disable.json(&json!({"enabled": false})).send().await.unwrap().status(), 204);
    edit("Vier").await;
    rules_ran(&server).await;
    assert_eq!(subjects(outbox(&server).await), ["Geändert: Drei"], "a disabled rule applies to none");
}
