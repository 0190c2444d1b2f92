//! A request hook: a `Greeting` asked for as plain text is answered before dispatch.

use serde_json::Value;
use wcs_core::http::{ApiResult, Ctx};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::Permission;
use wcs_core::service::RequestHook;

/// A `Greeting` asked for as `text/plain` is answered with its greeting alone, before
/// dispatch: the way directdownload answers a File with its bytes.
pub static GREETING_AS_TEXT: RequestHook = RequestHook {
    name: "greeting-as-text",
    summary: "GET of a Greeting with Accept: text/plain answers the greeting as plain text",
    permission: Permission::VIEW,
    run: |ctx| Box::pin(greeting_as_text(ctx)),
};

async fn greeting_as_text(ctx: &Ctx) -> ApiResult<Option<Response>> {
    let wants_text = ctx.request.header("accept").is_some_and(|accept| accept.starts_with("text/plain"));
    let the_object_itself = ctx.name.is_empty();
    if ctx.request.method != Method::GET || ctx.context.portal_type != "Greeting" || !the_object_itself || !wants_text {
        return Ok(None);
    }
    let recipient = ctx.context.fields.get("recipient").and_then(Value::as_str).unwrap_or("world");
    Ok(Some(Response::builder().content_type("text/plain; charset=utf-8").body(format!("Hello, {recipient}!"))))
}
