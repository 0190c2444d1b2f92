//! `@move` and `@copy`.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn move_by_url_path_or_uid() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "Target"})).await;
    server.create("", json!({"@type": "Document", "title": "One"})).await;
    server.create("", json!({"@type": "Document", "title": "Two"})).await;
    let three = server.create("", json!({"@type": "Document", "title": "Three"})).await;
    let response = server
        .admin(Method::POST, "target/@move")
        .json(&json!({"source": [server.url("one"), "/Plone/two", three["UID"]]}))
        .send()
        .await
        .unwrap();
    let (status, body) = read(response).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body[0], json!({"source": server.url("one"), "target": server.url("target/one")}));
    assert_eq!(body[2]["target"], server.url("target/three").as_str());
    assert_eq!(server.get_json("target/two").await.0, 200);
    let (_, moved) = server.get_json("target/three").await;
    assert_eq!(moved["UID"], three["UID"]);
    assert_eq!(server.get_json("target").await.1["items_total"], 3);
}

#[tokio::test]
async fn moving_keeps_the_subtree_and_uniquifies_ids() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "A"})).await;
    server.create("a", json!({"@type": "Folder", "title": "Sub"})).await;
    server.create("a/sub", json!({"@type": "Document", "title": "Leaf"})).await;
    server.create("", json!({"@type": "Folder", "title": "B"})).await;
    server.create("b", json!({"@type": "Document", "title": "Sub"})).await;
    let (status, body) =
        read(server.admin(Method::POST, "b/@move").json(&json!({"source": "/sub"})).send().await.unwrap()).await;
    assert_eq!(status, 400, "unknown path must be named: {body}");
    let (status, body) =
        read(server.admin(Method::POST, "b/@move").json(&json!({"source": server.url("a/sub")})).send().await.unwrap())
            .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body[0]["target"], server.url("b/sub-1").as_str());
    assert_eq!(server.get_json("b/sub-1/leaf").await.0, 200);
    assert_eq!(server.get_json("b/sub").await.1["@type"], "Document");
}

#[tokio::test]
async fn move_refuses_cycles_disallowed_types_and_missing_sources() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "A"})).await;
    server.create("a", json!({"@type": "Folder", "title": "Inner"})).await;
    let response =
        server.admin(Method::POST, "a/inner/@move").json(&json!({"source": server.url("a")})).send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
    let response = server.admin(Method::POST, "a/@move").json(&json!({})).send().await.unwrap();
    assert_error(response, 400, "missing_property").await;
    let response = server.admin(Method::POST, "a/@move").json(&json!({"source": 5})).send().await.unwrap();
    assert_error(response, 400, "invalid_parameter").await;
    let response =
        server.admin(Method::POST, "a/@move").json(&json!({"source": ["/Plone/nothing"]})).send().await.unwrap();
    let body = assert_error(response, 400, "validation_failed").await;
    assert!(body["errors"][0]["message"].as_str().unwrap().contains("/Plone/nothing"));
    let response = server.admin(Method::POST, "a/@move").json(&json!({"source": server.site})).send().await.unwrap();
    assert_error(response, 400, "bad_request").await;
}

#[tokio::test]
async fn copy_makes_new_objects_with_copy_of_ids() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "F"})).await;
    server.create("f", json!({"@type": "Document", "title": "Inner", "description": "d"})).await;
    let original = server.create("", json!({"@type": "Document", "title": "Doc", "text": "<p>x</p>"})).await;
    let (status, body) =
        read(server.admin(Method::POST, "@copy").json(&json!({"source": server.url("doc")})).send().await.unwrap())
            .await;
    assert_eq!(status, 200);
    assert_eq!(body[0]["target"], server.url("copy_of_doc").as_str());
    let (_, copy) = server.get_json("copy_of_doc").await;
    assert_ne!(copy["UID"], original["UID"]);
    assert_eq!(copy["text"], original["text"]);
    let (_, body) =
        read(server.admin(Method::POST, "@copy").json(&json!({"source": server.url("doc")})).send().await.unwrap())
            .await;
    assert_eq!(body[0]["target"], server.url("copy2_of_doc").as_str());
    let (_, body) =
        read(server.admin(Method::POST, "@copy").json(&json!({"source": server.url("f")})).send().await.unwrap()).await;
    assert_eq!(body[0]["target"], server.url("copy_of_f").as_str());
    let (_, inner) = server.get_json("copy_of_f/inner").await;
    assert_eq!(inner["description"], "d");
    assert_eq!(inner["parent"]["@id"], server.url("copy_of_f").as_str());
    assert_eq!(server.get_json("f/inner").await.0, 200, "the original stays");
}

