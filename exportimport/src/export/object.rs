//! One object's `data.json`, as plone.exportimport writes it: plone.restapi's keys with `@id`s
//! below the site (`/a/b`; the root's is the site's own path), its workflow history, and
//! plone.exportimport's own keys. Field values go out as they are stored: internal links as
//! `resolveuid/<uid>` (what Plone stores too, so they survive any move), files as a
//! `blob_path` to the bytes written beside the file. Relations go to `relations.json`
//! instead, as plone.exportimport has them.

use crate::format::{DEFAULT_LANGUAGE_PLACEHOLDER, SITE_ROOT_KEY};
use serde_json::{Map, Value, json};
use wcs_core::content::values::{DEFAULT_PAGE, format_time, is_column};
use wcs_core::content::{ContentObject, FieldKind, LANGUAGE_FIELD, TypeProfile};
use wcs_core::store::HistoryEntry;

/// A file field's bytes to write: the field, and where below `content/`.
pub struct BlobOut {
    /// The field.
    pub field: String,
    /// `<key>/<field>/<filename>`.
    pub path: String,
}

/// What one object's data needs besides the object.
pub struct ObjectIn<'a> {
    /// The object.
    pub object: &'a ContentObject,
    /// Its type.
    pub profile: &'a TypeProfile,
    /// Its container (none for the site root).
    pub parent: Option<&'a Summary>,
    /// The original, when it is a working copy (plone.app.iterate's).
    pub baseline: Option<&'a Summary>,
    /// Its directory's name below `content/`.
    pub key: &'a str,
    /// The site's path (`/Plone`), which `@id`s are taken below.
    pub site_path: &'a str,
    /// Its workflow history, oldest first.
    pub history: &'a [HistoryEntry],
    /// The site's language, which goes out as `##DEFAULT##` (plone.exportimport's
    /// placeholder, which the importing site reads as its own default language).
    pub site_language: &'a str,
}

/// What an object's container or original shows of it.
pub struct Summary {
    /// Its path below the site.
    pub below_site: String,
    /// Its type.
    pub portal_type: String,
    /// Its uid.
    pub uid: String,
    /// Its title.
    pub title: String,
    /// Its description.
    pub description: String,
    /// Its type's title.
    pub type_title: String,
}

impl Summary {
    /// `object`'s summary; `profile` is its type.
    pub fn of(object: &ContentObject, profile: &TypeProfile, site_path: &str) -> Summary {
        Summary {
            below_site: below_site(site_path, object),
            portal_type: object.portal_type.clone(),
            uid: object.uid.clone(),
            title: object.title.clone(),
            description: object.description.clone(),
            type_title: profile.title.clone(),
        }
    }
}

/// The `data.json` of `input.object`, and the files to write beside it.
pub fn data(input: &ObjectIn<'_>) -> (Map<String, Value>, Vec<BlobOut>) {
    let ObjectIn { object, profile, .. } = input;
    let mut out = Map::new();
    out.insert("@id".into(), json!(below_site(input.site_path, object)));
    out.insert("@type".into(), json!(object.portal_type));
    out.insert("UID".into(), json!(object.uid));
    out.insert("id".into(), json!(object.id));
    out.insert("title".into(), json!(object.title));
    out.insert("description".into(), json!(object.description));
    out.insert("type_title".into(), json!(profile.title));
    out.insert("is_folderish".into(), json!(profile.folderish));
    // plone.restapi's site root has no dates, and the root a site lands on keeps its own.
    if !object.is_site_root() {
        out.insert("created".into(), json!(format_time(object.created)));
        out.insert("modified".into(), json!(format_time(object.modified)));
    }
    out.insert("effective".into(), json!(object.effective.map(format_time)));
    out.insert("expires".into(), json!(object.expires.map(format_time)));
    out.insert("creators".into(), json!([object.creator]));
    out.insert("contributors".into(), json!([]));
    out.insert("review_state".into(), json!(object.review_state));
    out.insert("workflow_history".into(), workflow_history(profile, input.history));
    out.insert("layout".into(), object.fields.get("layout").cloned().unwrap_or_else(|| json!(profile.layout)));
    out.insert("lock".into(), json!({}));
    out.insert("version".into(), json!("current"));
    out.insert("working_copy".into(), Value::Null);
    let baseline = input.baseline.map(|b| json!({"@id": b.below_site, "title": b.title}));
    out.insert("working_copy_of".into(), baseline.unwrap_or(Value::Null));
    out.insert("exportimport.constrains".into(), json!({}));
    out.insert("exportimport.conversation".into(), json!([]));
    out.insert("exportimport.versions".into(), json!({}));
    let parent = match input.parent {
        Some(parent) => json!({
            "@id": parent.below_site,
            "@type": parent.portal_type,
            "UID": parent.uid,
            "description": parent.description,
            "title": parent.title,
            "type_title": parent.type_title,
        }),
        None => json!({}),
    };
    out.insert("parent".into(), parent);
    let mut blobs = Vec::new();
    for field in &profile.fields {
        if is_column(&field.name) || field.kind.is_relation() {
            continue;
        }
        let stored = object.fields.get(&field.name).cloned().unwrap_or_else(|| field.default_json());
        let value = match field.kind {
            _ if stored.is_null() => stored,
            FieldKind::File | FieldKind::Image => {
                let (value, blob) = blob_value(input.key, &field.name, &stored);
                blobs.push(blob);
                value
            }
            FieldKind::RichText => json!({
                "content-type": "text/html",
                "data": stored.get("data").cloned().unwrap_or_else(|| json!("")),
                "encoding": "utf-8",
            }),
            _ => stored,
        };
        out.insert(field.name.clone(), value);
    }
    // Settings and values of fields the type no longer has are kept as they are: a site
    // owner may add the field back.
    for (name, value) in &object.fields {
        if name != DEFAULT_PAGE && !out.contains_key(name) && profile.field(name).is_none_or(|f| !f.kind.is_relation())
        {
            out.insert(name.clone(), value.clone());
        }
    }
    if out.get(LANGUAGE_FIELD).and_then(Value::as_str).is_some_and(|code| code == input.site_language) {
        out.insert(LANGUAGE_FIELD.into(), json!(DEFAULT_LANGUAGE_PLACEHOLDER));
    }
    (out, blobs)
}

