//! `@lock`: an editor's lock keeps others' changes out (409 `locked`) until it is released,
//! runs out, or is taken over where that is allowed; the lock's token lets a request through.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn a_lock_keeps_others_edits_out_until_it_is_released() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    server.user("erika", &["Editor"], &[]).await;
    server.user("max", &["Editor"], &[]).await;
    let (_, none) = server.get_json("seite/@lock").await;
    assert_eq!(none, json!({"locked": false, "stealable": true}));

    let (status, lock) = read(server.as_user("erika", Method::POST, "seite/@lock").send().await.unwrap()).await;
    assert_eq!(status, 200, "{lock}");
    assert_eq!((&lock["locked"], &lock["creator"], &lock["timeout"]), (&json!(true), &json!("erika"), &json!(600)));
    assert_eq!(lock["name"], "plone.locking.stealable");
    let token = lock["token"].as_str().unwrap().to_owned();

    // Others see the lock but not its token, and their changes are refused.
    let (_, seen) = read(server.as_user("max", Method::GET, "seite/@lock").send().await.unwrap()).await;
    assert_eq!(seen["creator"], "erika");
    assert!(seen.get("token").is_none(), "{seen}");
    let (_, content) = read(server.as_user("max", Method::GET, "seite").send().await.unwrap()).await;
    assert_eq!(content["lock"]["creator"], "erika", "the object's own lock key says so: {content}");
    let change = json!({"title": "Von Max"});
    let (status, refused) =
        read(server.as_user("max", Method::PATCH, "seite").json(&change).send().await.unwrap()).await;
    assert_eq!((status, &refused["code"]), (409, &json!("locked")), "{refused}");
    let (status, _) = read(server.as_user("max", Method::POST, "seite/@lock").send().await.unwrap()).await;
    assert_eq!(status, 409, "a second editor cannot lock it too");
    let delete = server.as_user("max", Method::DELETE, "seite").send().await.unwrap();
    assert_eq!(delete.status().as_u16(), 409);
    // The holder edits; so does a request with the token.
    let own =
        server.as_user("erika", Method::PATCH, "seite").json(&json!({"title": "Von Erika"})).send().await.unwrap();
    assert_eq!(own.status().as_u16(), 204);
    let with_token =
        server.admin(Method::PATCH, "seite").header("Lock-Token", &token).json(&json!({"description": "x"}));
    assert_eq!(with_token.send().await.unwrap().status().as_u16(), 204);

    // A stealable lock may be released by another editor, who may then edit.
    let (status, released) = read(server.as_user("max", Method::DELETE, "seite/@lock").send().await.unwrap()).await;
    assert_eq!((status, released), (200, json!({"locked": false, "stealable": true})));
    let after = server.as_user("max", Method::PATCH, "seite").json(&change).send().await.unwrap();
    assert_eq!(after.status().as_u16(), 204);
}

#[tokio::test]
async fn non_stealable_locks_timeouts_and_bad_input() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    server.user("erika", &["Editor"], &[]).await;
    server.user("max", &["Editor"], &[]).await;
    let body = json!({"stealable": false});
    let (status, lock) =
        read(server.as_user("erika", Method::POST, "seite/@lock").json(&body).send().await.unwrap()).await;
    assert_eq!((status, &lock["stealable"]), (200, &json!(false)), "{lock}");
    let (status, _) = read(server.as_user("max", Method::DELETE, "seite/@lock").send().await.unwrap()).await;
    assert_eq!(status, 409, "not stealable");
    // A manager may force it.
    let forced = server.admin(Method::DELETE, "seite/@lock").json(&json!({"force": true})).send().await.unwrap();
    assert_eq!(forced.status().as_u16(), 200);

    // A lock runs out after its timeout.
    let (status, _) =
        read(server.as_user("erika", Method::POST, "seite/@lock").json(&json!({"timeout": 1})).send().await.unwrap())
            .await;
    assert_eq!(status, 200);
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let (_, gone) = server.get_json("seite/@lock").await;
    assert_eq!(gone["locked"], false, "{gone}");
    let edit = server.as_user("max", Method::PATCH, "seite").json(&json!({"title": "Später"})).send().await.unwrap();
    assert_eq!(edit.status().as_u16(), 204);

    for bad in [json!({"timeout": 0}), json!({"timeout": 999_999}), json!({"stealable": "ja"})] {
        let (status, refused) =
            read(server.as_user("erika", Method::POST, "seite/@lock").json(&bad).send().await.unwrap()).await;
        assert_eq!((status, &refused["code"]), (400, &json!("invalid_parameter")), "{bad}: {refused}");
    }
    let (status, _) = read(server.anonymous(Method::POST, "seite/@lock").send().await.unwrap()).await;
    assert_eq!(status, 401, "anonymous callers cannot lock");
    let (status, _) = read(server.as_user("erika", Method::PATCH, "seite/@lock").send().await.unwrap()).await;
    assert_eq!(status, 400, "nothing to refresh");
}
