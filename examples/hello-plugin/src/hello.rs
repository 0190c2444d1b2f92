//! `GET <obj>/@hello`: greets the caller with the object's title and tells how many objects
//! the site has had added since the plugin was installed (from its own table).

use crate::stats;
use poem_openapi::Object;
use serde_json::json;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Json};
use wcs_core::poem_reexports::Method;
use wcs_core::records::{RecordDef, RecordKind};
use wcs_core::security::{Csrf, Permission, Role};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Being greeted: a permission of the plugin's own, so a site can give it to some roles only.
pub const SAY_HELLO: Permission = Permission::new("wcs.example Hello: Say hello");

/// Who may be greeted by default: any logged-in user (anonymous callers get 401).
pub const SAY_HELLO_ROLES: &[Role] = &[Role::MANAGER, Role::SITE_ADMINISTRATOR, Role::MEMBER];

/// The service.
pub static HELLO: Service = Service {
    method: Method::GET,
    name: "@hello",
    kind: ContentKind::Any,
    guard: Guard::Has(SAY_HELLO),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Say hello from the example plugin", endpoint!(hello))],
};

/// The greeting. A plugin's reply types are `Object`s like this one: the OpenAPI document
/// shows them, field descriptions included.
#[derive(Object)]
struct HelloGreeting {
    /// The request's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The greeting word, the caller and the object's title.
    message: String,
    /// How many objects were added since the plugin was installed.
    objects_added: i64,
}

/// The greeting word, a registry record Managers may change through `@registry`.
pub static GREETING_WORD: RecordDef = RecordDef {
    name: "wcs.example.hello.greeting",
    title: "Greeting word",
    description: "The word @hello greets with.",
    kind: RecordKind::Text,
    check: None,
    default: || json!("Hello"),
};

async fn hello(ctx: Ctx) -> ApiResult<Json<HelloGreeting>> {
    let who = ctx.principal.user_id().unwrap_or("stranger");
    let word = ctx.app.record_value(&GREETING_WORD).await?;
    let added = stats::objects_added(&ctx.app.store).await?;
    Ok(Json(HelloGreeting {
        url: ctx.request.service_url.clone(),
        message: format!("{} {who}, this is {}.", word.as_str().unwrap_or("Hello"), ctx.context.title),
        objects_added: added,
    }))
}
