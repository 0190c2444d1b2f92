//! The content of a collective.exportimport export, item by item, into plone.exportimport's
//! `content/<uid>/data.json` with files beside it. Items carry absolute URLs
//! (`http://host:8080/Plone/a/b`); the site's URL is the `@id` of the items' site root (their
//! parent of type `Plone Site`), and every `@id` becomes a path below it.

use crate::error::ImportError;
use crate::export::Writer;
use crate::format::SITE_ROOT_KEY;
use crate::source::CONTENT_DIR;
use base64::Engine;
use serde::de::{SeqAccess, Visitor};
use serde_json::{Map, Value, json};
use std::path::{Component, Path, PathBuf};

/// What was written, for the metadata.
#[derive(Debug, Default)]
pub struct Written {
    /// Each `data.json`, relative to `content/`, in the order read.
    pub data_files: Vec<String>,
    /// Each file's bytes, relative to `content/`.
    pub blob_files: Vec<String>,
}

/// Where the content is: lists (`Plone.json`) and folders of numbered items (`Plone/1.json`).
pub enum Source {
    /// A file holding a JSON list of items.
    List(PathBuf),
    /// A folder of `1.json`, `2.json`…, one item each, in number order.
    Folder(Vec<PathBuf>),
}

/// The content sources in `dir`, in name order.
pub fn sources(dir: &Path) -> Vec<Source> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    let mut found = Vec::new();
    for path in paths {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if path.is_file() && name.ends_with(".json") && !name.starts_with("export_") && name != "errors.json" {
            found.push(Source::List(path));
        } else if path.is_dir() {
            let mut items: Vec<(u64, PathBuf)> = std::fs::read_dir(&path)
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let number = e.path().file_stem()?.to_str()?.parse().ok()?;
                    (e.path().extension()? == "json").then(|| (number, e.path()))
                })
                .collect();
            items.sort();
            if !items.is_empty() {
                found.push(Source::Folder(items.into_iter().map(|(_, p)| p).collect()));
            }
        }
    }
    found
}

/// Writes every item of `dir`'s content sources through `writer`.
pub fn convert(dir: &Path, writer: &Writer, max_file_bytes: u64) -> Result<Written, ImportError> {
    let mut state = State {
        dir,
        writer,
        max_file_bytes,
        site_url: None,
        root_title: None,
        root_written: false,
        waiting: Vec::new(),
        written: Written::default(),
    };
    for source in sources(dir) {
        match source {
            Source::List(path) => {
                let shown = shown(dir, &path);
                each_item(&path, &mut |item| state.take(item, &shown))?;
            }
            Source::Folder(paths) => {
                for path in paths {
                    let shown = shown(dir, &path);
                    let bytes = std::fs::read(&path).map_err(|e| ImportError::new(&shown, e.to_string()))?;
                    let item: Value = serde_json::from_slice(&bytes).map_err(|e| {
                        ImportError::new(&shown, format!("is not what collective.exportimport writes: {e}"))
                    })?;
                    state.take(item, &shown)?;
                }
            }
        }
    }
    state.finish()
}

fn shown(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

/// Calls `each` with every element of the JSON list in `path`, one at a time; an empty file is
/// an empty list (collective.exportimport writes one for an export without items).
fn each_item(path: &Path, each: &mut dyn FnMut(Value) -> Result<(), ImportError>) -> Result<(), ImportError> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| ImportError::new(&shown, e.to_string()))?;
    if file.metadata().map(|m| m.len()).unwrap_or_default() == 0 {
        return Ok(());
    }
    let mut failed = None;
    let mut reader = serde_json::Deserializer::from_reader(std::io::BufReader::new(file));
    let read = serde::Deserializer::deserialize_seq(&mut reader, Items { each, failed: &mut failed });
    if let Some(problem) = failed {
        return Err(problem);
    }
    read.and_then(|()| reader.end())
        .map_err(|e| ImportError::new(&shown, format!("is not a list of items as collective.exportimport writes: {e}")))
}

struct Items<'a> {
    each: &'a mut dyn FnMut(Value) -> Result<(), ImportError>,
    failed: &'a mut Option<ImportError>,
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of items")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(item) = seq.next_element::<Value>()? {
            if let Err(problem) = (self.each)(item) {
                *self.failed = Some(problem);
                return Err(serde::de::Error::custom("stopped"));
            }
        }
        Ok(())
    }
}

struct State<'a> {
    dir: &'a Path,
    writer: &'a Writer,
    max_file_bytes: u64,
    /// The old site's URL, once an item names it.
    site_url: Option<String>,
    /// The old site's title, from an item's parent summary.
    root_title: Option<Value>,
    /// Whether an item was the site root (Plone 6 exports hold it; older ones do not).
    root_written: bool,
    /// Items read before it was known, with the file they came from.
    waiting: Vec<(Map<String, Value>, String)>,
    written: Written,
}

