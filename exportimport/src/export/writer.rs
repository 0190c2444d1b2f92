//! Writing an export's files: into a directory that was new or empty (an export never mixes
//! with what was there) and that only its owner may read, JSON with sorted keys and two-space indentation, so one site always
//! gives the same bytes.

use crate::error::ImportError;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The export's directory.
pub struct Writer {
    root: PathBuf,
}

impl Writer {
    /// Makes `dir` (and its parents) if it does not exist; an existing one must be empty.
    pub fn create(dir: &Path) -> Result<Writer, ImportError> {
        let shown = dir.display().to_string();
        let fail = |problem: String| ImportError::new(&shown, problem);
        if dir.exists() {
            let mut entries = std::fs::read_dir(dir).map_err(|e| fail(format!("cannot be read: {e}")))?;
            if entries.next().is_some() {
                return Err(fail("is not empty: an export goes into a new or empty directory".into()));
            }
        }
        std::fs::create_dir_all(dir).map_err(|e| fail(format!("cannot be made: {e}")))?;
        // It holds password hashes: its owner alone may read it.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| fail(format!("cannot be made private: {e}")))?;
        }
        Ok(Writer { root: dir.to_path_buf() })
    }

    /// Writes `value` as `relative`, its keys sorted.
    pub fn json(&self, relative: &str, value: &Value) -> Result<(), ImportError> {
        let mut text = serde_json::to_vec_pretty(&sorted(value))
            .map_err(|e| ImportError::new(relative, format!("cannot be written: {e}")))?;
        text.push(b'\n');
        self.bytes(relative, &text)
    }

    /// Writes `bytes` as `relative`, making its directories.
    pub fn bytes(&self, relative: &str, bytes: &[u8]) -> Result<(), ImportError> {
        let path = self.root.join(relative);
        let fail = |e: std::io::Error| ImportError::new(relative, format!("cannot be written: {e}"));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(fail)?;
        }
        std::fs::write(&path, bytes).map_err(fail)
    }
}

/// `value` with every object's keys in order (the map keeps the order keys were put in).
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&map[k]))).collect::<Map<String, Value>>())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_sorted_at_every_depth_and_lists_keep_their_order() {
        let value = serde_json::json!({"b": [{"z": 1, "a": 2}, 3], "a": {"y": 1, "x": 2}});
        let text = serde_json::to_string(&sorted(&value)).unwrap();
        assert_eq!(text, r#"{"a":{"x":2,"y":1},"b":[{"a":2,"z":1},3]}"#);
    }

    #[test]
    fn a_directory_with_something_in_it_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("old.json"), "{}").unwrap();
        let refused = Writer::create(dir.path()).err().unwrap();
        assert!(refused.problem.contains("is not empty"), "{refused}");
        let fresh = dir.path().join("new/export");
        Writer::create(&fresh).unwrap().json("content/x.json", &serde_json::json!({"b": 1, "a": 2})).unwrap();
        assert_eq!(std::fs::read_to_string(fresh.join("content/x.json")).unwrap(), "{\n  \"a\": 2,\n  \"b\": 1\n}\n");
    }
}
