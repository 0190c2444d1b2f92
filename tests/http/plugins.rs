//! The plugin host: discovery, ordering, start-up errors and a third-party plugin over HTTP.

use crate::support::{TestServer, assert_error, read};
use reqwest::Method;
use serde_json::json;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, NoContent};
use wcs_core::plugin::{PluginDescriptor, PluginSelection, Registrar, Registry, StartupError};
use wcs_core::security::{Csrf, Permission, Role};
use wcs_core::service::{ContentKind, Guard, Route, Service};

#[tokio::test]
async fn linked_plugins_are_exactly_core_shipped_and_the_example() {
    let server = TestServer::start().await;
    let mut expected: Vec<&str> = vec!["core", "example-hello"];
    expected.extend(wcs::SHIPPED_PLUGINS);
    expected.sort();
    let mut built = server.app.registry.plugin_ids().to_vec();
    built.sort();
    assert_eq!(built, expected);
}

#[tokio::test]
async fn third_party_service_and_serializer_answer_over_http() {
    let server = TestServer::start().await;
    let (status, body) = read(server.admin(Method::GET, "@hello").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(body["message"], "Hello admin, this is Site.");
    let card = server.create("", json!({"@type": "Greeting", "title": "Card", "recipient": "Anna"})).await;
    assert_eq!(card["greeting"], "Hello, Anna!");
    assert_eq!(card["recipient"], "Anna");
    assert_eq!(card["@type"], "Greeting");
}

/// `@hello` checks the plugin's own permission: members have it by default, anonymous callers
/// do not, and the document names it.
#[tokio::test]
async fn a_plugin_service_checks_its_own_permission() {
    let server = TestServer::start().await;
    let response = server.anonymous(Method::GET, "@hello").send().await.unwrap();
    assert_eq!(response.status(), 401);
    server.user("anna", &["Member"], &[]).await;
    let (status, body) = read(server.as_user("anna", Method::GET, "@hello").send().await.unwrap()).await;
    assert_eq!((status, body["message"].as_str()), (200, Some("Hello anna, this is Site.")), "{body}");
    let (_, document) = server.get_json("@openapi").await;
    assert_eq!(document["paths"]["/{site}/{path}/@hello"]["get"]["x-wcs-permission"], "wcs.example Hello: Say hello");
}

#[tokio::test]
async fn a_child_object_wins_over_a_view_of_the_same_name() {
    // New content cannot take a view's name; content that had it before the view came (a
    // plugin switched on later) still wins over the view, as in Plone's traversal.
    let before = TestServer::start_with(|c| c.plugins.disabled = vec!["example-hello".into()]).await;
    before.create("", json!({"@type": "Folder", "title": "F"})).await;
    before.create("f", json!({"@type": "Document", "title": "Shadow", "id": "hello_view"})).await;
    let database_url = before.database_url.clone();
    let server = TestServer::start_with(|c| c.database_url = database_url).await;
    let response = server.admin(Method::POST, "f").json(&json!({"@type": "Document", "id": "hello_view"})).send();
    assert_eq!(response.await.unwrap().status(), 400, "the name is a view's now");
    let (status, body) = server.get_json("f/hello_view").await;
    assert_eq!((status, &body["@type"], &body["title"]), (200, &json!("Document"), &json!("Shadow")));
    let (status, body) = server.get_json("f/hello_view/@hello").await;
    assert_eq!(status, 200);
    assert_eq!(body["message"], "Hello admin, this is Shadow.");
    server.create("", json!({"@type": "Folder", "title": "G"})).await;
    let (status, body) = server.get_json("g/hello_view").await;
    assert_eq!((status, &body["view"], &body["context"]), (200, &json!("hello_view"), &json!("g")));
}

#[tokio::test]
async fn disabling_a_plugin_removes_its_services_and_types() {
    let server = TestServer::start_with(|c| c.plugins.disabled = vec!["example-hello".into()]).await;
    let (status, _) = read(server.admin(Method::GET, "@hello").send().await.unwrap()).await;
    assert_eq!(status, 404);
    let (status, body) =
        read(server.admin(Method::POST, "").json(&json!({"@type": "Greeting", "title": "x"})).send().await.unwrap())
            .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("unknown_type")));
}

fn noop(_: &mut Registrar) {}

async fn ping(_: Ctx) -> ApiResult<NoContent> {
    Ok(NoContent::NoContent)
}

