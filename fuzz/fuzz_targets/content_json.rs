//! A create or PATCH body as the server reads it, from raw bytes to the values it would
//! store: the JSON check (duplicate keys, NUL characters), validation against the content
//! type the body names (`@type`, else a Page), rich text through the HTML policy, blocks and
//! layouts, and the internal links a write stores as `resolveuid/<uid>`. Only the database
//! lookups are left out: every path a link names is taken to exist.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::LazyLock;
use wcs_core::content::ids;
use wcs_core::content::links::{SitePrefixes, internal_link_candidates, internalize_links, linked_uids, resolve_links};
use wcs_core::content::values::{Mode, parse_changes};
use wcs_core::content::{FieldKind, TypeRegistry, volto_blocks};
use wcs_core::http::check_json_body;
use wcs_core::ops::is_link_field;

/// The content types core ships, read from the repository so new ones are fuzzed too.
static TYPES: LazyLock<TypeRegistry> = LazyLock::new(|| {
    // Core's own field kinds beyond the built-in ones (a Collection's `Query`).
    let mut types = TypeRegistry::with_field_kinds(vec![&wcs_core::content::QUERY]);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/types");
    // A failure here is the harness's, not a finding: there is nothing to fuzz without types.
    types.add_dir(&dir).unwrap_or_else(|error| panic!("core's content types: {error}"));
    types
});

const SITE_URL: &str = "http://localhost:8080/Plone";

fuzz_target!(|data: &[u8]| {
    // The server refuses a body the check refuses before it validates any field.
    if check_json_body(data).is_err() {
        return;
    }
    let Ok(Value::Object(body)) = serde_json::from_slice::<Value>(data) else { return };

    for (key, value) in &body {
        if key == "id"
            && let Some(id) = value.as_str()
        {
            let _ = ids::problem(id);
        }
        if key == "title"
            && let Some(title) = value.as_str()
        {
            // An id made from a title is one the server would accept from a client.
            let id = ids::normalize(title);
            assert!(id.is_empty() || ids::problem(&id).is_none(), "{title:?} → {id:?}");
        }
    }

    let type_name = body.get("@type").and_then(Value::as_str).unwrap_or("Document");
    let Some(profile) = TYPES.get(type_name).or_else(|| TYPES.get("Document")) else { return };
    for mode in [Mode::Create, Mode::Patch, Mode::Replace] {
        let Ok(mut changes) = parse_changes(profile, &body, mode, &["id", "UID", "@type"], &[]) else { continue };
        internalize(profile, &mut changes.values);
    }
});

/// What a write does to links once the changes are valid (see `ops::references`), with every
/// path a link names taken to be an object whose uid is derived from the path.
fn internalize(profile: &wcs_core::content::TypeProfile, values: &mut Map<String, Value>) {
    let prefixes = SitePrefixes::new("http://localhost:8080", "Plone");
    let nothing: HashMap<String, String> = HashMap::new();
    let mut uid_at: HashMap<String, String> = HashMap::new();
    for field in &profile.fields {
        let Some(value) = values.get_mut(&field.name) else { continue };
        let whole = if field.kind == FieldKind::RichText {
            false
        } else if is_link_field(field) {
            true
        } else if field.kind == FieldKind::Blocks {
            for link in volto_blocks::link_values(value) {
                check_unchanged_without_targets(link, &prefixes, &nothing);
                remember(&mut uid_at, internal_link_candidates(link, &prefixes, true));
            }
            volto_blocks::rewrite_link_values(value, &mut |link| {
                let stored = internalize_links(link, &prefixes, true, &uid_at);
                (stored != link).then_some(stored)
            });
            continue;
        } else {
            continue;
        };
        let text = match value {
            Value::String(text) => text,
            Value::Object(map) => match map.get_mut("data") {
                Some(Value::String(data)) => data,
                _ => continue,
            },
            _ => continue,
        };
        check_unchanged_without_targets(text, &prefixes, &nothing);
        remember(&mut uid_at, internal_link_candidates(text, &prefixes, whole));
        *text = internalize_links(text, &prefixes, whole, &uid_at);
        // And back, as a read serializes it.
        let uids = linked_uids(text);
        let read = resolve_links(text, SITE_URL, |uid| Some(format!("{SITE_URL}/by-uid/{uid}")));
        assert!(uids.iter().all(|uid| read.contains(&format!("/by-uid/{uid}"))), "{text:?} → {read:?}");
    }
}

/// "Links to nothing known stay as they are."
fn check_unchanged_without_targets(text: &str, prefixes: &SitePrefixes, nothing: &HashMap<String, String>) {
    assert_eq!(internalize_links(text, prefixes, true, nothing), text);
    assert_eq!(internalize_links(text, prefixes, false, nothing), text);
}

fn remember(uid_at: &mut HashMap<String, String>, paths: Vec<String>) {
    for path in paths {
        let uid = format!("{:032x}", fnv(&path));
        uid_at.insert(path, uid);
    }
}

/// A stable stand-in uid per path (32 hex digits, as real uids are).
fn fnv(text: &str) -> u128 {
    text.bytes().fold(0x6c62272e07bb014262b821756295c58d_u128, |hash, byte| {
        (hash ^ u128::from(byte)).wrapping_mul(0x0000000001000000000000000000013b)
    })
}
