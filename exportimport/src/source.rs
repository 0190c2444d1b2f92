//! Reading an export directory safely: every file named inside the export (data files, blob
//! paths) must stay inside it, be a plain file and not a symbolic link, so an export cannot
//! make the importer read anything else on the machine.

use crate::error::ImportError;
use serde::de::DeserializeOwned;
use std::path::{Component, Path, PathBuf};

/// The largest JSON file read whole (a data file, principals.json…).
const MAX_JSON_BYTES: u64 = 256 * 1024 * 1024;

/// An export directory of plone.exportimport.
pub struct ExportDir {
    root: PathBuf,
}

/// Where the content lies, below the export's directory.
pub const CONTENT_DIR: &str = "content";

impl ExportDir {
    /// The export at `root`, which must hold `content/__metadata__.json`.
    pub fn open(root: &Path) -> Result<ExportDir, ImportError> {
        let shown = root.display().to_string();
        if !root.is_dir() {
            return Err(ImportError::new(shown, "is not a directory (a plone.exportimport export is one)"));
        }
        let export = ExportDir { root: root.to_path_buf() };
        if !export.root.join(CONTENT_DIR).join("__metadata__.json").is_file() {
            return Err(ImportError::new(
                format!("{CONTENT_DIR}/__metadata__.json"),
                "is missing: this is not a plone.exportimport export",
            ));
        }
        Ok(export)
    }

    /// A JSON file of the export (`principals.json`, `content/…`); `None` when it is absent,
    /// which plone.exportimport reads as "nothing of that kind".
    pub fn json<T: DeserializeOwned>(&self, relative: &str) -> Result<Option<T>, ImportError> {
        let Some(path) = self.existing(relative)? else { return Ok(None) };
        let bytes = read_bounded(&path, MAX_JSON_BYTES).map_err(|problem| ImportError::new(relative, problem))?;
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| ImportError::new(relative, format!("is not what plone.exportimport writes: {e}")))
    }

    /// A JSON file that must be there.
    pub fn required_json<T: DeserializeOwned>(&self, relative: &str) -> Result<T, ImportError> {
        self.json(relative)?.ok_or_else(|| ImportError::new(relative, "is missing"))
    }

    /// The size of a file the export names (a blob), checked as [`ExportDir::read`] checks it.
    pub fn size(&self, relative: &str) -> Result<u64, ImportError> {
        let path = self.existing(relative)?.ok_or_else(|| ImportError::new(relative, "is missing"))?;
        path.metadata().map(|m| m.len()).map_err(|e| ImportError::new(relative, e.to_string()))
    }

    /// The bytes of a file the export names, at most `limit` of them.
    pub fn read(&self, relative: &str, limit: u64) -> Result<Vec<u8>, ImportError> {
        let path = self.existing(relative)?.ok_or_else(|| ImportError::new(relative, "is missing"))?;
        read_bounded(&path, limit).map_err(|problem| ImportError::new(relative, problem))
    }

    /// The path of `relative` when it is a plain file inside the export; `None` when absent.
    fn existing(&self, relative: &str) -> Result<Option<PathBuf>, ImportError> {
        let inside = Path::new(relative);
        if inside.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(ImportError::new(relative, "names a place outside the export"));
        }
        // Each step is looked at without following links: a link inside the export could
        // point anywhere.
        let mut path = self.root.clone();
        for component in inside.components() {
            path.push(component);
            match path.symlink_metadata() {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(ImportError::new(relative, e.to_string())),
                Ok(meta) if meta.file_type().is_symlink() => {
                    return Err(ImportError::new(relative, "is a symbolic link, which an export never holds"));
                }
                Ok(_) => {}
            }
        }
        if !path.is_file() {
            return Err(ImportError::new(relative, "is not a file"));
        }
        Ok(Some(path))
    }
}

fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let size = path.metadata().map_err(|e| e.to_string())?.len();
    if size > limit {
        return Err(format!("holds {size} bytes, more than the {limit} an import reads"));
    }
    std::fs::read(path).map_err(|e| e.to_string())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn export() -> (tempfile::TempDir, ExportDir) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("content/abc")).unwrap();
        std::fs::write(dir.path().join("content/__metadata__.json"), "{}").unwrap();
        std::fs::write(dir.path().join("content/abc/data.json"), r#"{"a": 1}"#).unwrap();
        let opened = ExportDir::open(dir.path()).unwrap();
        (dir, opened)
    }

    #[test]
    fn files_inside_are_read_and_absent_ones_are_none() {
        let (_dir, export) = export();
        let value: serde_json::Value = export.required_json("content/abc/data.json").unwrap();
        assert_eq!(value["a"], 1);
        assert_eq!(export.json::<serde_json::Value>("principals.json").unwrap(), None);
        assert_eq!(export.size("content/abc/data.json").unwrap(), 8);
    }

    #[test]
    fn names_leading_outside_and_links_are_refused() {
        let (dir, export) = export();
        for outside in ["../secret", "/etc/passwd", "content/../../x"] {
            let error = export.read(outside, 10).unwrap_err();
            assert!(error.problem.contains("outside"), "{outside}: {error}");
        }
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join("content/link")).unwrap();
        let error = export.read("content/link", 1000).unwrap_err();
        assert!(error.problem.contains("symbolic link"), "{error}");
    }

    #[test]
    fn broken_json_and_a_missing_metadata_file_name_the_file() {
        let (dir, export) = export();
        std::fs::write(dir.path().join("broken.json"), "{").unwrap();
        let error = export.json::<serde_json::Value>("broken.json").unwrap_err();
        assert_eq!(error.file, "broken.json");
        std::fs::remove_file(dir.path().join("content/__metadata__.json")).unwrap();
        let error = ExportDir::open(dir.path()).err().unwrap();
        assert!(error.problem.contains("not a plone.exportimport export"), "{error}");
    }
}