static PING_A: Service = Service {
    method: reqwest::Method::GET,
    name: "@ping",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "ping", endpoint!(ping))],
};
static PING_B: Service = Service {
    method: reqwest::Method::GET,
    name: "@ping",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "ping again", endpoint!(ping))],
};

static ALPHA: PluginDescriptor = PluginDescriptor { id: "alpha", depends_on: &[], build: |r| r.service(&PING_A) };
static BETA: PluginDescriptor = PluginDescriptor { id: "beta", depends_on: &["alpha"], build: |r| r.service(&PING_B) };
static GAMMA: PluginDescriptor = PluginDescriptor { id: "gamma", depends_on: &["missing"], build: noop };
static AARDVARK: PluginDescriptor = PluginDescriptor { id: "aardvark", depends_on: &["zebra"], build: noop };
static ZEBRA: PluginDescriptor = PluginDescriptor { id: "zebra", depends_on: &[], build: noop };

#[test]
fn duplicate_service_keys_name_both_plugins() {
    let err = Registry::build_from(&[&BETA, &ALPHA], &PluginSelection::default()).err();
    assert_eq!(
        err,
        Some(StartupError::DuplicateKey {
            what: "service GET @ping for any content".into(),
            first: "alpha",
            second: "beta",
        })
    );
    let message = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("'alpha'") && message.contains("'beta'"), "{message}");
}

#[test]
fn missing_dependencies_fail_start_up() {
    let err = Registry::build_from(&[&GAMMA], &PluginSelection::default()).err();
    assert_eq!(err, Some(StartupError::MissingDependency { plugin: "gamma".into(), missing: "missing".into() }));
}

#[test]
fn order_is_by_id_then_dependencies_whatever_the_link_order() {
    for linked in [[&AARDVARK, &ZEBRA, &ALPHA], [&ALPHA, &ZEBRA, &AARDVARK]] {
        let registry = Registry::build_from(&linked, &PluginSelection::default()).unwrap();
        assert_eq!(registry.plugin_ids(), ["alpha", "zebra", "aardvark"]);
    }
}

#[test]
fn disabling_unknown_or_core_plugins_is_an_error() {
    let selection = PluginSelection { disabled: vec!["nope".into()] };
    assert!(matches!(Registry::build_from(&[&ALPHA], &selection), Err(StartupError::BadSelection(..))));
    let selection = PluginSelection { disabled: vec!["core".into()] };
    assert!(matches!(Registry::build_from(&[&ALPHA], &selection), Err(StartupError::BadSelection(..))));
}

#[test]
fn the_manifest_check_reports_an_unlinked_plugin() {
    assert_eq!(wcs::check_linked(&["alpha"], &[]), Err(StartupError::NotLinked("core".into())));
    let mut all = vec!["core"];
    all.extend(wcs::SHIPPED_PLUGINS);
    assert_eq!(wcs::check_linked(&all, &[]), Ok(()));
    for plugin in wcs::SHIPPED_PLUGINS {
        let without: Vec<&str> = all.iter().copied().filter(|p| p != plugin).collect();
        assert_eq!(wcs::check_linked(&without, &[]), Err(StartupError::NotLinked((*plugin).into())));
        assert_eq!(wcs::check_linked(&without, &[(*plugin).to_owned()]), Ok(()), "disabled on purpose");
    }
}

static TEMPLATE_A: PluginDescriptor =
    PluginDescriptor { id: "alpha", depends_on: &[], build: |r| r.template("page.html", "a") };
static TEMPLATE_B: PluginDescriptor =
    PluginDescriptor { id: "beta", depends_on: &[], build: |r| r.template("page.html", "b") };
static PERMISSION_A: PluginDescriptor =
    PluginDescriptor { id: "alpha", depends_on: &[], build: |r| r.permission(Permission::new("Edit maps"), &[]) };
static PERMISSION_B: PluginDescriptor = PluginDescriptor {
    id: "beta",
    depends_on: &[],
    build: |r| r.permission(Permission::new("Edit maps"), &[Role::EDITOR]),
};
static MESSAGE_A: PluginDescriptor =
    PluginDescriptor { id: "alpha", depends_on: &[], build: |r| r.messages("de", "# x\nmap-title = Karte\n") };
static MESSAGE_B: PluginDescriptor = PluginDescriptor {
    id: "beta",
    depends_on: &[],
    build: |r| r.messages("de", "other = Andere\n    .attr = x\nmap-title = Landkarte\n"),
};
static MESSAGE_EN: PluginDescriptor =
    PluginDescriptor { id: "beta", depends_on: &[], build: |r| r.messages("en", "map-title = Map\n") };

