//! A third-party plugin for wcs-backend, built only on the public registration API: it adds
//! a content type (`Greeting`), a serializer layer for it, a service (`@hello`), a registry
//! record (`wcs.example.hello.greeting`), a field kind (`Color`, parsed and serialized) and a
//! request hook that answers a plain-text GET of a greeting before the default view does.
//!
//! To ship it in a server, depend on this crate and name it once so the linker keeps it:
//! `use wcs_example_hello as _;`.

use serde_json::{Value, json};
use wcs_core::content::{FieldDef, FieldKind, FieldKindDef};
use wcs_core::http::{ApiResult, Ctx, json};
use wcs_core::plugin::Registrar;
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::records::{RecordDef, RecordKind};
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::{ContentSerializer, FieldSerializer};
use wcs_core::service::{ContentKind, RequestHook, Service};

/// The plugin's id.
pub const PLUGIN_ID: &str = "example-hello";

/// `GET <obj>/@hello`: greets the caller with the object's title.
pub static HELLO: Service = Service {
    method: Method::GET,
    name: "@hello",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Say hello from the example plugin",
    request_schema: None,
    response_schema: Some(
        || json!({"type": "object", "properties": {"@id": {"type": "string"}, "message": {"type": "string"}}}),
    ),
    handler: |ctx| Box::pin(hello(ctx)),
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
    Ok(json(&json!({
        "@id": ctx.request.service_url,
        "message": format!("{} {who}, this is {}.", word.as_str().unwrap_or("Hello"), ctx.context.title),
    })))
}

/// `GET <obj>/hello_view`: a view name without `@`, as browser views have. A child object with
/// the same id wins over it, as traversal tries objects first.
pub static HELLO_VIEW: Service = Service {
    method: Method::GET,
    name: "hello_view",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "A plain-named view of the example plugin",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(async move { Ok(json(&json!({"view": "hello_view", "context": ctx.context.id}))) }),
};

/// Adds `greeting` to every `Greeting` object's serialization.
pub static GREETING_SERIALIZER: ContentSerializer = ContentSerializer {
    kind: ContentKind::Type("Greeting"),
    read_only: &["greeting"],
    serialize: |_, subject, out| {
        Box::pin(async move {
            let recipient = subject.object.fields.get("recipient").and_then(Value::as_str).unwrap_or("world");
            out.insert("greeting".into(), json!(format!("Hello, {recipient}!")));
            Ok(())
        })
    },
};

/// A `Greeting` asked for as `text/plain` is answered with its greeting alone, before
/// dispatch: the way directdownload answers a File with its bytes.
pub static GREETING_AS_TEXT: RequestHook = RequestHook {
    name: "greeting-as-text",
    summary: "GET of a Greeting with Accept: text/plain answers the greeting as plain text",
    run: |ctx| Box::pin(greeting_as_text(ctx)),
};

async fn greeting_as_text(ctx: &Ctx) -> ApiResult<Option<Response>> {
    let wants_text = ctx.request.header("accept").is_some_and(|accept| accept.starts_with("text/plain"));
    let the_object_itself = ctx.name.is_empty();
    if ctx.request.method != Method::GET || ctx.context.portal_type != "Greeting" || !the_object_itself || !wants_text {
        return Ok(None);
    }
    // A hook runs before the service's permission check, so it checks what it serves.
    ctx.check(Permission::VIEW)?;
    let recipient = ctx.context.fields.get("recipient").and_then(Value::as_str).unwrap_or("world");
    Ok(Some(Response::builder().content_type("text/plain; charset=utf-8").body(format!("Hello, {recipient}!"))))
}

/// A field kind of the plugin's own: a colour, given as `#rgb`, `#rrggbb` or as what the
/// serializer sends (`{"hex": …}`), stored as lowercase `#rrggbb`.
pub static COLOR: FieldKindDef = FieldKindDef {
    name: "Color",
    parse: parse_color,
    json_schema: |_| json!({"type": "string", "pattern": "^#([0-9a-fA-F]{3}){1,2}$", "widget": "color"}),
};

fn parse_color(_: &FieldDef, value: &Value) -> Result<Value, String> {
    let text = match value {
        Value::String(text) => text.as_str(),
        Value::Object(map) => map.get("hex").and_then(Value::as_str).unwrap_or_default(),
        _ => "",
    };
    let digits = text.strip_prefix('#').filter(|d| d.chars().all(|c| c.is_ascii_hexdigit()));
    let expanded = match digits {
        Some(d) if d.len() == 6 => d.to_ascii_lowercase(),
        Some(d) if d.len() == 3 => d.chars().flat_map(|c| [c, c]).collect::<String>().to_ascii_lowercase(),
        _ => return Err("Expected a colour such as #f80 or #ff8800.".into()),
    };
    Ok(json!(format!("#{expanded}")))
}

/// Sends a colour with its red, green and blue parts.
pub static COLOR_FIELD: FieldSerializer = FieldSerializer {
    field_kind: FieldKind::Plugin(&COLOR),
    widget: None,
    serialize: |_, _, _, value| {
        Box::pin(async move {
            let hex = value.as_str().unwrap_or_default();
            let part = |at: usize| hex.get(at..at + 2).and_then(|p| u8::from_str_radix(p, 16).ok()).unwrap_or(0);
            Ok(json!({"hex": hex, "rgb": [part(1), part(3), part(5)]}))
        })
    },
};

fn build(r: &mut Registrar) {
    r.field_kind(&COLOR);
    r.field_serializer(&COLOR_FIELD);
    r.content_type(include_str!("greeting.toml"));
    r.content_serializer(&GREETING_SERIALIZER);
    r.service(&HELLO);
    r.service(&HELLO_VIEW);
    r.record(&GREETING_WORD);
    r.request_hook(&GREETING_AS_TEXT);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