impl State<'_> {
    fn take(&mut self, item: Value, file: &str) -> Result<(), ImportError> {
        // An element without a type is the list of what could not be exported.
        let Value::Object(item) = item else { return Ok(()) };
        if !item.contains_key("@type") {
            return Ok(());
        }
        if self.site_url.is_none() {
            self.site_url = site_url_of(&item);
        }
        if self.root_title.is_none() {
            let parent = item.get("parent").filter(|p| p.get("@type").and_then(Value::as_str) == Some("Plone Site"));
            self.root_title = parent.and_then(|p| p.get("title")).cloned();
        }
        match self.site_url {
            Some(_) => {
                for (waiting, from) in std::mem::take(&mut self.waiting) {
                    self.write(waiting, &from)?;
                }
                self.write(item, file)
            }
            None => {
                self.waiting.push((item, file.to_owned()));
                Ok(())
            }
        }
    }

    fn finish(mut self) -> Result<Written, ImportError> {
        if !self.waiting.is_empty() {
            // No item names the site root: the first segment of the first item's path is the
            // site (collective.exportimport's own importer reads it so).
            let first = self.waiting.first().and_then(|(item, _)| item.get("@id")?.as_str().map(str::to_owned));
            self.site_url = first.and_then(|id| {
                let (origin, path) = split_url(&id);
                let site = path.trim_start_matches('/').split('/').next()?.to_owned();
                Some(format!("{origin}/{site}"))
            });
            for (waiting, from) in std::mem::take(&mut self.waiting) {
                self.write(waiting, &from)?;
            }
        }
        if !self.root_written {
            // Exports of Plone 5 and older hold no site root: its place is kept with its title.
            let site_id = self.site_url.as_deref().and_then(|url| url.rsplit('/').next()).unwrap_or_default();
            let mut root = json!({"@id": format!("/{site_id}"), "@type": "Plone Site", "UID": SITE_ROOT_KEY});
            if let Some(title) = self.root_title.take() {
                root["title"] = title;
            }
            let data_file = format!("{SITE_ROOT_KEY}/data.json");
            self.writer.json(&format!("{CONTENT_DIR}/{data_file}"), &root)?;
            self.written.data_files.insert(0, data_file);
        }
        Ok(self.written)
    }

    fn write(&mut self, mut item: Map<String, Value>, file: &str) -> Result<(), ImportError> {
        let fail = |problem: String| ImportError::new(file, problem);
        let site_url = self.site_url.clone().unwrap_or_default();
        let at_id = item.get("@id").and_then(Value::as_str).unwrap_or_default().to_owned();
        let is_root = item.get("@type").and_then(Value::as_str) == Some("Plone Site");
        let key = if is_root {
            SITE_ROOT_KEY.to_owned()
        } else {
            item.get("UID").and_then(Value::as_str).unwrap_or_default().to_owned()
        };
        let below = below_site(&at_id, &site_url)
            .ok_or_else(|| fail(format!("the item {at_id} is not below the site {site_url} the other items are in")))?;
        let path = if is_root {
            format!("/{}", site_url.rsplit('/').next().unwrap_or_default())
        } else if key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit()) {
            below
        } else {
            return Err(fail(format!("the item {at_id} has no UID of 32 hexadecimal characters")));
        };
        item.insert("@id".into(), json!(path));
        if let Some(Value::Object(parent)) = item.get_mut("parent")
            && let Some(parent_id) = parent.get("@id").and_then(Value::as_str)
        {
            let parent_path = below_site(parent_id, &site_url).unwrap_or_default();
            parent.insert("@id".into(), json!(parent_path));
        }
        if let Some(Value::Object(term)) = item.get("language")
            && let Some(token) = term.get("token").cloned()
        {
            item.insert("language".into(), token);
        }
        // Links into the old site become paths below it, as plone.exportimport writes them; the
        // importer makes those that name an object uid links.
        for value in item.values_mut() {
            relative_links(value, &site_url);
        }
        let names: Vec<String> = item.keys().cloned().collect();
        for name in names {
            let Some(Value::Object(value)) = item.get(&name) else { continue };
            if !is_file(value) {
                continue;
            }
            let value = value.clone();
            let out = self.file(&key, &name, &value).map_err(fail)?;
            item.insert(name, out);
        }
        self.root_written |= is_root;
        let data_file = format!("{key}/data.json");
        self.writer.json(&format!("{CONTENT_DIR}/{data_file}"), &Value::Object(item))?;
        self.written.data_files.push(data_file);
        Ok(())
    }

    /// A file field's bytes written beside the data, and the field as plone.exportimport has it.
    fn file(&mut self, key: &str, field: &str, value: &Map<String, Value>) -> Result<Value, String> {
        let filename = value.get("filename").and_then(Value::as_str).unwrap_or(field).to_owned();
        let bytes = if let Some(data) = value.get("data").and_then(Value::as_str) {
            base64::engine::general_purpose::STANDARD
                .decode(data.as_bytes().iter().filter(|b| !b.is_ascii_whitespace()).copied().collect::<Vec<u8>>())
                .map_err(|e| format!("{field}: its base64 data cannot be read: {e}"))?
        } else if let Some(blob_path) = value.get("blob_path").and_then(Value::as_str) {
            self.blob_storage_file(blob_path).map_err(|problem| format!("{field}: {problem}"))?
        } else {
            return Err(format!(
                "{field}: files exported as download URLs cannot be imported; export them again with \
                 \"include blobs\" as base64 or as blob paths"
            ));
        };
        if bytes.len() as u64 > self.max_file_bytes {
            return Err(format!("{field}: holds {} bytes, more than the server takes", bytes.len()));
        }
        let on_disk = if filename.is_empty() || filename.contains(['/', '\\', '\0']) || filename.starts_with('.') {
            field.to_owned()
        } else {
            filename.clone()
        };
        let blob_path = format!("{key}/{field}/{on_disk}");
        self.writer.bytes(&format!("{CONTENT_DIR}/{blob_path}"), &bytes).map_err(|e| e.problem)?;
        self.written.blob_files.push(blob_path.clone());
        Ok(json!({
            "blob_path": blob_path,
            "content-type": value.get("content-type").cloned().unwrap_or(Value::Null),
            "filename": filename,
            "size": bytes.len(),
        }))
    }

    /// A file of the old site's blob storage: collective.exportimport names it relative to the
    /// storage, which is copied beside the export as `blobstorage/`.
    fn blob_storage_file(&self, blob_path: &str) -> Result<Vec<u8>, String> {
        let relative = Path::new(blob_path);
        if relative.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(format!("its blob path {blob_path} names a place outside the blob storage"));
        }
        let path = self.dir.join("blobstorage").join(relative);
        let size = path
            .symlink_metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len())
            .ok_or_else(|| format!("blobstorage/{blob_path} is missing (copy the old site's blob storage beside the export as blobstorage/)"))?;
        if size > self.max_file_bytes {
            return Err(format!("blobstorage/{blob_path} holds {size} bytes, more than the server takes"));
        }
        std::fs::read(&path).map_err(|e| format!("blobstorage/{blob_path}: {e}"))
    }
}