#[test]
fn duplicate_templates_permissions_and_messages_name_both_plugins() {
    let cases: [(&PluginDescriptor, &PluginDescriptor, &str); 3] = [
        (&TEMPLATE_A, &TEMPLATE_B, "template page.html"),
        (&PERMISSION_A, &PERMISSION_B, "permission 'Edit maps'"),
        (&MESSAGE_A, &MESSAGE_B, "message map-title (de)"),
    ];
    for (first, second, what) in cases {
        let err = Registry::build_from(&[second, first], &PluginSelection::default()).err();
        assert_eq!(err, Some(StartupError::DuplicateKey { what: what.into(), first: "alpha", second: "beta" }));
    }
    assert!(Registry::build_from(&[&MESSAGE_A, &MESSAGE_EN], &PluginSelection::default()).is_ok(), "per language");
    let err = Registry::build_from(&[&CORE_CLASH], &PluginSelection::default()).err();
    assert_eq!(
        err,
        Some(StartupError::DuplicateKey { what: "message yes (en)".into(), first: "core", second: "alpha" }),
        "core's own messages count too"
    );
}

static CORE_CLASH: PluginDescriptor =
    PluginDescriptor { id: "alpha", depends_on: &[], build: |r| r.messages("en", "yes = Sure\n") };

#[tokio::test]
async fn a_plugin_field_kind_parses_input_and_serializes_output() {
    let server = TestServer::start().await;
    let card = server.create("", json!({"@type": "Greeting", "title": "Card", "color": "#F80"})).await;
    assert_eq!(card["color"], json!({"hex": "#ff8800", "rgb": [255, 136, 0]}));
    let (status, body) =
        read(server.admin(Method::PATCH, "card").json(&json!({"color": "red"})).send().await.unwrap()).await;
    assert_eq!((status, &body["errors"][0]["field"]), (400, &json!("color")), "{body}");
    assert!(body["errors"][0]["message"].as_str().unwrap().contains("#ff8800"));
    let patch = json!({"color": {"hex": "#00AA11"}});
    assert_eq!(server.admin(Method::PATCH, "card").json(&patch).send().await.unwrap().status(), 204);
    assert_eq!(server.get_json("card").await.1["color"]["rgb"], json!([0, 170, 17]));
    let (_, schema) = server.get_json("@types/Greeting").await;
    assert_eq!(schema["properties"]["color"]["widget"], "color");
    assert_eq!(schema["properties"]["color"]["factory"], "Color");
}

/// A plugin renders a core field kind its own way for its own type only.
#[tokio::test]
async fn a_plugin_field_serializer_for_one_type_leaves_other_types_alone() {
    let server = TestServer::start().await;
    let when = "2026-12-24T09:30:00Z";
    let card = server.create("", json!({"@type": "Greeting", "title": "Card", "deliver_on": when})).await;
    assert_eq!(card["deliver_on"], "2026-12-24");
    let page = server.create("", json!({"@type": "Document", "title": "Item", "expires": when})).await;
    assert_eq!(page["expires"], "2026-12-24T09:30:00+00:00");
    // What the card sends back is taken again: the day, at midnight.
    let put = server.admin(Method::PATCH, "card").json(&json!({"deliver_on": card["deliver_on"]}));
    assert_eq!(put.send().await.unwrap().status(), 204);
    assert_eq!(server.get_json("card").await.1["deliver_on"], "2026-12-24");
}

static CORE_KIND: wcs_core::content::FieldKindDef =
    wcs_core::content::FieldKindDef { name: "RichText", parse: |_, v| Ok(v.clone()), json_schema: |_| json!({}) };
static KIND_CLASH: PluginDescriptor =
    PluginDescriptor { id: "alpha", depends_on: &[], build: |r| r.field_kind(&CORE_KIND) };

#[test]
fn a_plugin_cannot_take_a_core_field_kind() {
    let err = Registry::build_from(&[&KIND_CLASH], &PluginSelection::default()).err();
    assert_eq!(
        err,
        Some(StartupError::DuplicateKey { what: "field kind RichText".into(), first: "core", second: "alpha" })
    );
}

static TAKES_CREATED: wcs_core::catalog::FieldIndex = wcs_core::catalog::FieldIndex { name: "created", field: "x" };
static INDEX_CLASH: PluginDescriptor =
    PluginDescriptor { id: "alpha", depends_on: &[], build: |r| r.catalog_index(&TAKES_CREATED) };