#[tokio::test]
async fn anonymous_cannot_move() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "title": "F"})).await;
    let response = server.anonymous(Method::POST, "f/@move").json(&json!({"source": "/Plone/x"})).send().await.unwrap();
    assert_error(response, 401, "unauthorized").await;
}

/// Moving one object from several requests at once: each answers 200 or 409, never 5xx, and
/// the object ends up in exactly one place.
#[tokio::test]
async fn concurrent_moves_of_one_object_are_200_or_409() {
    let server = TestServer::start().await;
    let targets = ["t1", "t2", "t3", "t4", "t5", "t6"];
    for id in targets {
        server.create("", json!({"@type": "Folder", "id": id, "title": id})).await;
    }
    server.create("", json!({"@type": "Document", "id": "wanderer", "title": "Wanderer"})).await;
    let source = server.url("wanderer");
    let moves: Vec<_> = targets
        .iter()
        .map(|target| {
            let request = server.admin(Method::POST, &format!("{target}/@move")).json(&json!({"source": source}));
            tokio::spawn(request.send())
        })
        .collect();
    let mut statuses = Vec::new();
    for response in moves {
        statuses.push(response.await.unwrap().unwrap().status().as_u16());
    }
    // 400: the source was already gone from its path when the request looked it up.
    assert!(statuses.iter().all(|s| matches!(s, 200 | 400 | 409)), "{statuses:?}");
    assert!(statuses.contains(&200), "{statuses:?}");
    let mut found = 0;
    for target in targets {
        if server.get_json(&format!("{target}/wanderer")).await.0 == 200 {
            found += 1;
        }
    }
    assert_eq!(found, 1, "{statuses:?}");
}

#[tokio::test]
async fn a_copy_carries_only_what_its_maker_may_see() {
    let server = TestServer::start().await;
    server.user("carl", &["Member"], &[]).await;
    server.create("", json!({"@type": "Folder", "title": "Mine", "id": "mine"})).await;
    server.share("mine", "carl", &["Contributor"]).await;
    server.create("", json!({"@type": "Folder", "title": "Public", "id": "public"})).await;
    server.create("public", json!({"@type": "Document", "title": "Open page", "id": "open"})).await;
    server.create("public", json!({"@type": "Folder", "title": "Secret folder", "id": "secret"})).await;
    server.create("public/secret", json!({"@type": "Document", "title": "Inside", "id": "inside"})).await;
    let body = json!({"@type": "Document", "title": "Salaries", "id": "salaries", "text": "<p>confidential</p>"});
    server.create("public", body).await;
    for path in ["public", "public/open", "public/secret/inside"] {
        server.transition(path, "publish").await;
    }
    assert_eq!(server.as_user("carl", Method::GET, "public/salaries").send().await.unwrap().status(), 403);

    let copy = server.as_user("carl", Method::POST, "mine/@copy").json(&json!({"source": "/Plone/public"}));
    let (status, body) = read(copy.send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    let (_, copied) = server.get_json("mine/public?b_size=100").await;
    let ids: Vec<&str> = copied["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["@id"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(ids, vec!["open"], "neither the private page nor the private folder (with its published child)");
    assert_eq!(server.get_json("mine/public/salaries").await.0, 404);
    assert_eq!(server.get_json("mine/public/secret/inside").await.0, 404);
    server.settle().await;
    let (_, found) = server.get_json("@search?SearchableText=confidential&path.query=/Plone/mine").await;
    assert_eq!(found["items_total"], 0, "{found}");
    // A Manager's copy is whole.
    let copy = server.admin(Method::POST, "mine/@copy").json(&json!({"source": "/Plone/public"}));
    assert_eq!(copy.send().await.unwrap().status(), 200);
    assert_eq!(server.get_json("mine/copy_of_public/secret/inside").await.0, 200);
}