/// Rewrites `<site_url>/a/b` to `/a/b` in every text inside `value` (links in blocks, rich text
/// and link fields).
fn relative_links(value: &mut Value, site_url: &str) {
    match value {
        Value::String(text) if !site_url.is_empty() && text.contains(site_url) => {
            let prefix = format!("{site_url}/");
            let mut rewritten = text.replace(&prefix, "/");
            if rewritten == site_url {
                rewritten = "/".to_owned();
            }
            *text = rewritten;
        }
        Value::Object(map) => map.values_mut().for_each(|v| relative_links(v, site_url)),
        Value::Array(items) => items.iter_mut().for_each(|v| relative_links(v, site_url)),
        _ => {}
    }
}

/// Whether a field's value is a file as collective.exportimport writes one.
fn is_file(value: &Map<String, Value>) -> bool {
    value.contains_key("filename")
        && (value.get("encoding").and_then(Value::as_str) == Some("base64")
            || value.contains_key("blob_path")
            || value.contains_key("download"))
}

/// The site's URL, when `item` is the site root or names it as its parent.
fn site_url_of(item: &Map<String, Value>) -> Option<String> {
    let root_id = |value: &Value| value.get("@id").and_then(Value::as_str).map(|s| s.trim_end_matches('/').to_owned());
    if item.get("@type").and_then(Value::as_str) == Some("Plone Site") {
        return root_id(&Value::Object(item.clone()));
    }
    let parent = item.get("parent")?;
    (parent.get("@type").and_then(Value::as_str) == Some("Plone Site")).then(|| root_id(parent)).flatten()
}

/// `scheme://host` and the path of a URL.
fn split_url(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |at| at + 3);
    match url[after_scheme..].find('/') {
        Some(at) => url.split_at(after_scheme + at),
        None => (url, ""),
    }
}

/// The path below the site `site_url` that `url` names (`""` for the site itself).
fn below_site(url: &str, site_url: &str) -> Option<String> {
    let rest = url.trim_end_matches('/').strip_prefix(site_url)?;
    (rest.is_empty() || rest.starts_with('/')).then(|| rest.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_become_paths_below_the_site() {
        assert_eq!(split_url("http://localhost:8080/Plone/a"), ("http://localhost:8080", "/Plone/a"));
        assert_eq!(below_site("http://h/Plone/a/b", "http://h/Plone"), Some("/a/b".into()));
        assert_eq!(below_site("http://h/Plone", "http://h/Plone"), Some(String::new()));
        assert_eq!(below_site("http://h/Plonex/a", "http://h/Plone"), None);
    }
}