static SQL_IN_A_NAME: wcs_core::catalog::FieldIndex =
    wcs_core::catalog::FieldIndex { name: "when", field: "x') OR 1=1 --" };
static BAD_INDEX: PluginDescriptor =
    PluginDescriptor { id: "beta", depends_on: &[], build: |r| r.catalog_index(&SQL_IN_A_NAME) };
static BAD_ORDER_DEF: wcs_core::store::BehaviourOrder = wcs_core::store::BehaviourOrder {
    behaviour: "dated",
    order: wcs_core::store::ListingOrder::FieldDescending("a b"),
};
static BAD_ORDER: PluginDescriptor =
    PluginDescriptor { id: "gamma", depends_on: &[], build: |r| r.listing_order(&BAD_ORDER_DEF) };

static TAKES_ADDED: wcs_core::events::EventKind = wcs_core::events::EventKind { name: "added" };
static EVENT_CLASH: PluginDescriptor =
    PluginDescriptor { id: "delta", depends_on: &[], build: |r| r.event_kind(&TAKES_ADDED) };

/// A plugin's events are its own kinds: one that would be told, and fed, as core's is refused.
#[test]
fn a_plugin_cannot_take_a_core_event_kind() {
    let err = Registry::build_from(&[&EVENT_CLASH], &PluginSelection::default()).err();
    assert_eq!(
        err,
        Some(StartupError::DuplicateKey { what: "event kind added".into(), first: "core", second: "delta" })
    );
}

/// A plugin's catalog index or listing order names a field that goes into SQL as an
/// identifier, so start-up refuses anything but a plain name, and an index core already has.
#[test]
fn catalog_indexes_and_listing_orders_are_checked_at_start_up() {
    let err = Registry::build_from(&[&INDEX_CLASH], &PluginSelection::default()).err();
    assert_eq!(
        err,
        Some(StartupError::DuplicateKey { what: "catalog index created".into(), first: "core", second: "alpha" })
    );
    for plugin in [&BAD_INDEX, &BAD_ORDER] {
        let err = Registry::build_from(&[plugin], &PluginSelection::default()).err();
        assert!(
            matches!(&err, Some(StartupError::Types(message)) if message.contains("not a plain field name")),
            "{err:?}"
        );
    }
}

#[tokio::test]
async fn the_example_plugin_keeps_its_own_table_from_events() {
    let server = TestServer::start().await;
    let added = || async { server.get_json("@hello").await.1["objects_added"].as_i64().unwrap() };
    let before = added().await;
    server.create("", json!({"@type": "Folder", "title": "F"})).await;
    server.create("f", json!({"@type": "Greeting", "title": "Card"})).await;
    assert_eq!(added().await, before + 2, "each added object counts once");
    let refused = server.admin(Method::POST, "f").json(&json!({"@type": "Greeting", "title": "x", "color": "red"}));
    assert_eq!(refused.send().await.unwrap().status(), 400);
    assert_eq!(
        server
            .admin(Method::POST, "f/@copy")
            .json(&json!({"source": server.url("f/card")}))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    assert_eq!(added().await, before + 3, "a refused write counts nothing, a copy counts its objects");
    let applied: i64 = sqlx::Row::try_get(
        &sqlx::query("SELECT COUNT(*) FROM plugin_migration WHERE plugin = 'example-hello'")
            .fetch_one(server.app.store.pool())
            .await
            .unwrap(),
        0,
    )
    .unwrap();
    assert_eq!(applied, 1, "its migration is recorded under its id");
}

/// Without easyform (left out of the build, or disabled by configuration) there are no forms.
async fn no_forms(server: &TestServer) {
    let form = json!({"@type": "EasyForm", "title": "Kontakt"});
    let response = server.admin(Method::POST, "").json(&form).send().await.unwrap();
    crate::support::assert_error(response, 400, "unknown_type").await;
    server.create("", json!({"@type": "Document", "id": "seite", "title": "Seite"})).await;
    let submit = server.admin(Method::POST, "seite/@submit").json(&json!({})).send().await.unwrap();
    crate::support::assert_error(submit, 404, "not_found").await;
    let (status, _) = server.get_json("@registry/wcs.backend.easyform.submissions_per_minute").await;
    assert_eq!(status, 404);
}

/// Without directdownload a File is JSON for everybody, and its switch does not exist.
async fn no_direct_download(server: &TestServer) {
    let data = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, b"%PDF-1.4");
    let file = json!({"@type": "File", "id": "f", "file": {"data": data, "filename": "f.pdf", "content-type": "application/pdf"}});
    server.create("", file).await;
    let (status, _) = server.get_json("@registry/wcs.backend.api.directdownload").await;
    assert_eq!(status, 404);
    let (status, body) = read(server.anonymous(Method::GET, "f").send().await.unwrap()).await;
    assert_eq!((status, &body["@type"]), (200, &json!("File")));
}

