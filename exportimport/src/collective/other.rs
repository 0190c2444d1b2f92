//! collective.exportimport's side files in plone.exportimport's form: the metadata (positions,
//! local roles, default pages) from `export_ordering.json`, `export_localroles.json` and
//! `export_defaultpages.json`, and `principals.json`, `relations.json`, `translations.json`,
//! `discussions.json` and `redirects.json` from their counterparts. The site root, which
//! collective.exportimport names `<Portal>` or `plone_site_root`, is plone.exportimport's
//! `plone_site_root`.

use super::content::Written;
use crate::error::ImportError;
use crate::export::Writer;
use crate::format::{FORMAT_VERSION, SITE_ROOT_KEY};
use crate::source::CONTENT_DIR;
use serde_json::{Map, Value, json};
use std::path::Path;

/// The largest side file read.
const MAX_SIDE_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// collective.exportimport's name for the site root in local roles and portlets.
const PORTAL: &str = "<Portal>";

/// Writes the metadata and the site files.
pub fn convert(dir: &Path, writer: &Writer, written: &Written) -> Result<(), ImportError> {
    let mut ordering = Map::new();
    for entry in list(dir, "export_ordering.json")? {
        if let (Some(uid), Some(order)) = (entry.get("uuid").and_then(Value::as_str), entry.get("order")) {
            ordering.insert(uid.to_owned(), order.clone());
        }
    }
    let mut local_roles = Map::new();
    for entry in list(dir, "export_localroles.json")? {
        let Some(uid) = entry.get("uuid").and_then(Value::as_str) else { continue };
        let mut roles = Map::new();
        if let Some(given) = entry.get("localroles") {
            roles.insert("local_roles".into(), given.clone());
        }
        if let Some(block) = entry.get("block") {
            roles.insert("block".into(), block.clone());
        }
        local_roles.insert(root_or(uid), Value::Object(roles));
    }
    let mut default_page = Map::new();
    for entry in list(dir, "export_defaultpages.json")? {
        if let (Some(uid), Some(page)) = (entry.get("uuid").and_then(Value::as_str), entry.get("default_page")) {
            default_page.insert(root_or(uid), json!({"default_page": page}));
        }
    }
    let metadata = json!({
        "__version__": FORMAT_VERSION,
        "_data_files_": written.data_files,
        "_blob_files_": written.blob_files,
        "default_page": default_page,
        "local_permissions": {},
        "local_roles": local_roles,
        "ordering": ordering,
    });
    writer.json(&format!("{CONTENT_DIR}/__metadata__.json"), &metadata)?;

    if let Some(members) = read(dir, "export_members.json")? {
        writer.json("principals.json", &members)?;
    }
    let relations: Vec<Value> = list(dir, "export_relations.json")?
        .into_iter()
        .map(|r| {
            let name = r.get("from_attribute").or_else(|| r.get("relationship")).cloned().unwrap_or(Value::Null);
            json!({"from_attribute": name, "from_uuid": r.get("from_uuid"), "to_uuid": r.get("to_uuid")})
        })
        .collect();
    writer.json("relations.json", &Value::Array(relations))?;
    let translations: Vec<Value> = list(dir, "export_translations.json")?
        .into_iter()
        .filter_map(|group| {
            let mut members: Vec<(String, Value)> =
                group.as_object()?.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            members.sort_by(|a, b| a.0.cmp(&b.0));
            let (_, canonical) = members.first()?.clone();
            Some(json!({"canonical": canonical, "translations": members.into_iter().skip(1).collect::<Map<_, _>>()}))
        })
        .collect();
    writer.json("translations.json", &Value::Array(translations))?;
    let mut discussions = Map::new();
    for entry in list(dir, "export_discussion.json")? {
        if let (Some(uid), Some(conversation)) = (entry.get("uuid").and_then(Value::as_str), entry.get("conversation"))
        {
            discussions.insert(uid.to_owned(), conversation.clone());
        }
    }
    writer.json("discussions.json", &Value::Object(discussions))?;
    let redirects = read(dir, "export_redirects.json")?.unwrap_or_else(|| json!({}));
    writer.json("redirects.json", &redirects)
}

fn root_or(uid: &str) -> String {
    if uid == PORTAL { SITE_ROOT_KEY.to_owned() } else { uid.to_owned() }
}

/// A side file's JSON; `None` when it is not there (collective.exportimport writes none for
/// an export without data).
fn read(dir: &Path, name: &str) -> Result<Option<Value>, ImportError> {
    let path = dir.join(name);
    let Ok(meta) = path.symlink_metadata() else { return Ok(None) };
    if !meta.is_file() {
        return Err(ImportError::new(name, "is not a plain file"));
    }
    if meta.len() > MAX_SIDE_FILE_BYTES {
        return Err(ImportError::new(name, format!("holds {} bytes, more than an import reads", meta.len())));
    }
    let bytes = std::fs::read(&path).map_err(|e| ImportError::new(name, e.to_string()))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| ImportError::new(name, format!("is not what collective.exportimport writes: {e}")))
}

/// A side file that holds a list.
fn list(dir: &Path, name: &str) -> Result<Vec<Value>, ImportError> {
    match read(dir, name)? {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(ImportError::new(name, "must hold a list, as collective.exportimport writes it")),
    }
}
