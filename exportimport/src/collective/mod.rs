//! collective.exportimport's format, which Plone 4, 5 and 6 sites export with `@@export_content`
//! and its sibling views: the content as one JSON list per file (`Plone.json`), or one file per
//! item in a numbered folder (`Plone/1.json`, `2.json`…), beside `export_members.json`,
//! `export_relations.json`, `export_translations.json`, `export_localroles.json`,
//! `export_ordering.json`, `export_defaultpages.json`, `export_discussion.json` and
//! `export_redirects.json`.
//!
//! It is written out in plone.exportimport's layout in a directory of its own (removed when
//! the import ends), which the importer then reads as any export: one reader checks and
//! writes both. Content lists are read item by item, so a file of many gigabytes (files as
//! base64) costs the memory of its largest item.

mod content;
mod other;

use crate::error::ImportError;
use crate::export::Writer;
use std::path::{Path, PathBuf};

/// The files collective.exportimport writes beside the content, by their default names.
const SIDE_FILES: [&str; 8] = [
    "export_members.json",
    "export_relations.json",
    "export_translations.json",
    "export_localroles.json",
    "export_ordering.json",
    "export_defaultpages.json",
    "export_discussion.json",
    "export_redirects.json",
];

/// A converted export: its directory lives as long as this does.
pub struct Converted {
    _dir: tempfile::TempDir,
    /// The directory in plone.exportimport's layout.
    pub root: PathBuf,
}

/// Whether `dir` holds a collective.exportimport export: no plone.exportimport metadata, and
/// one of its side files or a content list.
pub fn is_collective(dir: &Path) -> bool {
    if !dir.is_dir() || dir.join("content").join("__metadata__.json").exists() {
        return false;
    }
    SIDE_FILES.iter().any(|name| dir.join(name).is_file()) || !content::sources(dir).is_empty()
}

/// Converts the export at `dir`; files larger than `max_file_bytes` are refused.
pub fn convert(dir: &Path, max_file_bytes: u64) -> Result<Converted, ImportError> {
    let temp = tempfile::Builder::new()
        .prefix("wcs-import-collective-")
        .tempdir()
        .map_err(|e| ImportError::new("", format!("making a working directory: {e}")))?;
    let root = temp.path().join("export");
    let writer = Writer::create(&root)?;
    let written = content::convert(dir, &writer, max_file_bytes)?;
    other::convert(dir, &writer, &written)?;
    Ok(Converted { _dir: temp, root })
}