/// Replaces the site root's uid, wherever it appears, by plone.exportimport's stand-in for it
/// (`plone_site_root`): the root a site lands on keeps its own uid.
pub fn without_root_uid(value: &mut Value, root_uid: &str) {
    match value {
        Value::String(text) if text.contains(root_uid) => *text = text.replace(root_uid, SITE_ROOT_KEY),
        Value::Object(map) => map.values_mut().for_each(|v| without_root_uid(v, root_uid)),
        Value::Array(items) => items.iter_mut().for_each(|v| without_root_uid(v, root_uid)),
        _ => {}
    }
}

/// `/a/b` for an object at `/<site>/a/b`; the site root's `@id` is its own path, as
/// plone.exportimport writes the root's.
pub fn below_site(site_path: &str, object: &ContentObject) -> String {
    match object.path.strip_prefix(site_path) {
        Some("") | None => object.path.clone(),
        Some(rest) => rest.to_owned(),
    }
}

fn workflow_history(profile: &TypeProfile, history: &[HistoryEntry]) -> Value {
    let Some(workflow) = profile.workflow.first() else { return json!({}) };
    if history.is_empty() {
        return json!({});
    }
    let entries: Vec<Value> = history
        .iter()
        .map(|entry| {
            json!({
                "action": entry.action,
                "actor": entry.actor,
                "comments": entry.comment,
                "review_state": entry.review_state,
                "time": format_time(entry.time),
            })
        })
        .collect();
    json!({ workflow: entries })
}

/// A file field as plone.exportimport writes it, and where its bytes go. The file's own name
/// is kept unless it could not be a file's name on disk (then the field's name stands in).
fn blob_value(key: &str, field: &str, stored: &Value) -> (Value, BlobOut) {
    let filename = stored.get("filename").and_then(Value::as_str).unwrap_or_default();
    let on_disk = if filename.is_empty()
        || filename == "."
        || filename == ".."
        || filename.len() > 200
        || filename.chars().any(|c| matches!(c, '/' | '\\' | '\0'))
    {
        field
    } else {
        filename
    };
    let path = format!("{key}/{field}/{on_disk}");
    let mut value = json!({
        "blob_path": path,
        "content-type": stored.get("content-type").cloned().unwrap_or(Value::Null),
        "filename": filename,
        "size": stored.get("size").cloned().unwrap_or(json!(0)),
    });
    for dimension in ["width", "height"] {
        if let Some(size) = stored.get(dimension) {
            value[dimension] = size.clone();
        }
    }
    (value, BlobOut { field: field.to_owned(), path })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_that_could_leave_their_directory_are_replaced_by_the_field_name() {
        let (value, blob) = blob_value("abc", "file", &json!({"filename": "../x.pdf", "size": 3}));
        assert_eq!(blob.path, "abc/file/file");
        assert_eq!(value["filename"], "../x.pdf");
        let (_, blob) = blob_value("abc", "image", &json!({"filename": "Foto 1.jpg", "width": 4, "height": 3}));
        assert_eq!(blob.path, "abc/image/Foto 1.jpg");
    }
}
