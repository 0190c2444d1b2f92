//! `GET <obj>/@hello`: greets the caller with the object's title and tells how many objects
//! the site has had added since the plugin was installed (from its own table).

use crate::stats;
use serde_json::json;
use wcs_core::http::{ApiResult, Ctx, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::records::{RecordDef, RecordKind};
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Service};

/// The service.
pub static HELLO: Service = Service {
    method: Method::GET,
    name: "@hello",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "Say hello from the example plugin",
        wcs_core::untyped!(|ctx| Box::pin(hello(ctx))),
    )],
};

/// The greeting word, a registry record Managers may change through `@registry`.
pub static GREETING_WORD: RecordDef = RecordDef {
    name: "wcs.example.hello.greeting",
    title: "Greeting word",
    description: "The word @hello greets with.",
    kind: RecordKind::Text,
    default: || json!("Hello"),
};

async fn hello(ctx: Ctx) -> ApiResult<Response> {
    let who = ctx.principal.user_id().unwrap_or("stranger");
    let word = ctx.app.record_value(&GREETING_WORD).await?;
    let added = stats::objects_added(&ctx.app.store).await?;
    Ok(json(&json!({
        "@id": ctx.request.service_url,
        "message": format!("{} {who}, this is {}.", word.as_str().unwrap_or("Hello"), ctx.context.title),
        "objects_added": added,
    })))
}