#[tokio::test]
async fn plugins_left_out_or_disabled_leave_nothing_behind() {
    // Only plugins this build has can be disabled.
    let linked: Vec<String> = ["easyform", "directdownload"]
        .into_iter()
        .filter(|p| wcs::SHIPPED_PLUGINS.contains(p))
        .map(String::from)
        .collect();
    let disabled = TestServer::start_with(|c| c.plugins.disabled = linked).await;
    no_forms(&disabled).await;
    no_direct_download(&disabled).await;
    if !cfg!(feature = "easyform") {
        no_forms(&TestServer::start().await).await;
    }
    if !cfg!(feature = "directdownload") {
        no_direct_download(&TestServer::start().await).await;
    }
}

/// `@plugins` tells what each plugin adds; a plugin switched off leaves the OpenAPI document.
#[tokio::test]
async fn plugins_list_their_contributions_and_switched_off_ones_leave_the_document() {
    let server = TestServer::start().await;
    let (status, plugins) = server.get_json("@plugins").await;
    assert_eq!(status, 200, "{plugins}");
    let find = |plugins: &serde_json::Value, id: &str| {
        plugins["items"].as_array().unwrap().iter().find(|p| p["id"] == id).cloned().unwrap_or_default()
    };
    let core = find(&plugins, "core");
    assert_eq!((&core["built"], &core["enabled"]), (&serde_json::json!(true), &serde_json::json!(true)));
    assert!(core["services"].as_array().unwrap().contains(&serde_json::json!("GET @plugins")), "{core}");
    assert!(core["types"].as_array().unwrap().contains(&serde_json::json!("Document")));
    assert!(core["control_panels"].as_array().unwrap().contains(&serde_json::json!("site")));
    let response = server.anonymous(Method::GET, "@plugins").send().await.unwrap();
    assert_eq!(response.status(), 401);

    let (_, served) =
        read(server.raw(Method::GET, &format!("{}/openapi.json", server.base)).send().await.unwrap()).await;
    let (_, at_site) = server.get_json("@openapi").await;
    assert_eq!(served, at_site, "one document");
    if cfg!(feature = "navigation") {
        let navigation = find(&plugins, "navigation");
        assert_eq!(navigation["depends_on"], serde_json::json!(["core"]));
        assert!(navigation["services"].as_array().unwrap().contains(&serde_json::json!("GET @navigation")));
        assert!(served["paths"].get("/{site}/{path}/@navigation").is_some());
        assert_eq!(server.admin(Method::POST, "@addons/navigation/uninstall").send().await.unwrap().status(), 204);
        let (_, after) = server.get_json("@openapi").await;
        assert!(after["paths"].get("/{site}/{path}/@navigation").is_none(), "a switched-off plugin's paths go");
        let (_, plugins) = server.get_json("@plugins").await;
        assert_eq!(find(&plugins, "navigation")["enabled"], false);
    }
}

/// Content whose type no plugin defines any longer (its plugin switched off) is kept, answers
/// 404 with the reason, and leaves its container's listing working.
#[tokio::test]
async fn content_of_a_type_no_plugin_defines_is_a_404_that_says_why() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "f", "title": "F"})).await;
    let page = server.create("f", json!({"@type": "Document", "id": "old", "title": "Alt"})).await;
    let mut tx = server.app.store.begin().await.unwrap();
    sqlx::query("UPDATE content SET portal_type = 'Vanished' WHERE uid = $1")
        .bind(page["UID"].as_str().unwrap())
        .execute(tx.connection())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let error = assert_error(server.admin(Method::GET, "f/old").send().await.unwrap(), 404, "not_found").await;
    assert!(error["message"].as_str().unwrap().contains("type 'Vanished'"), "{error}");
    let (status, folder) = server.get_json("f").await;
    assert_eq!((status, &folder["items_total"]), (200, &json!(1)), "{folder}");
}
