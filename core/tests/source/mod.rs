//! Reading core's and the plugins' own code, for the tests that hold it to its rules.

use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, in no particular order.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
