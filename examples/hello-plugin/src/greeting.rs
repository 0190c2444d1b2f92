//! The `Greeting` type's serialization: a `greeting` key of its own (read-only, so a GET
//! followed by a PUT round-trips) and the plugin's own field kind, `Color`.

use serde_json::{Value, json};
use wcs_core::content::{FieldDef, FieldKind, FieldKindDef};
use wcs_core::serialize::{ContentSerializer, FieldSerializer};
use wcs_core::service::ContentKind;

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
    kind: ContentKind::Any,
    widget: None,
    serialize: |_, _, _, value| {
        Box::pin(async move {
            let hex = value.as_str().unwrap_or_default();
            let part = |at: usize| hex.get(at..at + 2).and_then(|p| u8::from_str_radix(p, 16).ok()).unwrap_or(0);
            Ok(json!({"hex": hex, "rgb": [part(1), part(3), part(5)]}))
        })
    },
};
