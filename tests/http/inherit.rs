//! `@inherit`: a behaviour's fields from the nearest object that has them, only among the
//! objects the caller may view; and the `inherit` component, named only when expanded.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn a_behaviour_comes_from_the_nearest_object_the_caller_may_view_that_has_it() {
    let server = TestServer::start().await;
    let text = |data: &str| json!({"data": data, "content-type": "text/html", "encoding": "utf-8"});
    server.admin(Method::PATCH, "").json(&json!({"text": text("<p>Site</p>")})).send().await.unwrap();
    // A private page (folderish, with rich text) holds a published folder (without).
    server.create("", json!({"@type": "Document", "id": "page", "title": "Page", "text": text("<p>Page</p>")})).await;
    server.create("page", json!({"@type": "Folder", "id": "inner", "title": "Inner"})).await;
    server.transition("page/inner", "publish").await;
    let query = "expand.inherit.behaviors=plone.richtext,plone.navigationroot,no.such.behaviour";
    let (status, body) = server.get_json(&format!("page/inner/@inherit?{query}")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["@id"], format!("{}/@inherit?{query}", server.url("page/inner")));
    assert_eq!(body["plone.richtext"]["from"], json!({"@id": server.url("page"), "title": "Page"}));
    assert_eq!(body["plone.richtext"]["data"]["text"]["data"], "<p>Page</p>");
    assert_eq!(body["plone.navigationroot"], json!({"data": {}, "from": {"@id": server.site, "title": "Site"}}));
    assert!(body.get("no.such.behaviour").is_none());

    // The anonymous caller may not view the private page: its text never shows.
    let url = format!("page/inner/@inherit?{query}");
    let (status, body) = read(server.anonymous(Method::GET, &url).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["plone.richtext"]["from"]["@id"], server.site);
    assert_eq!(body["plone.richtext"]["data"]["text"]["data"], "<p>Site</p>");

    let (_, inner) = server.get_json("page/inner").await;
    assert!(inner["@components"].get("inherit").is_none(), "named only when expanded");
    let (_, inner) = server.get_json(&format!("page/inner?expand=inherit&{query}")).await;
    assert_eq!(inner["@components"]["inherit"]["plone.richtext"]["from"]["@id"], server.url("page"));
}
